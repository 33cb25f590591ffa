import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import { deviceName } from './device-name';
import type { AuditAction } from '@/shared/audit/actions';

/**
 * The console's audit log: one organization (every mode: it is the organization's record),
 * newest first, filtered by actor, action and time range. The same filters drive the list and
 * the exports.
 */
export interface AuditFilters {
  /** A user id (usr_…), or the label the row keeps: an e-mail address, a key prefix, "operator (CLI)". */
  actor?: string | undefined;
  action?: AuditAction | undefined;
  /** Unix seconds, inclusive / exclusive. */
  from?: number | undefined;
  to?: number | undefined;
}

export interface AuditEventView {
  id: string;
  created_at: number;
  created_at_ms: number;
  action: string;
  actor: { type: string; label: string; user_id: string | null; api_key_id: string | null };
  ip: string | null;
  user_agent: string | null;
  /** The user agent, shortened ("Chrome 131 on Linux"); null without one. */
  device: string | null;
  mode: 'test' | 'live' | null;
  target: { type: string; id: string } | null;
  details: Prisma.JsonValue;
}

type AuditRow = Prisma.AuditEventGetPayload<object>;

export function auditEventView(row: AuditRow): AuditEventView {
  return {
    id: row.id,
    created_at: toUnixSeconds(row.createdAt),
    created_at_ms: row.createdAt.getTime(),
    action: row.action,
    actor: { type: row.actorType, label: row.actorLabel, user_id: row.actorUserId, api_key_id: row.actorApiKeyId },
    ip: row.ip,
    user_agent: row.userAgent,
    device: row.userAgent ? deviceName(row.userAgent) : null,
    mode: row.mode,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    details: row.details,
  };
}

function whereOf(organizationId: string, filters: AuditFilters): Prisma.AuditEventWhereInput {
  const actor = filters.actor?.trim();
  return {
    organizationId,
    ...(filters.action ? { action: filters.action } : {}),
    ...(actor ? (/^usr_[0-9A-Za-z]+$/.test(actor) ? { actorUserId: actor } : { actorLabel: { equals: actor, mode: 'insensitive' as const } }) : {}),
    ...(filters.from !== undefined || filters.to !== undefined
      ? { createdAt: { ...(filters.from !== undefined ? { gte: new Date(filters.from * 1000) } : {}), ...(filters.to !== undefined ? { lt: new Date(filters.to * 1000) } : {}) } }
      : {}),
  };
}

const NEWEST_FIRST: Prisma.AuditEventOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { seq: 'desc' }];

async function afterCursor(organizationId: string, cursor: string | undefined): Promise<Prisma.AuditEventWhereInput> {
  if (!cursor) return {};
  const row = await db().auditEvent.findFirst({ where: { id: cursor, organizationId }, select: { createdAt: true, seq: true } });
  if (!row) throw invalidParam('cursor', 'Unknown cursor.');
  return { OR: [{ createdAt: { lt: row.createdAt } }, { createdAt: row.createdAt, seq: { lt: row.seq } }] };
}

export async function listAuditEvents(organizationId: string, filters: AuditFilters, page: PageParams): Promise<Page<AuditEventView>> {
  const rows = await db().auditEvent.findMany({
    where: { AND: [whereOf(organizationId, filters), await afterCursor(organizationId, page.cursor)] },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
  return pageOf(rows, page.limit, (r) => r.id, auditEventView);
}

/** An export holds at most this many rows (newest first); past it the answer says so. */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;
const EXPORT_BATCH = 1_000;

/** Every row matching the filters, newest first, read in batches (at most AUDIT_EXPORT_MAX_ROWS). */
export async function auditEventsForExport(organizationId: string, filters: AuditFilters): Promise<{ events: AuditEventView[]; truncated: boolean }> {
  const events: AuditEventView[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listAuditEvents(organizationId, filters, { limit: EXPORT_BATCH, cursor });
    events.push(...page.data);
    if (!page.next_cursor) return { events, truncated: false };
    if (events.length >= AUDIT_EXPORT_MAX_ROWS) return { events: events.slice(0, AUDIT_EXPORT_MAX_ROWS), truncated: true };
    cursor = page.next_cursor;
  }
}
