'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { signUpInput } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';
import { MailDestination } from '@/components/mail/mail-destination';
import { AuthCard } from './auth-card';

/**
 * Create an account: with a new organization (open sign-up), confirmed by a mailed link before
 * the password signs in; or — given an invitation token — joining the inviting organization with
 * the invited address, signed in at once (the invitation's link proved the address).
 */
export function SignUpForm({ invitation, onCheckEmail }: { invitation?: { token: string; email: string }; onCheckEmail?: (email: string) => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [error, setError] = React.useState<string | null>(null);
  const [checkEmail, setCheckEmail] = React.useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(signUpInput),
    defaultValues: { email: invitation?.email ?? '', password: '', name: '', organizationName: invitation ? undefined : '', invitationToken: invitation?.token },
  });
  const signUp = useMutation(trpc.auth.signUp.mutationOptions());
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const created = await signUp.mutateAsync({ ...values, name: values.name || undefined });
      if (created.status === 'check_email') {
        if (onCheckEmail) onCheckEmail(values.email);
        else setCheckEmail(values.email);
        return;
      }
      const result = await signIn('credentials', { email: values.email, password: values.password, redirect: false as const });
      if (!result || result.error) throw new Error('Your account exists; sign in to continue.');
      router.replace(`/o/${created.organization_id}/test/overview`);
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  });
  if (checkEmail) return <CheckEmailNotice email={checkEmail} withTitle />;
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error} />
      <TextField control={form.control} name="name" label="Your name" autoComplete="name" />
      <TextField control={form.control} name="email" label="E-mail" type="email" autoComplete="email" readOnly={Boolean(invitation)} />
      <TextField control={form.control} name="password" label="Password" type="password" autoComplete="new-password" description="At least 10 characters." />
      {invitation ? null : <TextField control={form.control} name="organizationName" label="Organization name" autoComplete="organization" />}
      <Button type="submit" disabled={form.formState.isSubmitting}>
        {invitation ? 'Create account and join' : 'Create account'}
      </Button>
    </form>
  );
}

/** What a new account does next: open the mailed link. The title says it where the card has none of its own. */
function CheckEmailNotice({ email, withTitle = false }: { email: string; withTitle?: boolean }) {
  return (
    <div role="status" className="flex flex-col gap-2 text-sm" data-testid="check-email">
      {withTitle ? <p className="font-medium">Check your e-mail</p> : null}
      <p>We sent a message to {email}. Open its link (valid 24 hours) and enter your password to finish: until then the account cannot sign in.</p>
      <MailDestination />
    </div>
  );
}

export function SignUpScreen() {
  const [checkEmail, setCheckEmail] = React.useState<string | null>(null);
  if (checkEmail) {
    return (
      <AuthCard title="Check your e-mail">
        <CheckEmailNotice email={checkEmail} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create your account"
      description="You become the owner of a new organization, once you confirm your e-mail address."
      footer={
        <>
          Have an account? <Link className="text-primary underline underline-offset-4" href="/sign-in">Sign in</Link>
        </>
      }
    >
      <SignUpForm onCheckEmail={setCheckEmail} />
    </AuthCard>
  );
}
