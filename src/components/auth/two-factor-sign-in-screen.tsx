'use client';
import * as React from 'react';
import { useRouter, useSearchParams } from 'next/navigation';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { signOut } from 'next-auth/react';
import { secondFactorInput } from '@/shared/console/console-inputs';
import { safeCallbackPath } from '@/shared/auth/callback-url';
import { apiErrorOf, useTRPC } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form';
import { AuthCard } from './auth-card';

/** The sign-in's second step: the code of the authenticator app, or a recovery code. */
export function TwoFactorSignInScreen() {
  const params = useSearchParams();
  const router = useRouter();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const callbackUrl = safeCallbackPath(params.get('callbackUrl'), typeof window === 'undefined' ? 'http://localhost' : window.location.origin);
  const [recovery, setRecovery] = React.useState(false);
  const form = useForm({ resolver: zodResolver(secondFactorInput), defaultValues: { code: '' } });
  const verify = useMutation(
    trpc.auth.verifySecondFactor.mutationOptions({
      onSuccess: async () => {
        // The cached me.get is the pending session's "second factor required": read it again.
        await queryClient.resetQueries({ queryKey: trpc.me.get.queryKey() });
        router.replace(callbackUrl);
        router.refresh();
      },
      onError: (error) => {
        if (apiErrorOf(error)?.param === 'code') form.setError('code', { message: error.message });
      },
    }),
  );
  const apiError = apiErrorOf(verify.error);
  const expired = apiError?.code === 'session_missing';
  return (
    <AuthCard title="Two-factor sign-in" description={recovery ? 'Enter one of your recovery codes (each works once).' : 'Enter the 6-digit code your authenticator app shows.'}>
      <FormError message={verify.error && apiError?.param !== 'code' ? verify.error.message : null} />
      {expired ? (
        <Button className="mt-2 w-full" onClick={() => router.replace(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`)}>
          Sign in again
        </Button>
      ) : (
        <form onSubmit={form.handleSubmit((values) => verify.mutate(values))} className="flex flex-col gap-4" noValidate>
          <TextField
            key={recovery ? 'recovery' : 'totp'}
            control={form.control}
            name="code"
            label={recovery ? 'Recovery code' : 'Code'}
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            autoFocus
          />
          <Button type="submit" disabled={verify.isPending}>
            Verify
          </Button>
          <Button
            type="button"
            variant="link"
            onClick={() => {
              setRecovery(!recovery);
              form.reset({ code: '' });
            }}
          >
            {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Button>
          <Button type="button" variant="ghost" onClick={() => void signOut({ redirectTo: '/sign-in' })}>
            Cancel and sign out
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
