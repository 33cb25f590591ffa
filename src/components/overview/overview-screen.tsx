'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { money } from '@/console-client/format';
import { StatusBadge } from '@/components/logs/logs-screen';
import { RelativeTime } from '@/components/ui/relative-time';
import { GetStarted } from './get-started';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { EmptyState, ErrorState, LoadingRows } from '@/components/ui/states';
import { SpendMeter } from '@/components/usage/spend-meter';
import { SpendAlertNotices } from '@/components/usage/spend-alerts';

/** How many recent requests and generations the overview lists (its page prefetches them on the server). */
export const OVERVIEW_RECENT = 5;

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
          {overview.data && !overview.data.getting_started.complete ? <GetStarted state={overview.data.getting_started} /> : null}
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
                        <td className="px-3 py-2 whitespace-nowrap">
                          <RelativeTime seconds={group.last_seen_at} />
                        </td>
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
          <RecentActivity />
        </div>
      )}
    </>
  );
}

/** The last few requests and generations of this mode, each opening its own screen. */
function RecentActivity() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const requests = useQuery(trpc.logs.list.queryOptions({ ...input, limit: OVERVIEW_RECENT }));
  const generations = useQuery(trpc.generations.list.queryOptions({ ...input, limit: OVERVIEW_RECENT }));
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-labelledby="recent-requests-heading" className="flex min-w-0 flex-col gap-3">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="recent-requests-heading" className="text-lg font-semibold">
            Recent requests
          </h2>
          <Link className="text-sm text-primary underline underline-offset-4" href={`${scope.base}/logs`}>
            All requests
          </Link>
        </div>
        {requests.isError ? (
          <ErrorState error={requests.error} onRetry={() => void requests.refetch()} />
        ) : !requests.data ? (
          <LoadingRows rows={3} label="Loading recent requests" />
        ) : requests.data.data.length === 0 ? (
          <EmptyState title={`No ${scope.mode} requests yet`}>Requests made with a {scope.mode} key appear here within seconds.</EmptyState>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Recent requests">
            {requests.data.data.map((line) => (
              <li key={line.id} className="flex min-w-0 items-center gap-2 px-3 py-2 text-sm">
                <span className="font-mono text-xs font-medium">{line.method}</span>
                <Link className="min-w-0 flex-1 truncate font-mono text-xs underline-offset-4 hover:underline" href={`${scope.base}/logs?requestId=${line.id}`} title={line.path}>
                  {line.path}
                </Link>
                <StatusBadge status={line.status} />
                <RelativeTime ms={line.created_at_ms} precise className="text-xs text-muted-foreground" />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="recent-generations-heading" className="flex min-w-0 flex-col gap-3">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="recent-generations-heading" className="text-lg font-semibold">
            Recent generations
          </h2>
          <Link className="text-sm text-primary underline underline-offset-4" href={`${scope.base}/generations`}>
            All generations
          </Link>
        </div>
        {generations.isError ? (
          <ErrorState error={generations.error} onRetry={() => void generations.refetch()} />
        ) : !generations.data ? (
          <LoadingRows rows={3} label="Loading recent generations" />
        ) : generations.data.data.length === 0 ? (
          <EmptyState title={`No ${scope.mode} generations yet`}>Renders, edits, decorations and upscales appear here, from the API and from the playground.</EmptyState>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Recent generations">
            {generations.data.data.map((g) => (
              <li key={g.id} className="flex min-w-0 items-center gap-2 px-3 py-2 text-sm">
                <span className="w-20 shrink-0 capitalize">{g.type}</span>
                <Link className="min-w-0 flex-1 truncate font-mono text-xs underline-offset-4 hover:underline" href={`${scope.base}/generations?open=${g.id}`} title={g.id}>
                  {g.id}
                </Link>
                <Badge variant="outline" className="whitespace-nowrap">
                  {STATUS_LABELS[g.status]}
                </Badge>
                <RelativeTime seconds={g.created_at} className="text-xs text-muted-foreground" />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
