import type { WebhookEndpoint } from '@/generated/prisma/client';
import type { Mode } from '@/generated/prisma/enums';
import type { DbTx } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { notFound } from '@/server/platform/errors';

/** Endpoint services act inside one organization (the console's session, or the CLI's --org). */
export interface EndpointScope {
  organizationId: string;
  /** The console's mode switch: set, it narrows every lookup to that mode's endpoints (the CLI leaves it out). */
  mode?: Mode;
}

/** The where-clause of a scope: an endpoint of another organization or mode is not found. */
export function endpointWhere(scope: EndpointScope): { organizationId: string; mode?: Mode } {
  return scope.mode ? { organizationId: scope.organizationId, mode: scope.mode } : { organizationId: scope.organizationId };
}

export const MAX_ENDPOINTS_PER_ORGANIZATION = 20;
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface ApiWebhookEndpoint {
  object: 'webhook_endpoint';
  id: string;
  url: string;
  mode: 'test' | 'live';
  livemode: boolean;
  description: string | null;
  enabled_events: string[];
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  disabled_at: number | null;
  failing_since: number | null;
  /** While a rotation's overlap lasts: when the previous secret stops signing. */
  previous_secret_expires_at: number | null;
  created_at: number;
}

/** The endpoint as shown to users: never the secret. */
export function toApiEndpoint(e: WebhookEndpoint): ApiWebhookEndpoint {
  const overlap = e.previousSecretExpiresAt && e.previousSecretExpiresAt.getTime() > clock.nowMs() ? e.previousSecretExpiresAt : null;
  return {
    object: 'webhook_endpoint',
    id: e.id,
    url: e.url,
    mode: e.mode,
    livemode: e.mode === 'live',
    description: e.description,
    enabled_events: e.eventTypes,
    status: e.status,
    disabled_reason: e.disabledReason,
    disabled_at: toUnixSeconds(e.disabledAt),
    failing_since: toUnixSeconds(e.failingSince),
    previous_secret_expires_at: toUnixSeconds(overlap),
    created_at: toUnixSeconds(e.createdAt),
  };
}

export async function findEndpoint(tx: DbTx, scope: EndpointScope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await tx.webhookEndpoint.findFirst({ where: { id, ...endpointWhere(scope) } });
  if (!endpoint) throw notFound(`No webhook endpoint ${id}.`, 'endpoint');
  return endpoint;
}

export async function listEndpoints(tx: DbTx, scope: EndpointScope): Promise<ApiWebhookEndpoint[]> {
  const rows = await tx.webhookEndpoint.findMany({ where: endpointWhere(scope), orderBy: { createdAt: 'asc' } });
  return rows.map(toApiEndpoint);
}

export async function getEndpoint(tx: DbTx, scope: EndpointScope, id: string): Promise<ApiWebhookEndpoint> {
  return toApiEndpoint(await findEndpoint(tx, scope, id));
}

/** The organization an endpoint belongs to (admin tools that start from an id). */
export async function endpointScope(tx: DbTx, id: string): Promise<EndpointScope> {
  const endpoint = await tx.webhookEndpoint.findUnique({ where: { id }, select: { organizationId: true } });
  if (!endpoint) throw notFound(`No webhook endpoint ${id}.`, 'endpoint');
  return endpoint;
}
