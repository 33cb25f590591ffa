import { clock } from '@/server/platform/clock';
import { auditEventsForExport, type AuditEventView, type AuditFilters } from './search-audit-log';

export type AuditExportFormat = 'csv' | 'json';

export interface AuditExport {
  filename: string;
  content_type: string;
  content: string;
  rows: number;
  /** True when more rows matched than an export holds: narrow the date range. */
  truncated: boolean;
}

const CSV_COLUMNS = ['id', 'time_utc', 'action', 'actor_type', 'actor', 'actor_user_id', 'actor_api_key_id', 'ip', 'user_agent', 'mode', 'target_type', 'target_id', 'details'] as const;

/**
 * One CSV cell. Quoted when needed (RFC 4180), and a cell a spreadsheet would run as a formula
 * (=, +, -, @, tab, CR first: user agents and names are chosen by whoever sent them) is
 * prefixed with an apostrophe, as OWASP advises against CSV injection.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvRow(e: AuditEventView): string {
  const cells: (string | null)[] = [
    e.id,
    new Date(e.created_at_ms).toISOString(),
    e.action,
    e.actor.type,
    e.actor.label,
    e.actor.user_id,
    e.actor.api_key_id,
    e.ip,
    e.user_agent,
    e.mode,
    e.target?.type ?? null,
    e.target?.id ?? null,
    JSON.stringify(e.details),
  ];
  return cells.map(csvCell).join(',');
}

/** The audit log of an organization, filtered as on screen, as a CSV or JSON file. */
export async function exportAuditLog(organizationId: string, filters: AuditFilters, format: AuditExportFormat): Promise<AuditExport> {
  const { events, truncated } = await auditEventsForExport(organizationId, filters);
  const stamp = clock.now().toISOString().slice(0, 19).replaceAll(':', '-');
  const filename = `audit-log-${organizationId}-${stamp}.${format}`;
  if (format === 'json') {
    return { filename, content_type: 'application/json', content: `${JSON.stringify({ object: 'list', data: events, truncated }, null, 2)}\n`, rows: events.length, truncated };
  }
  const lines = [CSV_COLUMNS.join(','), ...events.map(csvRow)];
  return { filename, content_type: 'text/csv', content: `${lines.join('\r\n')}\r\n`, rows: events.length, truncated };
}
