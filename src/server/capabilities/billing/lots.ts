import type { DbTx } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';

/**
 * Credit lots. Every credit and recharge opens a lot; charges take from the lot that expires
 * first (lots without expiry last, then the oldest); a refund gives the cents back to the lots
 * its charge took them from; at expiry the unspent part leaves the balance through an `expiry`
 * ledger row (expire-lots.ts). The remaining parts of an organization's lots add up to its
 * balance. Every function here runs inside the ledger's transaction, after the organization's
 * row lock (ledger-effects.ts).
 */

const DAY_MS = 24 * 3600 * 1000;
/** balance.expiring is recorded for a lot whose unspent part expires within this window. */
export const EXPIRING_NOTICE_MS = 30 * DAY_MS;
/** Refunded cents whose lot expired meanwhile come back in a lot that lasts this long. */
export const REFUND_AFTER_EXPIRY_MS = 30 * DAY_MS;

export async function openLot(tx: DbTx, lot: { organizationId: string; transactionId: string; amount: number; expiresAt: Date | null }): Promise<string> {
  const id = newId('lot');
  await tx.creditLot.create({
    data: { id, organizationId: lot.organizationId, transactionId: lot.transactionId, amount: lot.amount, remaining: lot.amount, expiresAt: lot.expiresAt, createdAt: clock.now() },
  });
  return id;
}

/** Take `amount` cents from the organization's open lots, first-expiring first; one statement. */
export async function consumeLots(tx: DbTx, organizationId: string, chargeTransactionId: string, amount: number): Promise<void> {
  await tx.$executeRaw`
    with ordered as (
      select id, remaining,
        coalesce(sum(remaining) over (order by "expiresAt" asc nulls last, "createdAt", id rows between unbounded preceding and 1 preceding), 0) as before
      from "CreditLot"
      where "organizationId" = ${organizationId} and "expiredAt" is null and remaining > 0
    ), taken as (
      select id, least(remaining, ${amount} - before)::int as take from ordered where before < ${amount}
    ), updated as (
      update "CreditLot" l set remaining = l.remaining - t.take from taken t where l.id = t.id returning l.id
    )
    insert into "CreditLotAllocation" ("transactionId", "lotId", amount)
    select ${chargeTransactionId}, t.id, t.take from taken t join updated u on u.id = t.id`;
}

/**
 * A refund of a generation's charge: its cents go back to the lots they came from (so a
 * refund never extends a credit's life), the latest-expiring lot first. Cents whose lot has
 * expired meanwhile come back in a new lot expiring 30 days after the refund: the customer
 * never loses a refund to an expiry that happened while it was pending. Cents no lot gave (a
 * charge from before credit lots) come back without expiry, as that balance had none.
 */
export async function restoreLots(tx: DbTx, refund: { id: string; organizationId: string; generationId: string | null; amount: number }): Promise<void> {
  const now = clock.now();
  const allocations = refund.generationId
    ? await tx.$queryRaw<{ lotId: string; amount: number; open: boolean }[]>`
        select a."lotId", a.amount, (l."expiredAt" is null and (l."expiresAt" is null or l."expiresAt" > ${now})) as open
        from "CreditLotAllocation" a
        join "CreditLot" l on l.id = a."lotId"
        join "BalanceTransaction" c on c.id = a."transactionId"
        where c."generationId" = ${refund.generationId} and c.type = 'charge' and c."organizationId" = ${refund.organizationId}
        order by l."expiresAt" desc nulls first, l."createdAt" desc`
    : [];
  let left = refund.amount;
  let late = 0;
  for (const allocation of allocations) {
    if (left === 0) break;
    const give = Math.min(left, allocation.amount);
    left -= give;
    if (allocation.open) await tx.creditLot.update({ where: { id: allocation.lotId }, data: { remaining: { increment: give } } });
    else late += give;
  }
  const base = { organizationId: refund.organizationId, transactionId: refund.id };
  if (late > 0) await openLot(tx, { ...base, amount: late, expiresAt: new Date(now.getTime() + REFUND_AFTER_EXPIRY_MS) });
  if (left > 0) await openLot(tx, { ...base, amount: left, expiresAt: null });
}

/** When a recharge's unspent part expires (RECHARGE_EXPIRY_MONTHS after it; 0 = never). */
export function rechargeExpiry(now: Date): Date | null {
  const months = config().RECHARGE_EXPIRY_MONTHS;
  if (months === 0) return null;
  const expires = new Date(now);
  expires.setUTCMonth(expires.getUTCMonth() + months);
  return expires;
}
