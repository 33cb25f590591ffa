import { Suspense } from 'react';
import { SignInScreen } from '@/components/auth/sign-in-screen';

export const metadata = { title: 'Sign in · Roomtone console' };

export default function Page() {
  return (
    <Suspense>
      <SignInScreen />
    </Suspense>
  );
}
