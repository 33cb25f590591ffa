'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useTRPC, useTRPCClient, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { useUrlFilters } from '@/console-client/url-filters';
import { dateTime, money, unixFromInput } from '@/console-client/format';
import { RelativeTime } from '@/components/ui/relative-time';
import { TruncatedText } from '@/components/ui/truncated-text';
import { Badge } from '@/components/ui/badge';
import { GenerationProgress } from './generation-progress';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Sheet } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState, ErrorState } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { GenerationThumbnail } from './generation-thumbnail';
import { FOLLOW_WAIT_MS, useWaitingRead } from './waiting-read';

const TYPES = ['render', 'edit', 'decoration', 'upscale'] as const;
const STATUSES = ['in_progress', 'succeeded', 'failed', 'canceled'] as const;
const FILTER_KEYS = ['type', 'status', 'from', 'to', 'open'] as const;
const ANY = 'all';

type GenerationRow = ConsoleOutputs['generations']['list']['data'][number];

export function GenerationStatusBadge({ status }: { status: GenerationRow['status'] }) {
  const variant = status === 'succeeded' ? 'success' : status === 'failed' ? 'destructive' : status === 'canceled' ? 'outline' : 'secondary';
  return <Badge variant={variant}>{status.replace('_', ' ')}</Badge>;
}

export function GenerationsScreen() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scope = useScope();
  const input = useScopeInput();
  const [filters, setFilters] = useUrlFilters(FILTER_KEYS);
  const type = TYPES.find((t) => t === filters.type);
  const status = STATUSES.find((s) => s === filters.status);
  const query = { type, status, from: unixFromInput(filters.from ?? ''), to: unixFromInput(filters.to ?? '') };
  const pages = useCursorPages(JSON.stringify([input, query]));
  const list = useQuery(trpc.generations.list.queryOptions({ ...input, ...query, cursor: pages.cursor }));
  // While rows of the page are in progress: read the page again when one of them ends (the
  // server answers at once) or, for their progress, after FOLLOW_WAIT_MS.
  const inProgress = (list.data?.data ?? []).filter((g) => g.status === 'in_progress').map((g) => g.id);
  useWaitingRead(
    inProgress.length > 0,
    list.dataUpdatedAt,
    async (signal) => {
      await client.generations.waitForEnd.query({ ...input, ids: inProgress.slice(0, 25), waitMs: FOLLOW_WAIT_MS }, { signal });
      if (!signal.aborted) await list.refetch();
    },
    () => list.refetch(),
  );
  const anyFilter = Boolean(type || status || filters.from || filters.to);

  const columns: Column<GenerationRow>[] = [
    { id: 'preview', header: () => <span className="sr-only">Preview</span>, cell: ({ row }) => <GenerationThumbnail generation={row.original} /> },
    { id: 'id', header: 'Generation', cell: ({ row }) => <TruncatedText text={row.original.id} label={`generation id ${row.original.id}`} maxWidth="10rem" className="font-mono text-xs" /> },
    { id: 'type', header: 'Type', cell: ({ row }) => row.original.type },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row }) =>
        row.original.status === 'in_progress' ? (
          <div className="flex flex-col gap-1">
            <GenerationStatusBadge status={row.original.status} />
            <GenerationProgress id={row.original.id} progress={row.original.progress} createdAt={row.original.created_at} compact />
          </div>
        ) : (
          <GenerationStatusBadge status={row.original.status} />
        ),
    },
    { id: 'cost', header: 'Cost', cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{money(row.original.cost.amount - row.original.cost.amount_refunded)}</span> },
    { id: 'created', header: 'Created', cell: ({ row }) => <RelativeTime seconds={row.original.created_at} /> },
    { id: 'completed', header: 'Completed', cell: ({ row }) => <RelativeTime seconds={row.original.completed_at} /> },
  ];

  return (
    <>
      <PageHeader title="Generations" description={`Renders, edits, decorations and upscales in ${scope.mode} mode, newest first.`} />
      <div className="mb-4 grid grid-cols-[repeat(auto-fill,minmax(min(100%,13rem),1fr))] gap-3" role="group" aria-label="Filters">
        <div className="grid gap-1.5">
          <Label htmlFor="filter-type">Type</Label>
          <Select id="filter-type" label="Type" value={type ?? ANY} onValueChange={(v) => setFilters({ type: v === ANY ? undefined : v })} options={[{ value: ANY, label: 'Any type' }, ...TYPES.map((t) => ({ value: t, label: t }))]} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="filter-gen-status">Status</Label>
          <Select
            id="filter-gen-status"
            label="Status"
            value={status ?? ANY}
            onValueChange={(v) => setFilters({ status: v === ANY ? undefined : v })}
            options={[{ value: ANY, label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: s.replace('_', ' ') }))]}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="gen-from">From (UTC)</Label>
          <Input id="gen-from" type="datetime-local" value={filters.from ?? ''} onChange={(e) => setFilters({ from: e.target.value || undefined })} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="gen-to">To (UTC)</Label>
          <Input id="gen-to" type="datetime-local" value={filters.to ?? ''} onChange={(e) => setFilters({ to: e.target.value || undefined })} />
        </div>
        <div className="flex items-end">
          <Button variant="ghost" disabled={!anyFilter} onClick={() => setFilters({ type: undefined, status: undefined, from: undefined, to: undefined })}>
            <X aria-hidden /> Clear filters
          </Button>
        </div>
      </div>
      <QueryTable
        query={list}
        loadingLabel="Loading generations"
        empty={
          <EmptyState title={anyFilter ? 'No generation matches these filters' : `No ${scope.mode} generations yet`}>
            {anyFilter ? 'Change or clear the filters.' : 'Generations created through /v1 or MCP appear here.'}
          </EmptyState>
        }
        pages={pages}
        label="Generations"
        columns={columns}
        rowKey={(g) => g.id}
        onOpen={(g) => setFilters({ open: g.id })}
        rowLabel={(g) => `${g.type} ${g.status}, generation ${g.id}`}
      />
      <Sheet open={Boolean(filters.open)} onOpenChange={(open) => !open && setFilters({ open: undefined })} title={filters.open ?? ''} description="Generation details">
        {filters.open ? <GenerationDetail id={filters.open} /> : null}
      </Sheet>
    </>
  );
}

function GenerationDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const scope = useScope();
  const input = useScopeInput();
  const queryClient = useQueryClient();
  const generation = useQuery(trpc.generations.get.queryOptions({ ...input, id }));
  // In progress: each read waits on the server for the end (or answers with the progress after FOLLOW_WAIT_MS).
  useWaitingRead(
    generation.data?.status === 'in_progress',
    generation.dataUpdatedAt,
    async (signal) => {
      const followed = await client.playground.follow.query({ ...input, id, waitMs: FOLLOW_WAIT_MS }, { signal });
      if (signal.aborted) return;
      queryClient.setQueryData(trpc.generations.get.queryKey({ ...input, id }), followed);
      // The list's row ends with it.
      if (followed.status !== 'in_progress') void queryClient.invalidateQueries({ queryKey: trpc.generations.list.queryKey() });
    },
    () => generation.refetch(),
  );
  const cancel = useMutation(
    trpc.generations.cancel.mutationOptions({
      onSuccess: () => toast.success(`Generation ${id} canceled; its cost is refunded.`),
      onError: (error) => toast.error(error.message),
      // Either way the status may have moved (e.g. it started meanwhile: 409): show the current one.
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.generations.pathKey() }),
    }),
  );
  if (generation.isPending) return <Skeleton className="h-80 w-full" />;
  if (generation.isError) return <ErrorState error={generation.error} onRetry={() => void generation.refetch()} />;
  const g = generation.data;
  return (
    <div className="flex flex-col gap-5 text-sm" data-testid="generation-detail">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="secondary">{g.type}</Badge>
        <GenerationStatusBadge status={g.status} />
        <Badge variant="outline">{g.channel}</Badge>
        {g.cancelable ? (
          <ConfirmDialog
            trigger={
              <Button variant="destructive" size="sm" className="ml-auto">
                Cancel generation
              </Button>
            }
            title="Cancel this generation?"
            description="It stops before it completes and its cost is refunded."
            confirmLabel="Cancel generation"
            onConfirm={() => cancel.mutate({ ...input, id })}
          />
        ) : null}
      </div>
      {g.status === 'in_progress' ? <GenerationProgress id={g.id} progress={g.progress} stage={g.progress_stage} createdAt={g.created_at} /> : null}
      <section aria-labelledby="timeline-heading">
        <h3 id="timeline-heading" className="mb-2 font-semibold">
          Timeline
        </h3>
        <ol className="flex flex-col gap-1">
          <li>Created {dateTime(g.created_at)}</li>
          <li>Started {dateTime(g.started_at)}</li>
          <li>
            {g.status === 'canceled' ? 'Canceled' : g.status === 'failed' ? 'Failed' : 'Completed'} {dateTime(g.completed_at)}
          </li>
          <li>Images kept until {dateTime(g.expires_at)}</li>
        </ol>
      </section>
      {g.error ? (
        <section aria-labelledby="error-heading">
          <h3 id="error-heading" className="mb-2 font-semibold">
            Error
          </h3>
          <p>
            <code>{g.error.code}</code>: {g.error.message}
          </p>
        </section>
      ) : null}
      <section aria-labelledby="output-heading">
        <h3 id="output-heading" className="mb-2 font-semibold">
          Output
        </h3>
        {g.output.length === 0 ? (
          <p className="text-muted-foreground">No output images.</p>
        ) : (
          <div className="grid grid-cols-2 gap-2">
            {g.output.map((o, i) => (
              <a key={o.url} href={o.url} target="_blank" rel="noreferrer" className="block overflow-hidden rounded-md border">
                {/* eslint-disable-next-line @next/next/no-img-element -- signed, short-lived URLs: no image optimizer */}
                <img src={o.url} alt={`Output ${i + 1} of ${g.id} (${o.width}×${o.height})`} className="h-auto w-full" loading="lazy" />
              </a>
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="cost-heading">
        <h3 id="cost-heading" className="mb-2 font-semibold">
          Cost
        </h3>
        <p>
          {money(g.cost.amount)}
          {g.cost.discount_percent ? ` (${g.cost.discount_percent}% tier discount)` : ''}
          {g.cost.amount_refunded ? `, ${money(g.cost.amount_refunded)} refunded` : ''}
          {scope.mode === 'test' ? ' — test mode, not charged' : ''}
        </p>
      </section>
      <section aria-labelledby="settings-heading">
        <h3 id="settings-heading" className="mb-2 font-semibold">
          Input settings
        </h3>
        <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{JSON.stringify(g.input, null, 2)}</pre>
      </section>
      <section aria-labelledby="metadata-heading">
        <h3 id="metadata-heading" className="mb-2 font-semibold">
          Metadata
        </h3>
        {Object.keys(g.metadata).length === 0 ? (
          <p className="text-muted-foreground">None.</p>
        ) : (
          <dl className="grid grid-cols-[10rem_1fr] gap-1">
            {Object.entries(g.metadata).map(([k, v]) => (
              <React.Fragment key={k}>
                <dt className="font-mono text-xs text-muted-foreground">{k}</dt>
                <dd className="break-all">{v}</dd>
              </React.Fragment>
            ))}
          </dl>
        )}
      </section>
      {g.request_id ? (
        <p>
          Created by request{' '}
          <Link className="text-primary underline underline-offset-4" href={`${scope.base}/logs?requestId=${g.request_id}`}>
            {g.request_id}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
