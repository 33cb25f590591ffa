import { Suspense } from 'react';
import { ResetPasswordScreen } from '@/components/auth/reset-password-screen';

export const metadata = { title: 'Reset your password · Roomtone console' };

export default function Page() {
  return (
    <Suspense>
      <ResetPasswordScreen />
    </Suspense>
  );
}
