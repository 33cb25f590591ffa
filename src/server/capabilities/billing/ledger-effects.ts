import type { DbTx } from '@/server/platform/db';
import { consumeLots, openLot, restoreLots } from './lots';
import { afterBalanceDecrease } from './balance-decrease';
import { checkSpendAlerts } from './spend-alerts';
import type { AppendedLedgerRow } from './ledger-row';

/**
 * What a ledger row changes besides the balance, in its transaction: the credit lots, and on a
 * decrease the low-balance event, the auto-recharge request and the spend alerts it reaches. (An expiry row's lot is settled
 * by the expiry job itself.)
 */
export async function applyLedgerEffects(tx: DbTx, row: AppendedLedgerRow): Promise<void> {
  if (row.type === 'credit' || row.type === 'recharge') {
    await openLot(tx, { organizationId: row.organizationId, transactionId: row.id, amount: row.amount, expiresAt: row.expiresAt });
  } else if (row.type === 'charge') {
    await consumeLots(tx, row.organizationId, row.id, -row.amount);
  } else if (row.type === 'refund') {
    await restoreLots(tx, row);
  }
  if (row.amount < 0) {
    await afterBalanceDecrease(tx, row);
    await checkSpendAlerts(tx, row);
  }
}
