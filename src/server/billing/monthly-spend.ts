import type { DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { tierOf } from './pricing';

/**
 * The monthly spend limit's two facts, used by admission (refuse past it) and the console
 * (spend vs limit): live charges net of refunds in the current calendar month (UTC), and the
 * organization's own limit or its tier's default.
 */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function monthlySpendCents(tx: DbTx, organizationId: string): Promise<number> {
  const spent = await tx.balanceTransaction.aggregate({
    where: { organizationId, type: { in: ['charge', 'refund'] }, createdAt: { gte: monthStart(clock.now()) } },
    _sum: { amount: true },
  });
  return -(spent._sum.amount ?? 0);
}

export function monthlyLimitCents(org: { monthlyLimitCents: number | null }, tier: number): number {
  return org.monthlyLimitCents ?? tierOf(tier).monthlyLimitCents;
}
