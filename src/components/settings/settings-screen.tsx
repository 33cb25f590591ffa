'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { renameInput } from '@/shared/console/console-inputs';
import { useTRPC } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { dateTime, money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormError, TextField } from '@/components/ui/form';
import { PageHeader } from '@/components/ui/page-header';
import { PageControls, useCursorPages } from '@/components/ui/data-table';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { Switch } from '@/components/ui/switch';
import { Label } from '@/components/ui/label';

export function SettingsScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const settings = useQuery(trpc.settings.get.queryOptions(input));
  const manager = scope.role !== 'developer';
  return (
    <>
      <PageHeader title="Settings" description="The organization's name, its tier and limits, and your notification mail while no SMTP is configured." />
      {settings.isError ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : !settings.data ? (
        <LoadingRows rows={4} label="Loading settings" />
      ) : (
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader>
              <h2 className="font-semibold">Organization</h2>
              <p className="text-xs text-muted-foreground">
                {settings.data.id}, created {dateTime(settings.data.created_at)}
              </p>
            </CardHeader>
            <CardContent>{manager ? <RenameForm name={settings.data.name} /> : <p>{settings.data.name}</p>}</CardContent>
          </Card>
          <TwoFactorRequirement required={settings.data.require_two_factor} canChange={scope.role === 'owner'} />
          <Card>
            <CardHeader>
              <h2 className="font-semibold">
                Tier {settings.data.tier.tier}: {settings.data.tier.name}
              </h2>
              <p className="text-xs text-muted-foreground">
                Read-only: tiers change by agreement. The generation quota applies to test and live keys separately; to raise it, ask the operator of this Roomtone service to move the
                organization to a higher tier.
              </p>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[14rem_1fr] gap-y-1 text-sm">
                <dt className="text-muted-foreground">Requests per minute</dt>
                <dd className="tabular-nums">{settings.data.tier.requests_per_minute}</dd>
                <dt className="text-muted-foreground">Generations per minute</dt>
                <dd className="tabular-nums">{settings.data.tier.generations_per_minute}</dd>
                <dt className="text-muted-foreground">Generations per hour</dt>
                <dd className="tabular-nums">{settings.data.tier.generations_per_hour}</dd>
                <dt className="text-muted-foreground">Discount</dt>
                <dd className="tabular-nums">{settings.data.tier.discount_percent}%</dd>
                <dt className="text-muted-foreground">Monthly limit</dt>
                <dd className="tabular-nums">{money(settings.data.tier.monthly_limit_cents)}</dd>
              </dl>
            </CardContent>
          </Card>
          <MyMail />
        </div>
      )}
    </>
  );
}

function RenameForm({ name }: { name: string }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(renameInput), defaultValues: { name } });
  const rename = useMutation(
    trpc.settings.rename.mutationOptions({
      onSuccess: () => {
        toast.success('Organization renamed.');
        void queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() });
      },
    }),
  );
  return (
    <form onSubmit={form.handleSubmit((values) => rename.mutate({ ...input, ...values }))} className="flex max-w-md flex-col gap-3" noValidate>
      <FormError message={rename.error?.message} />
      <TextField control={form.control} name="name" label="Name" />
      <Button type="submit" className="self-start" disabled={rename.isPending}>
        Save name
      </Button>
    </form>
  );
}

/** Owners require two-factor sign-in of every member; members without it are sent to set it up. */
function TwoFactorRequirement({ required, canChange }: { required: boolean; canChange: boolean }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const id = React.useId();
  const change = useMutation(
    trpc.settings.requireTwoFactor.mutationOptions({
      onSuccess: (data) => {
        toast.success(data.require_two_factor ? 'Two-factor sign-in is now required of every member.' : 'Two-factor sign-in is no longer required.');
        void queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.me.get.queryKey() });
      },
    }),
  );
  return (
    <Card>
      <CardHeader>
        <h2 className="font-semibold">Security</h2>
        <p className="text-xs text-muted-foreground">
          {canChange ? 'Owners decide. Members without two-factor sign-in are asked to set it up before they can use this organization.' : 'Only owners change this.'}
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <FormError message={change.error?.message} />
        <div className="flex items-center gap-3">
          <Switch id={id} checked={required} disabled={!canChange || change.isPending} onCheckedChange={(checked) => change.mutate({ ...input, required: checked })} data-testid="require-two-factor" />
          <Label htmlFor={id}>Require two-factor sign-in of every member</Label>
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * Notification mail addressed to you (an endpoint disabled, …), shown while no SMTP server is
 * configured. Never sign-in links, resets, invitations or confirmations: those reach only their
 * addressee (or, without SMTP, the operator's terminal and `roomtone mail list`). Plain text:
 * nothing in mail is rendered as a link here.
 */
function MyMail() {
  const trpc = useTRPC();
  const input = useScopeInput();
  const pages = useCursorPages(input.organizationId);
  const mail = useQuery(trpc.outbox.list.queryOptions({ ...input, cursor: pages.cursor }));
  return (
    <Card>
      <CardHeader>
        <h2 className="font-semibold">Your notification mail</h2>
        <p className="text-xs text-muted-foreground">Notices sent to you, newest first, while no SMTP server is configured. Sign-in links and invitations are never shown here.</p>
      </CardHeader>
      <CardContent>
        {mail.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : mail.isError ? (
          <ErrorState error={mail.error} onRetry={() => void mail.refetch()} />
        ) : !mail.data.enabled ? (
          <p className="text-sm text-muted-foreground">SMTP is configured: mail goes out for real and is not shown here.</p>
        ) : mail.data.data.length === 0 && pages.page === 1 ? (
          <EmptyState title="No notification mail">Notices such as a webhook endpoint disabled appear here.</EmptyState>
        ) : (
          <div className="flex flex-col gap-3">
            <ul className="flex flex-col gap-3" aria-label="Your notification mail">
              {mail.data.data.map((m) => (
                <li key={m.id} className="rounded-md border p-3 text-sm" data-testid="mail-message">
                  <p className="font-medium break-all">{m.subject}</p>
                  <p className="text-xs text-muted-foreground">
                    To {m.to}, {dateTime(m.created_at)}
                  </p>
                  <p className="mt-2 text-xs break-all whitespace-pre-wrap">{m.text}</p>
                </li>
              ))}
            </ul>
            <PageControls pagination={{ ...pages, nextCursor: mail.data.next_cursor }} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
