'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { signIn } from 'next-auth/react';
import { verifyEmailInput } from '@/shared/console/console-inputs';
import { apiErrorOf, useTRPC } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';
import { AuthCard } from './auth-card';

/**
 * /verify-email?token=…: the link of the confirmation mail. The account's password is asked
 * too, so the mailbox's owner cannot confirm an account someone else opened with their address
 * (and a mail scanner that opens links confirms nothing). Then the page signs in.
 */
export function VerifyEmailScreen() {
  const token = useSearchParams().get('token') ?? '';
  const trpc = useTRPC();
  const router = useRouter();
  const [error, setError] = React.useState<string | null>(null);
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions());
  const form = useForm({ resolver: zodResolver(verifyEmailInput), defaultValues: { token, password: '' } });
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      const { email } = await verify.mutateAsync(values);
      const result = await signIn('credentials', { email, password: values.password, redirect: false as const });
      if (!result || result.error) throw new Error('Your address is confirmed; sign in to continue.');
      router.replace('/');
      router.refresh();
    } catch (e) {
      // A wrong password is shown at its field; an unusable link above the form.
      const apiError = apiErrorOf(e);
      if (apiError?.param === 'password') form.setError('password', { message: apiError.message });
      else setError(e instanceof Error ? e.message : String(e));
    }
  });
  return (
    <AuthCard
      title="Confirm your e-mail address"
      description="Enter the password you chose when you created the account."
      footer={
        <Link className="text-primary underline underline-offset-4" href="/sign-in">
          Back to sign-in
        </Link>
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <FormError message={error} />
        <TextField control={form.control} name="password" label="Password" type="password" autoComplete="current-password" />
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Confirm and sign in
        </Button>
      </form>
    </AuthCard>
  );
}
