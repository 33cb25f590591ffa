import Link from 'next/link';
import { AuthCard } from '@/components/auth/auth-card';

export const metadata = { title: 'Check your e-mail · Roomtone console' };

export default function Page() {
  return (
    <AuthCard title="Check your e-mail" description="A sign-in link is on its way; it is valid for 15 minutes and works once.">
      <p className="text-sm text-muted-foreground">
        On an installation without SMTP, the operator finds it in the server&apos;s log or with <code>roomtone mail list</code>.{' '}
        <Link className="text-primary underline underline-offset-4" href="/sign-in">
          Back to sign-in
        </Link>
      </p>
    </AuthCard>
  );
}
