import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId, randomBase62 } from '@/server/platform/ids';
import { invalidParam } from '@/server/platform/errors';
import { IMAGE_RETENTION_MS } from '@/server/capabilities/generation-object/serialize';
import type { ApiWebhookDelivery } from './delivery-log';
import { findEndpoint, type EndpointScope } from './endpoints';
import { requireActive, sendOnce } from './send-once';

/** A sample data.object for a type: fictitious ids, no image. */
export function sampleObject(type: string, livemode: boolean, nowSeconds: number): Prisma.InputJsonObject {
  if (type.startsWith('balance.')) {
    const balance = { object: 'balance', amount: 420, currency: 'eur', unit: 'cents' };
    if (type === 'balance.low') return { ...balance, low_balance_threshold: 500 };
    if (type === 'balance.recharge_failed') return { ...balance, failed_recharge: { amount: 5000, auto_recharge_enabled: false } };
    return { ...balance, expiring: { amount: 420, expires_at: nowSeconds + 20 * 24 * 3600 } };
  }
  const status = type === 'generation.succeeded' ? 'succeeded' : type === 'generation.failed' ? 'failed' : 'canceled';
  const createdAt = nowSeconds - 12;
  return {
    object: 'generation',
    id: `gen_test${randomBase62(20)}`,
    type: 'render',
    status,
    progress: status === 'succeeded' ? 1 : null,
    cancelable: false,
    livemode,
    created_at: createdAt,
    completed_at: status === 'succeeded' || status === 'failed' ? nowSeconds : null,
    input: { style: 'scandinavian', room_type: 'living_room' },
    output: [],
    error: status === 'failed' ? { code: 'image_unreadable', message: 'Sample failure (test event).' } : null,
    cost: { amount: 20, currency: 'eur', unit: 'cents', discount_percent: 0, amount_refunded: status === 'succeeded' ? 0 : 20 },
    metadata: { sample: 'true' },
    expires_at: nowSeconds + IMAGE_RETENTION_MS / 1000,
  };
}

/** "Send a test": a sample event of a type the endpoint follows, sent once now, never retried. */
export async function sendTestEvent(client: Db, scope: EndpointScope, endpointId: string, type: string): Promise<ApiWebhookDelivery> {
  const endpoint = await findEndpoint(client, scope, endpointId);
  requireActive(endpoint);
  if (!endpoint.eventTypes.includes(type)) {
    throw invalidParam('type', `The endpoint does not follow '${type}'. It follows: ${endpoint.eventTypes.join(', ')}.`);
  }
  const eventId = newId('evt');
  await client.webhookEvent.create({
    data: {
      id: eventId,
      organizationId: endpoint.organizationId,
      mode: endpoint.mode,
      type,
      payload: sampleObject(type, endpoint.mode === 'live', clock.nowSeconds()),
      createdAt: clock.now(),
    },
  });
  return sendOnce(client, scope, { eventId, endpointId, kind: 'test' });
}
