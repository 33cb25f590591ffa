import { Suspense } from 'react';
import { VerifyEmailScreen } from '@/components/auth/verify-email-screen';

export const metadata = { title: 'Confirm your e-mail address · Roomtone console' };

export default function Page() {
  return (
    <Suspense>
      <VerifyEmailScreen />
    </Suspense>
  );
}
