import { ChangePasswordScreen } from '@/components/account/change-password-screen';
import { TwoFactorSection } from '@/components/account/two-factor-section';
import { SessionsSection } from '@/components/account/sessions-section';

export const metadata = { title: 'Your account · Roomtone console' };

export default function Page() {
  return (
    <div className="flex min-w-0 flex-col gap-8">
      <ChangePasswordScreen />
      <TwoFactorSection />
      <SessionsSection />
    </div>
  );
}
