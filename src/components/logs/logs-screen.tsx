'use client';
import * as React from 'react';
import { Link } from '@/components/ui/link';
import { useQuery } from '@tanstack/react-query';
import { ListFilter, Search, X } from 'lucide-react';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScope, useScopeInput } from '@/console-client/scope';
import { useUrlFilters } from '@/console-client/url-filters';
import { dateTimeMs } from '@/console-client/format';
import { cn } from '@/components/ui/cn';
import { RelativeTime } from '@/components/ui/relative-time';
import { TruncatedText } from '@/components/ui/truncated-text';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Select } from '@/components/ui/select';
import { Sheet } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryTable } from '@/components/ui/query-table';
import { EmptyState, ErrorState, IgnoredFilterNotice } from '@/components/ui/states';
import { DebouncedField } from '@/components/ui/debounced-field';
import { TimeRangeFields } from '@/components/ui/time-range-fields';
import { LOG_FILTER_KEYS, LOG_PAGE_SIZE, logFilters, type LogFilterKey } from './log-query';
import { DetailList } from '@/components/ui/detail-list';

const ANY = 'all';

type LogLine = ConsoleOutputs['logs']['list']['data'][number];

export function StatusBadge({ status }: { status: number }) {
  return <Badge variant={status >= 500 ? 'destructive' : status >= 400 ? 'warning' : 'success'}>{status}</Badge>;
}

