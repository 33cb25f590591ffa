import { db } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { monthlyLimitCents, monthlySpendCents, monthStart } from '@/server/capabilities/billing/monthly-spend';

/**
 * The usage screen's month: live spend to date (charges net of refunds, the figure the monthly
 * limit counts) against the limit, and a straight-line projection to the month's end: the
 * spend so far divided by the days elapsed, today counted as a whole day, times the days in
 * the month. On the 10th of a 30-day month, 100.00 spent projects 300.00. Early in a month the
 * projection rests on few days; the screen says how it is made.
 */
export interface MonthToDateView {
  /** First day of the UTC month, YYYY-MM-DD. */
  month: string;
  spend_cents: number;
  limit_cents: number;
  projected_cents: number;
  days_elapsed: number;
  days_in_month: number;
  /** The projection reaches the limit: live generations would be refused before the month ends. */
  projected_over_limit: boolean;
  /** When the projection reaches the limit, the UTC day it would (YYYY-MM-DD); else null. */
  projected_limit_day: string | null;
  generated_at: number;
}

export function projectMonth(spendCents: number, limitCents: number, now: Date) {
  const start = monthStart(now);
  const daysInMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  const daysElapsed = now.getUTCDate();
  const perDay = spendCents / daysElapsed;
  const projected = Math.round(perDay * daysInMonth);
  let limitDay: string | null = null;
  if (spendCents >= limitCents) limitDay = now.toISOString().slice(0, 10);
  else if (projected >= limitCents && perDay > 0) {
    const day = Math.min(daysInMonth, Math.ceil(limitCents / perDay));
    limitDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), day)).toISOString().slice(0, 10);
  }
  return { month: start.toISOString().slice(0, 10), daysInMonth, daysElapsed, projected, limitDay };
}

export async function monthToDate(organizationId: string): Promise<MonthToDateView> {
  const now = clock.now();
  const org = await db().organization.findUniqueOrThrow({ where: { id: organizationId }, select: { tier: true, monthlyLimitCents: true } });
  const spend = await monthlySpendCents(db(), organizationId);
  const limit = monthlyLimitCents(org, org.tier);
  const p = projectMonth(spend, limit, now);
  return {
    month: p.month,
    spend_cents: spend,
    limit_cents: limit,
    projected_cents: p.projected,
    days_elapsed: p.daysElapsed,
    days_in_month: p.daysInMonth,
    projected_over_limit: p.projected >= limit,
    projected_limit_day: p.limitDay,
    generated_at: toUnixSeconds(now),
  };
}
