'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { signIn } from 'next-auth/react';
import { signInInput } from '@/shared/console/console-inputs';
import { safeCallbackPath } from '@/shared/auth/callback-url';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { MailDestination } from '@/components/mail/mail-destination';
import { AuthCard } from './auth-card';


const linkInput = signInInput.pick({ email: true });

const ERRORS: Record<string, string> = {
  too_many_attempts: 'Too many sign-in attempts. Wait a few minutes and try again.',
  email_unverified: 'Confirm your e-mail address first: open the link we e-mailed you (a new one is on its way if the last is old), or sign in with an e-mail link.',
  Verification: 'This sign-in link has expired or was already used. Ask for a new one.',
};

export function SignInScreen() {
  const params = useSearchParams();
  const router = useRouter();
  // Resolved against the page's own origin when used (the browser has no origin while rendering on the server).
  const callbackUrl = () => safeCallbackPath(params.get('callbackUrl'), window.location.origin);
  const [error, setError] = React.useState<string | null>(params.get('error') ? (ERRORS[params.get('error') ?? ''] ?? 'Sign-in failed. Try again.') : null);
  const [linkSentTo, setLinkSentTo] = React.useState<string | null>(null);

  const passwordForm = useForm({ resolver: zodResolver(signInInput), defaultValues: { email: '', password: '' } });
  const linkForm = useForm({ resolver: zodResolver(linkInput), defaultValues: { email: '' } });

  const withPassword = passwordForm.handleSubmit(async (values) => {
    setError(null);
    const result = await signIn('credentials', { ...values, redirect: false as const });
    if (!result || result.error) {
      setError(result?.code && ERRORS[result.code] ? ERRORS[result.code]! : 'Wrong e-mail or password.');
      return;
    }
    router.replace(callbackUrl());
    router.refresh();
  });
  const withLink = linkForm.handleSubmit(async (values) => {
    setError(null);
    const result = await signIn('email', { email: values.email, redirect: false as const, redirectTo: callbackUrl() });
    if (result?.error) setError('Could not send a sign-in link. Try again.');
    else setLinkSentTo(values.email);
  });

  return (
    <AuthCard
      title="Sign in to the console"
      footer={
        <>
          No account? <Link className="text-primary underline underline-offset-4" href="/sign-up">Create one</Link>
        </>
      }
    >
      <FormError message={error} />
      <Tabs defaultValue="password" className="mt-2">
        <TabsList className="w-full">
          <TabsTrigger value="password" className="flex-1">
            Password
          </TabsTrigger>
          <TabsTrigger value="link" className="flex-1">
            E-mail me a link
          </TabsTrigger>
        </TabsList>
        <TabsContent value="password" tabIndex={-1}>
          <form onSubmit={withPassword} className="flex flex-col gap-4" noValidate>
            <TextField control={passwordForm.control} name="email" label="E-mail" type="email" autoComplete="email" />
            <TextField control={passwordForm.control} name="password" label="Password" type="password" autoComplete="current-password" />
            <Button type="submit" disabled={passwordForm.formState.isSubmitting}>
              Sign in
            </Button>
            <Link href="/reset-password" className="text-center text-sm text-primary underline underline-offset-4">
              Forgot your password?
            </Link>
          </form>
        </TabsContent>
        <TabsContent value="link" tabIndex={-1}>
          {linkSentTo ? (
            <div role="status" className="grid gap-2 text-sm">
              <p>If {linkSentTo} has an account, a sign-in link is on its way (valid 15 minutes).</p>
              <MailDestination />
            </div>
          ) : (
            <form onSubmit={withLink} className="flex flex-col gap-4" noValidate>
              <TextField control={linkForm.control} name="email" label="E-mail" type="email" autoComplete="email" />
              <Button type="submit" disabled={linkForm.formState.isSubmitting}>
                E-mail me a sign-in link
              </Button>
              <MailDestination />
            </form>
          )}
        </TabsContent>
      </Tabs>
    </AuthCard>
  );
}
