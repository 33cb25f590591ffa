import { db, transaction } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { recordBalanceEvent } from '@/server/capabilities/webhooks/events';
import { appendLedgerEntry } from './ledger';
import { balanceObject } from './balance-object';
import { EXPIRING_NOTICE_MS } from './lots';

/**
 * Expire the lots whose date has come, as of `now` (the maintenance job, every minute): the
 * unspent part leaves through an `expiry` ledger row in the lot's own transaction. With
 * `organizationId`, only that organization's lots (a run as of a later time that must leave
 * everyone else's alone, e.g. a test on a shared database).
 */
export async function expireLots(now: Date, organizationId?: string): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await db().creditLot.findMany({
      where: { expiredAt: null, expiresAt: { lte: now }, ...(organizationId === undefined ? {} : { organizationId }) },
      select: { id: true, organizationId: true },
      orderBy: { expiresAt: 'asc' },
      take: 200,
    });
    if (due.length === 0) return expired;
    for (const lot of due) {
      const done = await transaction(async (tx) => {
        // The organization's row lock first, as every ledger change takes it: no charge can
        // take from this lot between reading its remaining part and expiring it.
        await tx.$queryRaw`select id from "Organization" where id = ${lot.organizationId} for update`;
        const current = await tx.creditLot.findUniqueOrThrow({ where: { id: lot.id } });
        if (current.expiredAt) return false;
        if (current.remaining > 0) {
          await appendLedgerEntry(tx, {
            organizationId: lot.organizationId,
            type: 'expiry',
            amount: -current.remaining,
            description: `Unspent credit expired (${lot.id})`,
          });
        }
        await tx.creditLot.update({ where: { id: lot.id }, data: { remaining: 0, expiredAt: now } });
        return current.remaining > 0;
      });
      if (done) expired += 1;
    }
  }
}

/**
 * balance.expiring, once per lot whose unspent part expires within 30 days, as of `now` (the
 * maintenance job). A lot is marked even when no endpoint follows the type: per the spec an
 * event nobody follows is not produced and not caught up later.
 */
export async function noticeExpiringLots(now: Date): Promise<number> {
  let noticed = 0;
  for (;;) {
    const due = await db().creditLot.findMany({
      where: { expiredAt: null, expiringNoticeAt: null, remaining: { gt: 0 }, expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRING_NOTICE_MS) } },
      select: { id: true, organizationId: true },
      take: 200,
    });
    if (due.length === 0) return noticed;
    for (const lot of due) {
      await db().$transaction(async (tx) => {
        const [org] = await tx.$queryRaw<{ balanceCents: number }[]>`select "balanceCents" from "Organization" where id = ${lot.organizationId} for update`;
        const current = await tx.creditLot.findUniqueOrThrow({ where: { id: lot.id } });
        const marked = await tx.creditLot.updateMany({ where: { id: lot.id, expiringNoticeAt: null }, data: { expiringNoticeAt: now } });
        if (marked.count === 0 || !org || current.remaining === 0 || !current.expiresAt) return;
        await recordBalanceEvent(tx, lot.organizationId, 'balance.expiring', {
          ...balanceObject(org.balanceCents),
          expiring: { amount: current.remaining, expires_at: toUnixSeconds(current.expiresAt) },
        });
      });
      noticed += 1;
    }
  }
}

/** The maintenance part of billing: expiring notices, then expiries. */
export async function runLotMaintenance(now: Date): Promise<{ credit_lots_expired: number; expiring_notices: number }> {
  const expiringNotices = await noticeExpiringLots(now);
  const expired = await expireLots(now);
  return { credit_lots_expired: expired, expiring_notices: expiringNotices };
}
