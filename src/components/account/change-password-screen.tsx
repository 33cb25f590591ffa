'use client';
import * as React from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { changePasswordInput } from '@/shared/console/console-inputs';
import { PASSWORD_MIN_LENGTH } from '@/shared/auth/password-rules';
import { apiErrorOf, useTRPC } from '@/console-client/trpc';
import { KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormError, TextField } from '@/components/ui/form';
import { PageHeader } from '@/components/ui/page-header';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';

/** The server's input plus the confirmation the browser checks (typing a new password twice). */
const formSchema = changePasswordInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The two new passwords differ.' });

/** Change the signed-in user's password (me.changePassword); the user's other sessions end. */
export function ChangePasswordScreen() {
  const trpc = useTRPC();
  const me = useQuery(trpc.me.get.queryOptions());
  const form = useForm({ resolver: zodResolver(formSchema), defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' } });
  const change = useMutation(
    trpc.me.changePassword.mutationOptions({
      onSuccess: () => {
        toast.success('Password changed. Your other sessions were signed out.');
        form.reset();
      },
      onError: (error) => {
        // Refusals name their field (currentPassword, newPassword): show them there.
        const apiError = apiErrorOf(error);
        if (apiError?.param === 'currentPassword' || apiError?.param === 'newPassword') form.setError(apiError.param, { message: apiError.message });
      },
    }),
  );
  if (me.isPending) return <LoadingRows label="Loading your account" />;
  if (me.isError) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />;
  const hasPassword = me.data.user.has_password;
  const param = apiErrorOf(change.error)?.param;
  return (
    <>
      <PageHeader title="Your account" description={`Signed in as ${me.data.user.email}.`} />
      <Card aria-labelledby="change-password-heading">
        <CardHeader>
          <h2 id="change-password-heading" className="flex items-center gap-2 font-semibold">
            <KeyRound className="size-4" aria-hidden /> {hasPassword ? 'Change password' : 'Set a password'}
          </h2>
          <p className="text-sm text-muted-foreground">
            {hasPassword ? 'The new password signs you in from now on; your other sessions are signed out.' : 'You signed in with e-mail links so far; set a password to sign in with it too.'}
          </p>
        </CardHeader>
        <CardContent>
          <form
            onSubmit={form.handleSubmit(({ currentPassword, newPassword }) => change.mutate({ newPassword, ...(hasPassword ? { currentPassword } : {}) }))}
            className="flex max-w-md flex-col gap-4"
            noValidate
            aria-labelledby="change-password-heading"
          >
            <FormError message={change.error && param !== 'currentPassword' && param !== 'newPassword' ? change.error.message : null} />
            {hasPassword ? <TextField control={form.control} name="currentPassword" label="Current password" type="password" autoComplete="current-password" /> : null}
            <TextField
              control={form.control}
              name="newPassword"
              label="New password"
              type="password"
              autoComplete="new-password"
              description={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            />
            <TextField control={form.control} name="confirmPassword" label="Repeat the new password" type="password" autoComplete="new-password" />
            <Button type="submit" className="self-start" disabled={change.isPending}>
              {hasPassword ? 'Change password' : 'Set password'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </>
  );
}
