'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC, errorStatus } from '@/console-client/trpc';
import { Button } from '@/components/ui/button';
import { ErrorState, LoadingRows } from '@/components/ui/states';
import { FormError } from '@/components/ui/form';
import { dateTime } from '@/console-client/format';
import { AuthCard } from './auth-card';
import { SignUpForm } from './sign-up-screen';

/** /invitations/<token>: who invites you where; accept signed in, or create the account first. */
export function InvitationScreen({ token }: { token: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const invitation = useQuery(trpc.invitations.get.queryOptions({ token }, { retry: false }));
  const me = useQuery(trpc.me.get.queryOptions(undefined, { retry: false }));
  const accept = useMutation(
    trpc.invitations.accept.mutationOptions({
      onSuccess: (result) => router.replace(`/o/${result.organization_id}/test/overview`),
    }),
  );

  if (invitation.isPending || me.isPending) {
    return (
      <AuthCard title="Invitation">
        <LoadingRows rows={3} label="Loading the invitation" />
      </AuthCard>
    );
  }
  if (invitation.isError) {
    return (
      <AuthCard title="Invitation">
        <ErrorState error={invitation.error} />
      </AuthCard>
    );
  }
  const view = invitation.data;
  const signedIn = me.isSuccess;
  const description = `${view.invited_by ?? 'Someone'} invites ${view.email} to join ${view.organization.name} as ${view.role}.`;
  if (view.status !== 'pending') {
    return (
      <AuthCard title={`Join ${view.organization.name}`} description={description}>
        <p role="alert" className="text-sm">
          This invitation is {view.status}. Ask for a new one.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${view.organization.name}`} description={description}>
      <p className="mb-4 text-xs text-muted-foreground">Valid until {dateTime(view.expires_at)}.</p>
      {signedIn ? (
        <div className="flex flex-col gap-3">
          <FormError message={accept.error?.message} />
          {me.data.user.email !== view.email ? (
            <p className="text-sm" role="alert">
              You are signed in as {me.data.user.email}; this invitation is for {view.email}. Sign out and sign in with that address.
            </p>
          ) : null}
          <Button onClick={() => accept.mutate({ token })} disabled={accept.isPending}>
            Accept and join {view.organization.name}
          </Button>
        </div>
      ) : view.account_exists || (me.isError && errorStatus(me.error) !== 401) ? (
        <Button asChild>
          <Link href={`/sign-in?callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`}>Sign in to accept</Link>
        </Button>
      ) : view.link === 'shared' ? (
        <p className="text-sm" role="alert">
          This link was passed on by the inviter. To create your account, use the link in the invitation e-mail sent to {view.email}. If you already have an
          account with that address, <Link href={`/sign-in?callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`}>sign in</Link> to accept.
        </p>
      ) : (
        <SignUpForm invitation={{ token, email: view.email }} />
      )}
    </AuthCard>
  );
}
