'use client';
import * as React from 'react';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { dateTime, money } from '@/console-client/format';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { SpendMeter } from '@/components/usage/spend-meter';
import { SpendAlertNotices } from '@/components/usage/spend-alerts';

const STATUS_LABELS = { in_progress: 'In progress', succeeded: 'Succeeded', failed: 'Failed', canceled: 'Canceled' } as const;

/** Balance, this month's spend against the limit, today's generations, and the last errors grouped by code and route. */
export function OverviewScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const overview = useQuery(trpc.overview.get.queryOptions(useScopeInput()));
  return (
    <>
      <PageHeader title="Overview" description={scope.mode === 'test' ? 'Test mode: generations are not charged.' : 'Live mode.'} />
      {overview.isError ? (
        <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="flex flex-col gap-6">
          <SpendAlertNotices />
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <Card>
              <CardHeader>
                <CardTitle>Balance</CardTitle>
              </CardHeader>
              <CardContent>{overview.data ? <p className="text-2xl font-semibold" data-testid="balance">{money(overview.data.balance_cents)}</p> : <Skeleton className="h-8 w-32" />}</CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Spend this month</CardTitle>
              </CardHeader>
              <CardContent>
                {overview.data ? (
                  <SpendMeter spent={overview.data.month_spend_cents} limit={overview.data.monthly_limit_cents} />
                ) : (
                  <Skeleton className="h-8 w-40" />
                )}
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Generations today</CardTitle>
              </CardHeader>
              <CardContent>
                {overview.data ? (
                  <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                    {(Object.keys(STATUS_LABELS) as (keyof typeof STATUS_LABELS)[]).map((status) => (
                      <div key={status} className="flex justify-between gap-2">
                        <dt className="text-muted-foreground">
                          <Link className="underline-offset-4 hover:underline" href={`${scope.base}/generations?status=${status}`}>
                            {STATUS_LABELS[status]}
                          </Link>
                        </dt>
                        <dd className="font-medium tabular-nums">{overview.data.generations_today[status]}</dd>
                      </div>
                    ))}
                  </dl>
                ) : (
                  <Skeleton className="h-12 w-full" />
                )}
              </CardContent>
            </Card>
          </div>
          <section aria-labelledby="errors-heading" className="flex flex-col gap-3">
            <h2 id="errors-heading" className="text-lg font-semibold">
              Errors of the last 7 days
            </h2>
            {!overview.data ? (
              <LoadingRows rows={3} label="Loading errors" />
            ) : overview.data.recent_errors.length === 0 ? (
              <EmptyState title="No errors in the last 7 days">Failed requests appear here grouped by error code and route.</EmptyState>
            ) : (
              <div className="relative overflow-x-auto rounded-lg border">
                <table className="w-full text-sm" aria-label="Errors grouped by code and route">
                  <thead className="bg-muted/50 text-xs text-muted-foreground">
                    <tr>
                      <th scope="col" className="px-3 py-2 text-left font-medium">Error code</th>
                      <th scope="col" className="px-3 py-2 text-left font-medium">Route</th>
                      <th scope="col" className="px-3 py-2 text-right font-medium">Count</th>
                      <th scope="col" className="px-3 py-2 text-left font-medium">Last seen</th>
                      <th scope="col" className="px-3 py-2 text-left font-medium"><span className="sr-only">Links</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {overview.data.recent_errors.map((group) => (
                      <tr key={`${group.error_code} ${group.method} ${group.path}`} className="border-t">
                        <td className="px-3 py-2">
                          <Badge variant="outline" className="font-mono">{group.error_code}</Badge>
                        </td>
                        <td className="px-3 py-2 font-mono text-xs">
                          {group.method} {group.path}
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums">{group.count}</td>
                        <td className="px-3 py-2 whitespace-nowrap">{dateTime(group.last_seen_at)}</td>
                        <td className="px-3 py-2 whitespace-nowrap">
                          <Link
                            className="text-primary underline underline-offset-4"
                            href={`${scope.base}/logs?errorCode=${encodeURIComponent(group.error_code)}&path=${encodeURIComponent(group.path)}`}
                          >
                            View in log<span className="sr-only"> ({group.error_code} on {group.path})</span>
                          </Link>
                          {' · '}
                          <Link className="text-primary underline underline-offset-4" href={`${scope.base}/logs?requestId=${group.sample_request_id}`}>
                            Latest<span className="sr-only"> request with {group.error_code}</span>
                          </Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>
      )}
    </>
  );
}

