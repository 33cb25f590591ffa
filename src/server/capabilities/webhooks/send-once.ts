import type { Db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { DomainError } from '@/server/platform/errors';
import { loggingStep } from '@/server/platform/jobs/steps';
import { attemptDelivery, LEASE_MS, prepareDeliveries } from './deliver-webhook';
import { getDelivery, type ApiWebhookDelivery } from './delivery-log';
import type { EndpointScope } from './endpoints';

export function requireActive(endpoint: { id: string; status: string }): void {
  if (endpoint.status !== 'active') {
    throw new DomainError('webhook_endpoint_disabled', `The webhook endpoint ${endpoint.id} is disabled; enable it first.`, { param: 'endpoint' });
  }
}

/**
 * A manual delivery (resend or test): one attempt, made now by the caller, never retried. The
 * row is created already leased, so no worker takes it meanwhile; if this process dies before
 * the attempt, a worker makes it once the lease ends.
 */
export async function sendOnce(client: Db, scope: EndpointScope, input: { eventId: string; endpointId: string; kind: 'resend' | 'test' }): Promise<ApiWebhookDelivery> {
  const now = clock.now();
  const id = newId('dlv');
  await client.webhookDelivery.create({
    data: { id, eventId: input.eventId, endpointId: input.endpointId, kind: input.kind, createdAt: now, nextAttemptAt: new Date(now.getTime() + LEASE_MS) },
  });
  const [prepared] = await prepareDeliveries([id]);
  if (prepared) await attemptDelivery(prepared, loggingStep(`webhook.${input.kind}`, id));
  return getDelivery(client, scope, id);
}
