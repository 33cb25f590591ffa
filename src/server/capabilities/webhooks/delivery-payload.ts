import type { DbTx } from '@/server/platform/db';
import { notFound } from '@/server/platform/errors';
import { endpointWhere, type EndpointScope } from './endpoints';
import { renderEventBodies } from './event-body';

/**
 * The body a delivery sends, for the console's attempt panel: the event as the next attempt
 * would send it (a generation event reads the generation again, so its output URLs are fresh
 * ones, not the ones an earlier attempt carried). Null once the generation is gone (retention).
 */
export async function deliveryPayload(tx: DbTx, scope: EndpointScope, deliveryId: string): Promise<{ payload: string | null }> {
  const row = await tx.webhookDelivery.findFirst({ where: { id: deliveryId, endpoint: endpointWhere(scope) }, include: { event: true } });
  if (!row) throw notFound(`No webhook delivery ${deliveryId}.`, 'delivery');
  const { event } = row;
  const bodies = await renderEventBodies([{ id: event.id, type: event.type, mode: event.mode, createdAt: event.createdAt, generationId: event.generationId, payload: event.payload }]);
  const body = bodies.get(event.id) ?? null;
  return { payload: body === null ? null : JSON.stringify(JSON.parse(body), null, 2) };
}
