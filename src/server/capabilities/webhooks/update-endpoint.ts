import type { Db } from '@/server/platform/db';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { OPERATOR, type AuditActor } from '@/server/capabilities/audit/actor';
import { invalidParam } from '@/server/platform/errors';
import { checkEndpointUrl, checkEvents } from './create-endpoint';
import { findEndpoint, toApiEndpoint, type ApiWebhookEndpoint, type EndpointScope } from './endpoints';

export interface EndpointChanges {
  url?: string | undefined;
  /** Empty or null clears it. */
  description?: string | null | undefined;
  events?: string[] | undefined;
}

/**
 * Edit an endpoint's URL, description and followed events, under the creation's rules (the URL
 * checked the same way; events of the endpoint's mode, at least one). The secret, status and
 * delivery log stay; deliveries already planned go to the new URL (the URL is read at each
 * attempt) and only events produced from now on follow the new event list.
 */
export async function updateEndpoint(client: Db, scope: EndpointScope, id: string, changes: EndpointChanges, actor: AuditActor = OPERATOR): Promise<ApiWebhookEndpoint> {
  const endpoint = await findEndpoint(client, scope, id);
  const data: { url?: string; description?: string | null; eventTypes?: string[] } = {};
  if (changes.url !== undefined) data.url = await checkEndpointUrl(changes.url.trim());
  if (changes.description !== undefined) {
    const description = changes.description?.trim() ?? '';
    if (description.length > 500) throw invalidParam('description', 'The description has at most 500 characters.');
    data.description = description === '' ? null : description;
  }
  if (changes.events !== undefined) data.eventTypes = checkEvents(endpoint.mode, changes.events);
  if (Object.keys(data).length === 0) return toApiEndpoint(endpoint);
  const updated = await client.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data });
    await recordAudit(tx, actor, endpoint.organizationId, {
      action: 'webhook_endpoint.updated',
      mode: endpoint.mode,
      target: { type: 'webhook_endpoint', id: endpoint.id },
      details: {
        ...(data.url !== undefined ? { url: { from: endpoint.url, to: data.url } } : {}),
        ...(data.description !== undefined ? { description: { from: endpoint.description, to: data.description } } : {}),
        ...(data.eventTypes !== undefined ? { events: { from: endpoint.eventTypes, to: data.eventTypes } } : {}),
      },
    });
    return row;
  });
  return toApiEndpoint(updated);
}
