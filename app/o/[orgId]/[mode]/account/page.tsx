import { ChangePasswordScreen } from '@/components/account/change-password-screen';

export const metadata = { title: 'Your account · Roomtone console' };

export default function Page() {
  return <ChangePasswordScreen />;
}
