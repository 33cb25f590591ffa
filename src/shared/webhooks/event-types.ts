import type { Mode } from '@/generated/prisma/enums';

export const GENERATION_EVENT_TYPES = ['generation.succeeded', 'generation.failed', 'generation.canceled'] as const;
/** Balance events are always live mode (spec). */
export const BALANCE_EVENT_TYPES = ['balance.low', 'balance.recharge_failed', 'balance.expiring'] as const;

export type WebhookEventType = (typeof GENERATION_EVENT_TYPES)[number] | (typeof BALANCE_EVENT_TYPES)[number];

/** The types an endpoint of this mode can follow (and follows by default). */
export function eventTypesForMode(mode: Mode): WebhookEventType[] {
  return mode === 'live' ? [...GENERATION_EVENT_TYPES, ...BALANCE_EVENT_TYPES] : [...GENERATION_EVENT_TYPES];
}
