'use client';
import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { TriangleAlert } from 'lucide-react';
import { spendAlertsForm } from '@/shared/billing/spend-alert-inputs';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { dateTime, money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormError, TextField } from '@/components/ui/form';
import { Skeleton } from '@/components/ui/skeleton';
import { ErrorState } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { SpendMeter } from './spend-meter';

type Settings = ConsoleOutputs['spendAlerts']['get'];
type Values = z.input<typeof spendAlertsForm>;

/** This month's spend alerts (every member sees them; owners and admins were mailed). */
export function SpendAlertNotices() {
  const trpc = useTRPC();
  const notices = useQuery(trpc.spendAlerts.notices.queryOptions(useScopeInput()));
  const rows = notices.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-label="Spend alerts" className="flex flex-col gap-2" data-testid="spend-alert-notices">
      {rows.map((notice) => (
        <div key={notice.id} role="status" className="flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <p>
            <span className="font-medium">{notice.headline}</span>{' '}
            <span className="text-muted-foreground">
              {notice.kind === 'monthly_limit'
                ? `(${money(notice.spend_cents)} of ${money(notice.limit_cents)}, ${dateTime(notice.created_at)}).`
                : `(balance ${money(notice.balance_cents)}, ${dateTime(notice.created_at)}).`}
            </span>
          </p>
        </div>
      ))}
    </section>
  );
}

/** Live spend this month against the limit, and the month's projection with how it is made. */
export function MonthToDateCard() {
  const trpc = useTRPC();
  const month = useQuery(trpc.usage.month.queryOptions(useScopeInput()));
  return (
    <Card>
      <CardHeader>
        <CardTitle>This month (live)</CardTitle>
      </CardHeader>
      <CardContent>
        {month.isError ? (
          <ErrorState error={month.error} onRetry={() => void month.refetch()} />
        ) : !month.data ? (
          <Skeleton className="h-16 w-full" />
        ) : (
          <div className="flex flex-col gap-3">
            <SpendMeter spent={month.data.spend_cents} limit={month.data.limit_cents} />
            <p className="text-sm" data-testid="month-projection">
              Projected for the month: <span className="font-semibold tabular-nums">{money(month.data.projected_cents)}</span>
              {month.data.projected_limit_day ? (
                <span className="text-destructive"> — the limit would be reached on {month.data.projected_limit_day}; live generations are refused from then on.</span>
              ) : null}
            </p>
            <p className="text-xs text-muted-foreground">
              Spend so far divided by the {month.data.days_elapsed} day{month.data.days_elapsed === 1 ? '' : 's'} elapsed (today counted whole), times the{' '}
              {month.data.days_in_month} days of the month (UTC). Charges net of refunds, the figure the monthly limit counts.
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const formValues = (settings: Settings): Values => ({
  percents: settings.percents.join(', '),
  balanceFloor: settings.balance_floor_cents === null ? '' : (settings.balance_floor_cents / 100).toFixed(2),
});

/** The thresholds: owners and admins edit them, developers read them. */
export function SpendAlertSettingsCard() {
  const trpc = useTRPC();
  const scope = useScope();
  const settings = useQuery(trpc.spendAlerts.get.queryOptions(useScopeInput()));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Spend alerts</CardTitle>
        <p className="text-xs text-muted-foreground">
          Each threshold mails the owners and admins once a month when live spend reaches it (or the balance falls below the floor), and shows a notice here and on the overview.
        </p>
      </CardHeader>
      <CardContent>
        {settings.isError ? (
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
        ) : !settings.data ? (
          <Skeleton className="h-16 w-full" />
        ) : scope.role === 'developer' ? (
          <p className="text-sm" data-testid="spend-alert-settings">
            {settings.data.percents.length ? `At ${settings.data.percents.map((p) => `${p} %`).join(', ')} of the monthly limit` : 'No percent thresholds'}
            {settings.data.balance_floor_cents === null ? '; no balance floor.' : `; below a balance of ${money(settings.data.balance_floor_cents)}.`} Owners and admins change them.
          </p>
        ) : (
          <SpendAlertsForm settings={settings.data} />
        )}
      </CardContent>
    </Card>
  );
}

function SpendAlertsForm({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const form = useForm<Values, unknown, z.output<typeof spendAlertsForm>>({ resolver: zodResolver(spendAlertsForm), defaultValues: formValues(settings) });
  const save = useMutation(
    trpc.spendAlerts.update.mutationOptions({
      onSuccess: (saved) => {
        toast.success('Spend alerts saved.');
        form.reset(formValues(saved));
        void queryClient.invalidateQueries({ queryKey: trpc.spendAlerts.get.queryKey() });
      },
    }),
  );
  return (
    <form
      onSubmit={form.handleSubmit((values) => save.mutate({ ...input, percents: values.percents, balanceFloorCents: values.balanceFloor }))}
      className="flex flex-col gap-3"
      noValidate
      aria-label="Spend alert settings"
    >
      <FormError message={save.error?.message} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField control={form.control} name="percents" label="Percents of the monthly limit" description="e.g. 50, 80, 100; empty: none" inputMode="numeric" />
        <TextField control={form.control} name="balanceFloor" label="Balance floor (EUR)" description="Empty: no floor alert" inputMode="decimal" />
      </div>
      <Button type="submit" variant="outline" className="self-start" disabled={save.isPending}>
        Save spend alerts
      </Button>
    </form>
  );
}
