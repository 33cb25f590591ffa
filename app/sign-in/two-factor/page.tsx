import { Suspense } from 'react';
import { TwoFactorSignInScreen } from '@/components/auth/two-factor-sign-in-screen';

export const metadata = { title: 'Two-factor code · Roomtone console' };

export default function Page() {
  return (
    <Suspense>
      <TwoFactorSignInScreen />
    </Suspense>
  );
}
