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

/**
 * What one API key spent this calendar month (UTC): live charges net of refunds of the
 * generations created with it, the measure of its monthly spend cap (keys/fences.ts).
 */
export async function keyMonthlySpendCents(tx: DbTx, organizationId: string, apiKeyId: string): Promise<number> {
  const rows = await tx.$queryRaw<{ spent: bigint | null }[]>`
    select -sum(t.amount) as spent
    from "BalanceTransaction" t join "Generation" g on g.id = t."generationId"
    where t."organizationId" = ${organizationId} and t.type in ('charge', 'refund') and t."createdAt" >= ${monthStart(clock.now())}
      and g."organizationId" = ${organizationId} and g."apiKeyId" = ${apiKeyId}`;
  return Number(rows[0]?.spent ?? 0);
}
