'use client';
import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Download } from 'lucide-react';
import { downloadText } from '@/console-client/download';
import { useTRPC } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { MonthToDateCard, SpendAlertNotices, SpendAlertSettingsCard } from './spend-alerts';
import { STATUSES, TYPES, usageCsv, type UsageDay } from './usage-csv';

const RANGES = [7, 30, 90] as const;
type Range = (typeof RANGES)[number];

/** Kinds are categories: four distinct colours with no meaning attached. */
const TYPE_SERIES = TYPES.map((t, i) => ({ key: t, label: `${t}s`, color: `var(--chart-${i + 1})` }));
/** Statuses carry meaning: success green, failure red, canceled grey, in progress blue. */
const STATUS_SERIES = [
  { key: 'succeeded', label: 'succeeded', color: 'var(--chart-success)' },
  { key: 'failed', label: 'failed (refunded)', color: 'var(--chart-failure)' },
  { key: 'canceled', label: 'canceled (refunded)', color: 'var(--chart-neutral)' },
  { key: 'in_progress', label: 'in progress', color: 'var(--chart-progress)' },
] as const satisfies readonly { key: (typeof STATUSES)[number]; label: string; color: string }[];

export function UsageScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const [range, setRange] = React.useState<Range>(30);
  const usage = useQuery(trpc.usage.get.queryOptions({ ...input, days: range }));

  const download = () => {
    if (!usage.data) return;
    downloadText(`roomtone-usage-${scope.organizationId}-${scope.mode}-${range}d.csv`, usageCsv(usage.data.days), 'text/csv');
  };

  return (
    <>
      <PageHeader
        title="Usage"
        description={`Generations and spend per UTC day in ${scope.mode} mode.`}
        actions={
          <Button variant="outline" onClick={download} disabled={!usage.data}>
            <Download aria-hidden /> Export CSV
          </Button>
        }
      />
      <div className="mb-6 flex flex-col gap-4">
        <SpendAlertNotices />
        <div className="grid gap-4 lg:grid-cols-2">
          <MonthToDateCard />
          <SpendAlertSettingsCard />
        </div>
      </div>
      <div role="group" aria-label="Period" className="mb-4 inline-flex gap-1 rounded-lg bg-muted p-1">
        {RANGES.map((r) => (
          <Button key={r} size="sm" variant={range === r ? 'outline' : 'ghost'} aria-pressed={range === r} onClick={() => setRange(r)}>
            {r} days
          </Button>
        ))}
      </div>
      {usage.isError ? (
        <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />
      ) : !usage.data ? (
        <div role="status" aria-label="Loading usage" className="grid gap-4">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-72 w-full" />
        </div>
      ) : (
        <div className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-3">
            <Card>
              <CardHeader>
                <CardTitle>Generations</CardTitle>
              </CardHeader>
              <CardContent>
                <p className="text-2xl font-semibold tabular-nums" data-testid="usage-total">
                  {usage.data.totals.generations}
                </p>
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>{usage.data.charged ? 'Spend' : 'Would have cost (test mode)'}</CardTitle>
              </CardHeader>
              <CardContent>
                <p className="text-2xl font-semibold tabular-nums">{money(usage.data.totals.spend_cents)}</p>
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Succeeded / failed</CardTitle>
              </CardHeader>
              <CardContent>
                <p className="text-2xl font-semibold tabular-nums">
                  {usage.data.totals.by_status.succeeded} / {usage.data.totals.by_status.failed}
                </p>
              </CardContent>
            </Card>
          </div>
          {usage.data.totals.generations === 0 ? (
            <EmptyState title="No usage yet">
              No generations in the last {range} days. Charts of generations and spend per day appear here once the API or the playground has created one.
            </EmptyState>
          ) : (
            <>
              <ChartCard
                title="Generations created per day, by kind"
                summary={`Each bar counts the generations accepted that UTC day, whatever happened to them. ${TYPES.map((t) => `${t}: ${usage.data.totals.by_type[t]}`).join(', ')}.`}
              >
                <StackedBars days={usage.data.days} group="by_type" series={TYPE_SERIES} />
              </ChartCard>
              <ChartCard
                title="Generations created per day, by status now"
                summary={`The same generations by their status today: failed and canceled ones were refunded. ${STATUS_SERIES.map((s) => `${s.label}: ${usage.data.totals.by_status[s.key]}`).join(', ')}.`}
              >
                <StackedBars days={usage.data.days} group="by_status" series={STATUS_SERIES} />
              </ChartCard>
              <ChartCard
                title={usage.data.charged ? 'Spend per day (EUR)' : 'Would have cost per day (EUR, test mode)'}
                summary={`Each bar is one UTC day's ${usage.data.charged ? 'charges' : 'prices'} net of refunds, for the generations created that day. Total ${money(usage.data.totals.spend_cents)}.`}
              >
                <BarChart data={usage.data.days.map((d) => ({ date: d.date, spend: d.spend_cents / 100 }))}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                  <XAxis dataKey="date" tick={AXIS_TICK} />
                  <YAxis tick={AXIS_TICK} tickFormatter={euroTick} />
                  <Tooltip contentStyle={TOOLTIP_STYLE} formatter={(value) => money(Math.round(Number(value) * 100))} />
                  <Legend formatter={legendLabel} />
                  <Bar dataKey="spend" name={usage.data.charged ? 'Spend, net of refunds' : 'Price, net of refunds (not charged)'} fill="var(--chart-1)" />
                </BarChart>
              </ChartCard>
            </>
          )}
        </div>
      )}
    </>
  );
}

/** Money axis ticks in euros: whole euros when the scale allows, cents otherwise. */
function euroTick(value: number): string {
  return Number.isInteger(value) ? `€${value}` : money(Math.round(value * 100));
}

const AXIS_TICK = { fontSize: 11, fill: 'var(--muted-foreground)' };
const TOOLTIP_STYLE = { background: 'var(--popover)', color: 'var(--popover-foreground)', border: '1px solid var(--border)' };

/** Generations per day, stacked by type or by status. */
function StackedBars({ days, group, series }: { days: UsageDay[]; group: 'by_type' | 'by_status'; series: readonly { key: string; label: string; color: string }[] }) {
  return (
    <BarChart data={days}>
      <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
      <XAxis dataKey="date" tick={AXIS_TICK} />
      <YAxis allowDecimals={false} tick={AXIS_TICK} />
      <Tooltip contentStyle={TOOLTIP_STYLE} />
      <Legend formatter={legendLabel} />
      {series.map((s) => (
        <Bar key={s.key} dataKey={`${group}.${s.key}`} name={s.label} stackId={group} fill={s.color} />
      ))}
    </BarChart>
  );
}

/** Legend entries in the text colour (the series colours are too light for text). */
function legendLabel(value: string) {
  return <span className="text-foreground">{value}</span>;
}

/** A chart with a heading and a text summary (charts are images to a screen reader). */
function ChartCard({ title, summary, children }: { title: string; summary: string; children: React.ReactElement }) {
  const id = React.useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle id={id} className="text-base text-foreground">
          {title}
        </CardTitle>
        <p className="text-xs text-muted-foreground">{summary}</p>
      </CardHeader>
      <CardContent>
        <figure aria-labelledby={id} className="h-72 w-full" data-testid="chart">
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        </figure>
      </CardContent>
    </Card>
  );
}
