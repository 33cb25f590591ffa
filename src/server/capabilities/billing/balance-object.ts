import type { BalanceObject } from '@/server/capabilities/webhooks/events';

/** The spec's balance object for a balance of `amount` cents; events add their own field. */
export function balanceObject(amount: number): BalanceObject {
  return { object: 'balance', amount, currency: 'eur', unit: 'cents' };
}
