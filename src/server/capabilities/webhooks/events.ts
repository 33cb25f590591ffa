import type { DbTx } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import type { Generation } from '@/generated/prisma/client';
import type { Mode } from '@/generated/prisma/enums';
import { notifyEventStreams, streamFollows } from './event-stream';

/** NOTIFY channel that wakes the delivery workers when deliveries are due now. */
export const DELIVERIES_DUE_CHANNEL = 'roomtone_webhook_deliveries';

/**
 * Wake the delivery workers when the transaction commits (PostgreSQL sends a NOTIFY only
 * then, once per transaction for the same payload): they send at once instead of at their
 * next poll. Call it in the transaction that creates due deliveries.
 */
export async function announceDueDeliveries(tx: DbTx): Promise<void> {
  await tx.$executeRaw`select pg_notify(${DELIVERIES_DUE_CHANNEL}, '')`;
}

export type GenerationEventType = 'generation.succeeded' | 'generation.failed' | 'generation.canceled';

/**
 * Record a generation event in the same transaction as the state change that causes it, with
 * one pending delivery per active endpoint of the generation's mode that follows the type.
 * Per the spec, an event no active endpoint follows is not produced at all.
 */
export async function recordGenerationEvent(
  tx: DbTx,
  generation: Pick<Generation, 'id' | 'organizationId' | 'mode'>,
  type: GenerationEventType,
): Promise<string | null> {
  return recordEvent(tx, { organizationId: generation.organizationId, mode: generation.mode, type, generationId: generation.id });
}

/**
 * The event and one pending delivery per active endpoint of its mode that follows its type;
 * null when no endpoint and no open event stream (test mode) follows it.
 */
async function recordEvent(
  tx: DbTx,
  event: { organizationId: string; mode: Mode; type: string; generationId?: string; payload?: object },
): Promise<string | null> {
  return (await recordFollowedEvent(tx, event)).eventId;
}

/** A test-mode event with a sample object (`roomtone-sdk trigger`), and who follows it. */
export async function recordTestModeEvent(tx: DbTx, organizationId: string, type: string, payload: object): Promise<{ eventId: string | null; endpoints: number; streamed: boolean }> {
  return recordFollowedEvent(tx, { organizationId, mode: 'test', type, payload });
}

async function recordFollowedEvent(
  tx: DbTx,
  event: { organizationId: string; mode: Mode; type: string; generationId?: string; payload?: object },
): Promise<{ eventId: string | null; endpoints: number; streamed: boolean }> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { organizationId: event.organizationId, mode: event.mode, status: 'active', eventTypes: { has: event.type } },
    select: { id: true },
  });
  const streamed = await streamFollows(tx, event.organizationId, event.mode, event.type);
  if (endpoints.length === 0 && !streamed) return { eventId: null, endpoints: 0, streamed: false };
  const eventId = newId('evt');
  const now = clock.now();
  await tx.webhookEvent.create({
    data: {
      id: eventId,
      ...event,
      createdAt: now,
      deliveries: {
        create: endpoints.map((e) => ({ id: newId('dlv'), endpointId: e.id, nextAttemptAt: now })),
      },
    },
  });
  if (endpoints.length > 0) await announceDueDeliveries(tx);
  if (streamed) await notifyEventStreams(tx, event.organizationId);
  return { eventId, endpoints: endpoints.length, streamed };
}

export type BalanceEventType = 'balance.low' | 'balance.recharge_failed' | 'balance.expiring';

/** The spec's balance object (`data.object` of balance events). Amounts in euro cents excluding tax. */
export interface BalanceObject {
  object: 'balance';
  amount: number;
  currency: 'eur';
  unit: 'cents';
  low_balance_threshold?: number;
  failed_recharge?: { amount: number; auto_recharge_enabled: boolean };
  expiring?: { amount: number; expires_at: number };
}

/**
 * Record a balance event (always live mode) in the same transaction as the ledger change that
 * causes it, with its balance object as `payload`; like generation events, it is produced only
 * when an active live endpoint follows the type.
 */
export async function recordBalanceEvent(tx: DbTx, organizationId: string, type: BalanceEventType, payload: BalanceObject): Promise<string | null> {
  return recordEvent(tx, { organizationId, mode: 'live', type, payload: payload as unknown as object });
}
