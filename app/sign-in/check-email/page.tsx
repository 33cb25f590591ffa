import { Link } from '@/components/ui/link';
import { AuthCard } from '@/components/auth/auth-card';
import { MailDestination } from '@/components/mail/mail-destination';

export const metadata = { title: 'Check your e-mail · Roomtone console' };

export default function Page() {
  return (
    <AuthCard title="Check your e-mail" description="A sign-in link is on its way; it is valid for 15 minutes and works once.">
      <div className="grid gap-3 text-sm">
        <MailDestination />
        <Link className="text-primary underline underline-offset-4" href="/sign-in">
          Back to sign-in
        </Link>
      </div>
    </AuthCard>
  );
}
