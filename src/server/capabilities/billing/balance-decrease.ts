import type { DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { jobs } from '@/server/platform/jobs/client';
import { autoRechargeRequested } from './billing-jobs';
import { recordBalanceEvent } from '@/server/capabilities/webhooks/events';
import { balanceObject } from './balance-object';
import type { AppendedLedgerRow } from './ledger-row';

/**
 * What a ledger row that lowers the balance (a charge, an expiry) sets off in its transaction:
 * balance.low at a downward crossing of the threshold, and the auto-recharge request (paid later
 * by the auto-recharge job, auto-recharge.ts).
 */

/** balance.low without auto-recharge: below 5.00 EUR (spec). */
export const DEFAULT_LOW_BALANCE_THRESHOLD = 500;
/** After a refused payment, charges ask again only after this delay (a card is not hammered). */
export const RETRY_AFTER_REFUSAL_MS = 3600 * 1000;

export function activeSettings(org: { autoRechargeEnabled: boolean; autoRechargeThreshold: number | null; autoRechargeAmount: number | null }) {
  if (!org.autoRechargeEnabled || org.autoRechargeThreshold === null || org.autoRechargeAmount === null) return null;
  return { threshold: org.autoRechargeThreshold, amount: org.autoRechargeAmount };
}

/**
 * In the transaction of a ledger row that lowered the balance (a charge or an expiry):
 * balance.low at a downward crossing of the threshold, and for a charge that leaves the balance
 * below the auto-recharge threshold, a recharge request.
 */
export async function afterBalanceDecrease(tx: DbTx, row: AppendedLedgerRow): Promise<void> {
  const org = await tx.organization.findUniqueOrThrow({
    where: { id: row.organizationId },
    select: { autoRechargeEnabled: true, autoRechargeThreshold: true, autoRechargeAmount: true, autoRechargePendingId: true },
  });
  const settings = activeSettings(org);
  const threshold = settings?.threshold ?? DEFAULT_LOW_BALANCE_THRESHOLD;
  const before = row.balanceAfter - row.amount;
  if (before >= threshold && row.balanceAfter < threshold) {
    await recordBalanceEvent(tx, row.organizationId, 'balance.low', { ...balanceObject(row.balanceAfter), low_balance_threshold: threshold });
  }
  if (row.type === 'charge' && settings && row.balanceAfter < settings.threshold && org.autoRechargePendingId === null) {
    await requestAutoRecharge(tx, row.organizationId, settings.amount);
  }
}

async function requestAutoRecharge(tx: DbTx, organizationId: string, amount: number): Promise<void> {
  const now = clock.now();
  const last = await tx.autoRechargeAttempt.findFirst({ where: { organizationId }, orderBy: { createdAt: 'desc' }, select: { status: true, completedAt: true } });
  if (last?.status === 'failed' && last.completedAt && now.getTime() - last.completedAt.getTime() < RETRY_AFTER_REFUSAL_MS) return;
  const id = newId('rch');
  // One attempt at a time: the pointer is taken under the organization's row lock.
  const claimed = await tx.organization.updateMany({ where: { id: organizationId, autoRechargePendingId: null }, data: { autoRechargePendingId: id } });
  if (claimed.count === 0) return;
  await tx.autoRechargeAttempt.create({ data: { id, organizationId, amount, createdAt: now } });
  // The run exists only if the charge commits (the provider writes it in this transaction or
  // sends it when the transaction has ended); if it is lost, the row stays pending and the
  // sweeper triggers it again.
  await jobs().trigger(autoRechargeRequested(id), { tx });
}
