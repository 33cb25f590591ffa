import { auditFiltersInput } from '@/shared/console/console-inputs';
import { unixFromInput } from '@/console-client/format';

export const AUDIT_FILTER_KEYS = ['actor', 'action', 'from', 'to'] as const;
export type AuditFilterKey = (typeof AUDIT_FILTER_KEYS)[number];
export const AUDIT_PAGE_SIZE = 50;

/**
 * The audit log's URL filters as the procedure's input (what the server's schema refuses is
 * dropped, not sent). Shared by the screen, its exports and the page's server-side prefetch.
 */
export function auditFilters(filters: Partial<Record<AuditFilterKey, string>>) {
  return auditFiltersInput.safeParse({ ...filters, from: unixFromInput(filters.from ?? ''), to: unixFromInput(filters.to ?? '') });
}
