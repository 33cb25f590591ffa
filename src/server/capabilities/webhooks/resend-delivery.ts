import type { Db } from '@/server/platform/db';
import { notFound } from '@/server/platform/errors';
import type { ApiWebhookDelivery } from './delivery-log';
import { endpointWhere, type EndpointScope } from './endpoints';
import { requireActive, sendOnce } from './send-once';

/** Replays one delivery once, same event (same webhook-id), to its endpoint, which must be active. */
export async function resendDelivery(client: Db, scope: EndpointScope, deliveryId: string): Promise<ApiWebhookDelivery> {
  const original = await client.webhookDelivery.findFirst({
    where: { id: deliveryId, endpoint: endpointWhere(scope) },
    select: { eventId: true, endpoint: { select: { id: true, status: true } } },
  });
  if (!original) throw notFound(`No webhook delivery ${deliveryId}.`, 'delivery');
  requireActive(original.endpoint);
  return sendOnce(client, scope, { eventId: original.eventId, endpointId: original.endpoint.id, kind: 'resend' });
}
