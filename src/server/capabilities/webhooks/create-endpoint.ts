import { issueMessage } from '@/server/platform/zod-required';
import { z } from 'zod';
import type { Db } from '@/server/platform/db';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { checkUrlWithoutResolving, UnsafeUrlError } from '@/server/capabilities/net/safe-http';
import { eventTypesForMode } from '@/shared/webhooks/event-types';
import { encryptSecret, newSigningSecret } from './signing-secret';
import { OPERATOR, type AuditActor } from '@/server/capabilities/audit/actor';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { MAX_ENDPOINTS_PER_ORGANIZATION, toApiEndpoint, type ApiWebhookEndpoint, type EndpointScope } from './endpoints';

export const createEndpointInput = z.strictObject({
  mode: z.enum(['test', 'live']),
  url: z.string(),
  events: z.array(z.string()).optional(),
  description: z.string().max(500).optional(),
});
export type CreateEndpointInput = z.infer<typeof createEndpointInput>;

/**
 * Endpoint URL rules (spec, Events): HTTPS on port 443, no credentials, no fragment, and a host
 * that can be public (a public IP literal, or a dotted name that is not local or reserved).
 * Decision: the host is not resolved here. Every delivery resolves it and refuses private
 * addresses (the SSRF boundary, safeRequest), so a check now would add no safety — a name can
 * point elsewhere a minute later — and it refused valid URLs whenever DNS failed at that moment
 * (docs/webhooks.md). A host that does not resolve shows up as failed deliveries in the log.
 */
export function checkEndpointUrl(url: string): string {
  if (url.includes('#')) throw invalidParam('url', 'The URL must not contain a fragment.');
  try {
    return checkUrlWithoutResolving(url).href;
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidParam('url', error.message);
    throw error;
  }
}

export function checkEvents(mode: 'test' | 'live', events: string[] | undefined): string[] {
  const allowed: readonly string[] = eventTypesForMode(mode);
  if (events === undefined) return [...allowed];
  const unique = [...new Set(events)];
  if (unique.length === 0) throw invalidParam('events', 'Follow at least one event type.');
  const unknown = unique.filter((t) => !allowed.includes(t));
  if (unknown.length > 0) {
    throw invalidParam('events', `Unknown event type for a ${mode} endpoint: ${unknown.join(', ')}. Allowed: ${allowed.join(', ')}.`);
  }
  return unique;
}

/** Declares an endpoint; the signing secret is in the answer and nowhere else in clear. `actor`: the console's member, else the operator (CLI). */
export async function createEndpoint(
  client: Db,
  scope: EndpointScope,
  raw: unknown,
  actor: AuditActor = OPERATOR,
): Promise<{ endpoint: ApiWebhookEndpoint; secret: string }> {
  const parsed = createEndpointInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = String(issue?.path[0] ?? 'body');
    throw invalidParam(param, issueMessage(issue, param, 'Invalid endpoint.'));
  }
  const input = parsed.data;
  const eventTypes = checkEvents(input.mode, input.events);
  const url = checkEndpointUrl(input.url);
  const id = newId('we');
  const secret = newSigningSecret();
  const row = await client.$transaction(async (tx) => {
    // One creation at a time per organization, so two concurrent ones cannot both be the 20th.
    const org = await tx.$queryRaw<{ id: string }[]>`select id from "Organization" where id = ${scope.organizationId} for update`;
    if (org.length === 0) throw new DomainError('resource_not_found', `No organization ${scope.organizationId}.`, { param: 'org' });
    const count = await tx.webhookEndpoint.count({ where: { organizationId: scope.organizationId } });
    if (count >= MAX_ENDPOINTS_PER_ORGANIZATION) {
      throw new DomainError('webhook_endpoint_limit_reached', `An organization has at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints, all modes together.`);
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        organizationId: scope.organizationId,
        mode: input.mode,
        url,
        description: input.description ?? null,
        eventTypes,
        secretEncrypted: encryptSecret(id, secret),
        createdAt: clock.now(),
      },
    });
    await recordAudit(tx, actor, scope.organizationId, {
      action: 'webhook_endpoint.created',
      mode: created.mode,
      target: { type: 'webhook_endpoint', id },
      details: { url, events: eventTypes, description: created.description },
    });
    return created;
    // Creations of one organization queue on its row lock: give the queue time on a busy machine.
  }, { maxWait: 10_000, timeout: 20_000 });
  return { endpoint: toApiEndpoint(row), secret };
}
