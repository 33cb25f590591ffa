'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useSearchParams } from 'next/navigation';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { requestPasswordResetInput, resetPasswordInput } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';
import { MailDestination } from '@/components/mail/mail-destination';
import { AuthCard } from './auth-card';

/** /reset-password: ask for a link; /reset-password?token=…: choose the new password. */
export function ResetPasswordScreen() {
  const token = useSearchParams().get('token');
  return (
    <AuthCard
      title={token ? 'Choose a new password' : 'Reset your password'}
      footer={
        <Link className="text-primary underline underline-offset-4" href="/sign-in">
          Back to sign-in
        </Link>
      }
    >
      {token ? <NewPasswordForm token={token} /> : <RequestLinkForm />}
    </AuthCard>
  );
}

function RequestLinkForm() {
  const trpc = useTRPC();
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const form = useForm({ resolver: zodResolver(requestPasswordResetInput), defaultValues: { email: '' } });
  if (request.isSuccess) {
    return (
      <div role="status" className="grid gap-2 text-sm">
        <p>If {form.getValues('email')} has an account, a reset link is on its way (valid one hour).</p>
        <MailDestination />
      </div>
    );
  }
  return (
    <form onSubmit={form.handleSubmit((values) => request.mutate(values))} className="flex flex-col gap-4" noValidate>
      <FormError message={request.error?.message} />
      <TextField control={form.control} name="email" label="E-mail" type="email" autoComplete="email" />
      <Button type="submit" disabled={request.isPending}>
        E-mail me a reset link
      </Button>
      <MailDestination />
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const form = useForm({ resolver: zodResolver(resetPasswordInput), defaultValues: { token, password: '' } });
  if (reset.isSuccess) {
    return (
      <p role="status" className="text-sm">
        Your password is changed and your other sessions are signed out.{' '}
        <Link className="text-primary underline underline-offset-4" href="/sign-in">
          Sign in
        </Link>
      </p>
    );
  }
  return (
    <form onSubmit={form.handleSubmit((values) => reset.mutate(values))} className="flex flex-col gap-4" noValidate>
      <FormError message={reset.error?.message} />
      <TextField control={form.control} name="password" label="New password" type="password" autoComplete="new-password" description="At least 10 characters." />
      <Button type="submit" disabled={reset.isPending}>
        Set the new password
      </Button>
    </form>
  );
}
