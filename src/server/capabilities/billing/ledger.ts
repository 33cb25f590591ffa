import type { DbTx, Tx } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import type { BalanceTransactionType } from '@/generated/prisma/enums';
import { applyLedgerEffects } from './ledger-effects';

/**
 * The append-only balance ledger. The cached Organization.balanceCents changes only here, in
 * the same database transaction as the ledger row, so sum(ledger) = balance always holds; the
 * row's other effects (credit lots, low-balance event, auto-recharge) follow in that transaction.
 * Every function that writes takes a `Tx` (made by `transaction()`), so none can run outside one.
 */
export interface LedgerEntry {
  organizationId: string;
  type: BalanceTransactionType;
  /** Signed cents: positive adds to the balance. */
  amount: number;
  description: string;
  generationId?: string | null;
  expiresAt?: Date | null;
}

export async function appendLedgerEntry(tx: Tx, entry: LedgerEntry): Promise<{ id: string; balanceAfter: number }> {
  if (!Number.isInteger(entry.amount)) throw new Error('ledger amounts are integer cents');
  // The UPDATE takes the organization's row lock, which serialises concurrent entries.
  const rows = await tx.$queryRaw<{ balanceCents: number }[]>`
    update "Organization" set "balanceCents" = "balanceCents" + ${entry.amount}
    where id = ${entry.organizationId}
    returning "balanceCents"`;
  const row = rows[0];
  if (!row) throw new Error(`organization ${entry.organizationId} not found`);
  const id = newId('btx');
  const created = await tx.balanceTransaction.create({
    data: {
      id,
      organizationId: entry.organizationId,
      type: entry.type,
      amount: entry.amount,
      balanceAfter: row.balanceCents,
      generationId: entry.generationId ?? null,
      description: entry.description,
      expiresAt: entry.expiresAt ?? null,
      createdAt: clock.now(),
    },
  });
  await applyLedgerEffects(tx, created);
  return { id, balanceAfter: row.balanceCents };
}

/**
 * Charge `amount` cents if the balance covers it; otherwise 402 insufficient_balance and no row.
 * The conditional UPDATE makes check-and-debit one atomic step.
 */
export async function chargeBalance(
  tx: Tx,
  organizationId: string,
  amount: number,
  generationId: string,
  description: string,
): Promise<{ id: string; balanceAfter: number }> {
  const rows = await tx.$queryRaw<{ balanceCents: number }[]>`
    update "Organization" set "balanceCents" = "balanceCents" - ${amount}
    where id = ${organizationId} and "balanceCents" >= ${amount}
    returning "balanceCents"`;
  const row = rows[0];
  if (!row) {
    throw new DomainError('insufficient_balance', 'Your balance does not cover this generation. Add credit in the console.');
  }
  const id = newId('btx');
  const created = await tx.balanceTransaction.create({
    data: {
      id,
      organizationId,
      type: 'charge',
      amount: -amount,
      balanceAfter: row.balanceCents,
      generationId,
      description,
      createdAt: clock.now(),
    },
  });
  await applyLedgerEffects(tx, created);
  return { id, balanceAfter: row.balanceCents };
}

/** Grant credit (CLI `credit grant`, the initial credit of a new organization): a lot that expires at `expiresAt`, or never. */
export async function grantCredit(tx: Tx, organizationId: string, amount: number, description = 'Credit granted', expiresAt: Date | null = null) {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error('credit amount must be a positive integer (cents)');
  return appendLedgerEntry(tx, { organizationId, type: 'credit', amount, description, expiresAt });
}

/** Sum of the ledger, for the invariant check (must equal the cached balance). */
export async function ledgerSum(tx: DbTx, organizationId: string): Promise<number> {
  const result = await tx.balanceTransaction.aggregate({ where: { organizationId }, _sum: { amount: true } });
  return result._sum.amount ?? 0;
}
