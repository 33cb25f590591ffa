'use client';
import * as React from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, X } from 'lucide-react';
import { AUDIT_ACTIONS } from '@/shared/audit/actions';
import { useTRPC, type ConsoleOutputs } from '@/console-client/trpc';
import { useScopeInput } from '@/console-client/scope';
import { useUrlFilters } from '@/console-client/url-filters';
import { dateTimeMs } from '@/console-client/format';
import { downloadText } from '@/console-client/download';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useCursorPages, type Column } from '@/components/ui/data-table';
import { DebouncedField } from '@/components/ui/debounced-field';
import { TimeRangeFields } from '@/components/ui/time-range-fields';
import { FormError } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { QueryTable } from '@/components/ui/query-table';
import { Select } from '@/components/ui/select';
import { Sheet } from '@/components/ui/sheet';
import { EmptyState, IgnoredFilterNotice } from '@/components/ui/states';
import { toast } from '@/components/ui/toaster';
import { AUDIT_FILTER_KEYS, AUDIT_PAGE_SIZE, auditFilters } from './audit-query';
import { DetailList } from '@/components/ui/detail-list';

const ANY = 'all';
type AuditRow = ConsoleOutputs['audit']['list']['data'][number];

/** "api_key.created" → "API key created". */
function actionLabel(action: string): string {
  const text = action.replace('api_key', 'API key').replace('auto_recharge', 'auto-recharge').replace('two_factor', 'two-factor').replace('signin', 'sign-in').replaceAll('_', ' ').replace('.', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The organization's audit log: who did what, when and from where; filters in the URL; CSV and JSON exports of the same rows. */
export function AuditScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = useScopeInput();
  const [filters, setFilters] = useUrlFilters(AUDIT_FILTER_KEYS);
  const parsed = auditFilters(filters);
  const query = parsed.success ? parsed.data : {};
  const pages = useCursorPages(JSON.stringify([input.organizationId, query]));
  const events = useQuery(trpc.audit.list.queryOptions({ ...input, ...query, cursor: pages.cursor, limit: AUDIT_PAGE_SIZE }));
  const [open, setOpen] = React.useState<AuditRow | null>(null);
  const [exporting, setExporting] = React.useState<string | null>(null);
  const [exportError, setExportError] = React.useState<string | null>(null);
  const anyFilter = AUDIT_FILTER_KEYS.some((k) => filters[k]);

  const exportAs = async (format: 'csv' | 'json') => {
    setExporting(format);
    setExportError(null);
    try {
      const file = await queryClient.fetchQuery(trpc.audit.export.queryOptions({ ...input, ...query, format }, { staleTime: 0 }));
      downloadText(file.filename, file.content, file.content_type);
      if (file.truncated) toast.warning(`The export holds the newest ${file.rows} rows only: narrow the date range for the rest.`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : 'The export failed.');
    } finally {
      setExporting(null);
    }
  };

  const columns: Column<AuditRow>[] = [
    { id: 'time', header: 'Time', cell: ({ row }) => <span className="font-mono text-xs whitespace-nowrap">{dateTimeMs(row.original.created_at_ms)}</span> },
    { id: 'action', header: 'Action', cell: ({ row }) => <span className="whitespace-nowrap">{actionLabel(row.original.action)}</span> },
    {
      id: 'actor',
      header: 'Actor',
      cell: ({ row }) => (
        <span className="flex flex-col">
          <span className="break-all">{row.original.actor.label}</span>
          {row.original.actor.type !== 'user' ? <span className="text-xs text-muted-foreground">{row.original.actor.type}</span> : null}
        </span>
      ),
    },
    {
      id: 'from',
      header: 'From',
      cell: ({ row }) => (
        <span className="flex flex-col text-xs">
          <span className="font-mono">{row.original.ip ?? '—'}</span>
          {row.original.device ? <span className="text-muted-foreground">{row.original.device}</span> : null}
        </span>
      ),
    },
    {
      id: 'target',
      header: 'Target',
      cell: ({ row }) => (
        <span className="flex flex-wrap items-center gap-1 text-xs">
          {row.original.target ? <code>{row.original.target.id}</code> : '—'}
          {row.original.mode ? <Badge variant={row.original.mode === 'live' ? 'outline' : 'warning'}>{row.original.mode}</Badge> : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Audit log" description="Who did what in this organization, when and from where: sign-ins, keys, members, webhooks, billing and settings, in every mode. Kept 13 months." />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filters" role="group">
        <DebouncedField id="audit-actor" label="Actor" value={filters.actor ?? ''} onCommit={(v) => setFilters({ actor: v || undefined })} placeholder="e-mail address or usr_…" />
        <div className="grid gap-1.5">
          <Label htmlFor="audit-action">Action</Label>
          <Select
            id="audit-action"
            label="Action"
            value={filters.action ?? ANY}
            onValueChange={(v) => setFilters({ action: v === ANY ? undefined : v })}
            options={[{ value: ANY, label: 'Any action' }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))]}
          />
        </div>
        <TimeRangeFields idPrefix="audit" from={filters.from} to={filters.to} onChange={setFilters} />
      </div>
      <div className="mb-4 flex flex-wrap gap-2">
        <Button variant="ghost" disabled={!anyFilter} onClick={() => setFilters(Object.fromEntries(AUDIT_FILTER_KEYS.map((k) => [k, undefined])))}>
          <X aria-hidden /> Clear filters
        </Button>
        <Button variant="outline" onClick={() => void exportAs('csv')} disabled={exporting !== null}>
          <Download aria-hidden /> Export CSV
        </Button>
        <Button variant="outline" onClick={() => void exportAs('json')} disabled={exporting !== null}>
          <Download aria-hidden /> Export JSON
        </Button>
      </div>
      <FormError message={exportError} />
      {!parsed.success ? <IgnoredFilterNotice issue={parsed.error.issues[0]} /> : null}
      <QueryTable
        query={events}
        loadingLabel="Loading the audit log"
        loadingRows={8}
        empty={<EmptyState title={anyFilter ? 'No event matches these filters' : 'No events yet'}>{anyFilter ? 'Change or clear the filters.' : 'Sign-ins and changes to keys, members, webhooks and settings appear here.'}</EmptyState>}
        pages={pages}
        label="Audit events"
        columns={columns}
        rowKey={(e) => e.id}
        onOpen={(e) => setOpen(e)}
        rowLabel={(e) => `${actionLabel(e.action)} by ${e.actor.label}, ${dateTimeMs(e.created_at_ms)}`}
      />
      <Sheet open={open !== null} onOpenChange={(o) => !o && setOpen(null)} title={open ? actionLabel(open.action) : ''} description="Audit event">
        {open ? <AuditDetail event={open} /> : null}
      </Sheet>
    </>
  );
}

function AuditDetail({ event }: { event: AuditRow }) {
  const rows: [string, React.ReactNode][] = [
    ['Time', dateTimeMs(event.created_at_ms)],
    ['Action', <code key="a">{event.action}</code>],
    ['Actor', `${event.actor.label} (${event.actor.type})`],
    ['IP', event.ip ?? '—'],
    ['User agent', event.user_agent ?? '—'],
    ['Mode', event.mode ?? '—'],
    ['Target', event.target ? `${event.target.type} ${event.target.id}` : '—'],
    ['Event id', <code key="i">{event.id}</code>],
  ];
  return (
    <div className="flex flex-col gap-4" data-testid="audit-detail">
      <DetailList rows={rows} termWidth="7rem" />
      <div>
        <p className="mb-1 text-sm text-muted-foreground">Details</p>
        <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{JSON.stringify(event.details, null, 2)}</pre>
      </div>
    </div>
  );
}
