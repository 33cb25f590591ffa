import type { Prisma } from '@/generated/prisma/client';
import type { DbTx } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { invalidParam, notFound } from '@/server/platform/errors';
import { pageOf, type Page } from '@/server/platform/pages';
import { endpointWhere, findEndpoint, type EndpointScope } from './endpoints';

export interface ApiWebhookAttempt {
  number: number;
  started_at: number;
  duration_ms: number;
  request_headers: Record<string, string>;
  status_code: number | null;
  response_body: string | null;
  error: string | null;
  succeeded: boolean;
}

export interface ApiWebhookDelivery {
  object: 'webhook_delivery';
  id: string;
  endpoint: string;
  event: { id: string; type: string; created_at: number };
  kind: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  attempt_log: ApiWebhookAttempt[];
}

const INCLUDE = { event: { select: { id: true, type: true, createdAt: true } }, attemptLog: { orderBy: { startedAt: 'asc' as const } } };

type Row = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

function loadDelivery(tx: DbTx, scope: EndpointScope, id: string) {
  return tx.webhookDelivery.findFirst({ where: { id, endpoint: endpointWhere(scope) }, include: INCLUDE });
}

export function toApiDelivery(d: Row): ApiWebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: d.id,
    endpoint: d.endpointId,
    event: { id: d.event.id, type: d.event.type, created_at: toUnixSeconds(d.event.createdAt) },
    kind: d.kind,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: toUnixSeconds(d.nextAttemptAt),
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    created_at: toUnixSeconds(d.createdAt),
    attempt_log: d.attemptLog.map((a) => ({
      number: a.number,
      started_at: toUnixSeconds(a.startedAt),
      duration_ms: a.durationMs,
      request_headers: a.requestHeaders as Record<string, string>,
      status_code: a.statusCode,
      response_body: a.responseBody,
      error: a.error,
      succeeded: a.succeeded,
    })),
  };
}

export async function getDelivery(tx: DbTx, scope: EndpointScope, id: string): Promise<ApiWebhookDelivery> {
  const row = await loadDelivery(tx, scope, id);
  if (!row) throw notFound(`No webhook delivery ${id}.`, 'delivery');
  return toApiDelivery(row);
}

/** An endpoint's delivery log, newest first (the last 30 days: older rows are pruned). */
export async function listDeliveries(tx: DbTx, scope: EndpointScope, endpointId: string, options: { limit?: number } = {}): Promise<ApiWebhookDelivery[]> {
  await findEndpoint(tx, scope, endpointId);
  const rows = await tx.webhookDelivery.findMany({
    where: { endpointId },
    include: INCLUDE,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: Math.min(Math.max(options.limit ?? 100, 1), 1000),
  });
  return rows.map(toApiDelivery);
}

/** The organization a delivery belongs to (admin tools that start from an id). */
export async function deliveryScope(tx: DbTx, id: string): Promise<EndpointScope> {
  const row = await tx.webhookDelivery.findUnique({ where: { id }, select: { endpoint: { select: { organizationId: true } } } });
  if (!row) throw notFound(`No webhook delivery ${id}.`, 'delivery');
  return { organizationId: row.endpoint.organizationId };
}

/**
 * The console's page of an endpoint's log, newest first, with a cursor (a delivery id).
 * `failedOnly`: deliveries whose attempts have not succeeded (failed for good, retrying, or
 * canceled after failures); deliveries not attempted yet are not failures.
 */
export async function pageDeliveries(
  tx: DbTx,
  scope: EndpointScope,
  endpointId: string,
  options: { limit: number; cursor?: string | undefined; failedOnly?: boolean | undefined },
): Promise<Page<ApiWebhookDelivery>> {
  await findEndpoint(tx, scope, endpointId);
  const where: Prisma.WebhookDeliveryWhereInput = { endpointId };
  if (options.failedOnly) Object.assign(where, { attempts: { gt: 0 }, status: { not: 'succeeded' } });
  if (options.cursor) {
    const after = await tx.webhookDelivery.findFirst({ where: { id: options.cursor, endpointId }, select: { id: true, createdAt: true } });
    if (!after) throw invalidParam('cursor', 'Unknown cursor.');
    where.OR = [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }];
  }
  const rows = await tx.webhookDelivery.findMany({ where, include: INCLUDE, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: options.limit + 1 });
  return pageOf(rows, options.limit, (row) => row.id, toApiDelivery);
}