/** /v1 and /mcp requests of this organization and mode, newest first, with filters and request-id search. */
export function LogsScreen() {
  const trpc = useTRPC();
  const scope = useScope();
  const input = useScopeInput();
  const [filters, setFilters] = useUrlFilters(LOG_FILTER_KEYS);
  const parsed = logFilters(filters);
  const query = parsed.success ? parsed.data : {};
  const pages = useCursorPages(JSON.stringify([input, query]));
  const lines = useQuery(trpc.logs.list.queryOptions({ ...input, ...query, cursor: pages.cursor, limit: LOG_PAGE_SIZE }));
  const keys = useQuery(trpc.keys.list.queryOptions({ ...input, includeRevoked: true, limit: 100 }));
  const [openId, setOpenId] = React.useState<string | null>(null);
  const [search, setSearch] = React.useState(filters.requestId ?? '');

  const columns: Column<LogLine>[] = [
    { id: 'time', header: 'Time', cell: ({ row }) => <RelativeTime ms={row.original.created_at_ms} precise className="text-xs" /> },
    { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { id: 'method', header: 'Method', cell: ({ row }) => <span className="font-mono text-xs">{row.original.method}</span> },
    {
      id: 'path',
      header: 'Path',
      cell: ({ row }) => (
        <span className="block max-w-[20rem] truncate font-mono text-xs" title={row.original.path}>
          {row.original.path}
        </span>
      ),
    },
    { id: 'error', header: 'Error', cell: ({ row }) => (row.original.error_code ? <code className="text-xs">{row.original.error_code}</code> : null) },
    { id: 'key', header: 'Key', cell: ({ row }) => <span className="text-xs whitespace-nowrap">{row.original.api_key?.name ?? row.original.api_key?.prefix ?? '—'}</span> },
    { id: 'duration', header: 'Duration', cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{row.original.duration_ms} ms</span> },
    {
      id: 'id',
      header: 'Request id',
      cell: ({ row }) => (
        <TruncatedText text={row.original.id} label={`request id ${row.original.id}`} maxWidth="9rem" className="font-mono text-xs" />
      ),
    },
  ];

  const keyOptions = [{ value: ANY, label: 'Any key' }, ...(keys.data?.data ?? []).map((k) => ({ value: k.id, label: `${k.name} (${k.prefix})` }))];
  const anyFilter = LOG_FILTER_KEYS.some((k) => filters[k]);
  const [filtersOpen, setFiltersOpen] = React.useState(false);
  const chips = filterChips(filters, keys.data?.data ?? []);

  return (
    <>
      <PageHeader title="Request log" description={`Requests to /v1 and /mcp in ${scope.mode} mode, newest first. MCP tool calls appear as /mcp/<tool>.`} />
      <form
        role="search"
        className="mb-4 flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ requestId: search.trim() || undefined });
        }}
      >
        <Label htmlFor="request-id-search" className="sr-only">
          Find a request by its id
        </Label>
        <Input id="request-id-search" placeholder="Find by request id (req_…)" value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm font-mono" />
        <Button type="submit" variant="secondary">
          <Search aria-hidden /> Find
        </Button>
      </form>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" className="md:hidden" aria-expanded={filtersOpen} aria-controls="log-filters" onClick={() => setFiltersOpen((open) => !open)}>
          <ListFilter aria-hidden /> Filter{chips.length > 0 ? ` (${chips.length})` : ''}
        </Button>
        {chips.length > 0 ? (
          <ul aria-label="Active filters" className="flex min-w-0 flex-wrap gap-2">
            {chips.map((chip) => (
              <li key={chip.key} className="flex max-w-full min-w-0 items-center gap-1 rounded-full border bg-muted/50 py-0.5 pr-1 pl-3 text-xs">
                <span className="min-w-0 truncate">{chip.label}</span>
                {/* Named by its content, not aria-label: the filter fields keep their label to themselves (getByLabel('Path')). */}
                <button
                  type="button"
                  title={`Remove filter ${chip.label}`}
                  className="inline-flex size-5 shrink-0 items-center justify-center rounded-full hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  onClick={() => {
                    if (chip.key === 'requestId') setSearch('');
                    setFilters(Object.fromEntries(chip.keys.map((k) => [k, undefined])));
                  }}
                >
                  <X aria-hidden className="size-3" />
                  <span className="sr-only">Remove filter {chip.label}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div
        id="log-filters"
        className={cn(filtersOpen ? 'grid' : 'hidden', 'mb-4 grid-cols-[repeat(auto-fill,minmax(min(100%,13rem),1fr))] gap-3 md:grid')}
        aria-label="Filters"
        role="group"
      >
        <div className="grid gap-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <Select
            id="filter-status"
            label="Status"
            value={filters.statusClass ?? ANY}
            onValueChange={(v) => setFilters({ statusClass: v === ANY ? undefined : v })}
            options={[
              { value: ANY, label: 'Any status' },
              { value: 'errors', label: 'Errors (4xx and 5xx)' },
              { value: '2xx', label: '2xx' },
              { value: '3xx', label: '3xx' },
              { value: '4xx', label: '4xx' },
              { value: '5xx', label: '5xx' },
            ]}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="filter-method">Method</Label>
          <Select
            id="filter-method"
            label="Method"
            value={filters.method ?? ANY}
            onValueChange={(v) => setFilters({ method: v === ANY ? undefined : v })}
            options={[{ value: ANY, label: 'Any method' }, ...['GET', 'POST', 'DELETE'].map((m) => ({ value: m, label: m }))]}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="filter-key">Key</Label>
          <Select id="filter-key" label="Key" value={filters.apiKeyId ?? ANY} onValueChange={(v) => setFilters({ apiKeyId: v === ANY ? undefined : v })} options={keyOptions} />
        </div>
        <DebouncedField id="filter-error-code" label="Error code" value={filters.errorCode ?? ''} onCommit={(v) => setFilters({ errorCode: v || undefined })} placeholder="e.g. invalid_parameter" />
        <DebouncedField id="filter-path" label="Path" value={filters.path ?? ''} onCommit={(v) => setFilters({ path: v || undefined })} placeholder="starts with, e.g. /v1/generations" />
        <TimeRangeFields idPrefix="filter" from={filters.from} to={filters.to} onChange={setFilters} />
        <div className="flex items-end">
          <Button
            variant="ghost"
            disabled={!anyFilter}
            onClick={() => {
              setSearch('');
              setFilters(Object.fromEntries(LOG_FILTER_KEYS.map((k) => [k, undefined])));
            }}
          >
            <X aria-hidden /> Clear filters
          </Button>
        </div>
      </div>
      {!parsed.success ? <IgnoredFilterNotice issue={parsed.error.issues[0]} /> : null}
      <QueryTable
        query={lines}
        loadingLabel="Loading requests"
        loadingRows={8}
        empty={
          <EmptyState title={anyFilter ? 'No request matches these filters' : `No ${scope.mode} requests yet`}>
            {anyFilter ? 'Change or clear the filters.' : `Call the API with a ${scope.mode} key and the requests appear here within seconds.`}
          </EmptyState>
        }
        pages={pages}
        label="Requests"
        columns={columns}
        rowKey={(l) => l.id}
        onOpen={(l) => setOpenId(l.id)}
        rowLabel={(l) => `${l.method} ${l.path} ${l.status}, request ${l.id}`}
        card={(l) => <RequestCard line={l} />}
      />
      <Sheet open={openId !== null} onOpenChange={(open) => !open && setOpenId(null)} title={openId ?? ''} description="Request details">
        {openId ? <RequestDetail id={openId} base={scope.base} /> : null}
      </Sheet>
    </>
  );
}

/** A request on a phone: method, path, status and time first; the error, key and id below. */
function RequestCard({ line }: { line: LogLine }) {
  return (
    <span className="flex min-w-0 flex-col gap-1 text-sm">
      <span className="flex min-w-0 items-center gap-2">
        <span className="font-mono text-xs font-medium">{line.method}</span>
        <span className="min-w-0 flex-1 truncate font-mono text-xs">{line.path}</span>
        <StatusBadge status={line.status} />
      </span>
      <span className="flex min-w-0 items-center justify-between gap-2 text-xs text-muted-foreground">
        <RelativeTime ms={line.created_at_ms} precise />
        <span className="whitespace-nowrap tabular-nums">{line.duration_ms} ms</span>
      </span>
      {line.error_code ? <code className="truncate text-xs">{line.error_code}</code> : null}
      <span className="truncate font-mono text-xs text-muted-foreground">{line.id}</span>
    </span>
  );
}

const STATUS_CLASS_LABELS: Record<string, string> = { errors: 'Errors', '2xx': '2xx', '3xx': '3xx', '4xx': '4xx', '5xx': '5xx' };

/** The filters in force as removable chips; `keys` are the URL filters a chip clears. */
function filterChips(filters: Partial<Record<LogFilterKey, string>>, apiKeys: { id: string; name: string; prefix: string }[]) {
  const chips: { key: string; keys: LogFilterKey[]; label: string }[] = [];
  if (filters.requestId) chips.push({ key: 'requestId', keys: ['requestId'], label: `Request ${filters.requestId}` });
  if (filters.statusClass) chips.push({ key: 'statusClass', keys: ['statusClass'], label: `Status: ${STATUS_CLASS_LABELS[filters.statusClass] ?? filters.statusClass}` });
  if (filters.method) chips.push({ key: 'method', keys: ['method'], label: `Method: ${filters.method}` });
  if (filters.apiKeyId) {
    const key = apiKeys.find((k) => k.id === filters.apiKeyId);
    chips.push({ key: 'apiKeyId', keys: ['apiKeyId'], label: `Key: ${key ? key.name : filters.apiKeyId}` });
  }
  if (filters.errorCode) chips.push({ key: 'errorCode', keys: ['errorCode'], label: `Error: ${filters.errorCode}` });
  if (filters.path) chips.push({ key: 'path', keys: ['path'], label: `Path: ${filters.path}…` });
  if (filters.from || filters.to) {
    const when = (v: string | undefined) => (v ? v.replace('T', ' ') : '…');
    chips.push({ key: 'time', keys: ['from', 'to'], label: `Time (UTC): ${when(filters.from)} to ${when(filters.to)}` });
  }
  return chips;
}

function RequestDetail({ id, base }: { id: string; base: string }) {
  const trpc = useTRPC();
  const input = useScopeInput();
  const line = useQuery(trpc.logs.get.queryOptions({ ...input, id }));
  if (line.isPending) return <Skeleton className="h-64 w-full" />;
  if (line.isError) return <ErrorState error={line.error} onRetry={() => void line.refetch()} />;
  const l = line.data;
  const rows: [string, React.ReactNode][] = [
    ['Time', dateTimeMs(l.created_at_ms)],
    ['Method', l.method],
    ['Path', <code key="p">{l.path}</code>],
    ['Status', <StatusBadge key="s" status={l.status} />],
    ['Error code', l.error_code ? <code key="c">{l.error_code}</code> : '—'],
    ['Error message', l.error_message ?? '—'],
    ['Key', l.api_key ? `${l.api_key.name ?? ''} (${l.api_key.prefix ?? l.api_key.id})` : '—'],
    ['IP', l.ip ?? '—'],
    ['Duration', `${l.duration_ms} ms`],
    [
      'Generation',
      l.generation_id ? (
        <span key="g" className="flex flex-wrap gap-3">
          <Link className="text-primary underline underline-offset-4" href={`${base}/generations?open=${l.generation_id}`}>
            {l.generation_id}
          </Link>
          {l.idempotent_repeat ? <span className="text-muted-foreground">an idempotent repeat: the generation of the first request with this Idempotency-Key</span> : null}
        </span>
      ) : (
        '—'
      ),
    ],
  ];
  // Only a request that created a generation (an idempotent repeat names the first one's) has settings to replay.
  const replayHref = l.generation_id ? `${base}/playground?replay=${l.generation_id}` : null;
  return (
    <div className="flex flex-col gap-6" data-testid="request-detail">
    {replayHref ? (
      <Link className="self-start text-primary underline underline-offset-4" href={replayHref}>
        Open in playground
      </Link>
    ) : null}
    <DetailList rows={rows} termWidth="8rem" />
    <LoggedJson title="Request parameters" value={l.request_params} empty="No parameters (or not kept for this request)." />
    <LoggedJson title="Response body" value={l.response_body} empty="No body kept for this request." />
    </div>
  );
}

/** A logged body, pretty-printed; secrets and images were redacted before it was stored. */
function LoggedJson({ title, value, empty }: { title: string; value: unknown; empty: string }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1 text-sm">
      <h3 className="font-medium">{title}</h3>
      {value === null || value === undefined ? (
        <p className="text-muted-foreground">{empty}</p>
      ) : (
        <pre className="max-h-72 overflow-auto rounded bg-muted p-2 text-xs" tabIndex={0} aria-label={title}>
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </section>
  );
}
