import { SignUpScreen } from '@/components/auth/sign-up-screen';

export const metadata = { title: 'Create an account · Roomtone console' };

export default function Page() {
  return <SignUpScreen />;
}
