import { db, sql, sqlTimestamp } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { monthlyLimitCents, monthlySpendCents } from '@/server/billing/monthly-spend';
import { errorGroups, type ErrorGroupView } from '@/server/requestlog/search-request-log';
import type { Scope } from '@/server/generations/generations';
import type { GenerationStatus } from '@/generated/prisma/enums';
import { utcDayStart } from './usage';

/** The console's first screen: money, today's generations, and what has been failing lately. */
export interface OverviewView {
  balance_cents: number;
  month_spend_cents: number;
  monthly_limit_cents: number;
  generations_today: Record<GenerationStatus, number>;
  /** Error groups of the last 7 days (code + route), newest first. */
  recent_errors: ErrorGroupView[];
}

const ERROR_WINDOW_MS = 7 * 86_400_000;

export async function overview(scope: Scope): Promise<OverviewView> {
  const org = await db().organization.findUniqueOrThrow({ where: { id: scope.organizationId } });
  const now = clock.now();
  const [spend, today, errors] = await Promise.all([
    monthlySpendCents(db(), scope.organizationId),
    sql<{ status: GenerationStatus; count: bigint }>(
      `select status::text as status, count(*) as count from "Generation" where "organizationId" = $1 and mode = $2::"Mode" and "createdAt" >= $3 group by 1`,
      [scope.organizationId, scope.mode, sqlTimestamp(utcDayStart(now))],
    ),
    errorGroups(scope, new Date(now.getTime() - ERROR_WINDOW_MS)),
  ]);
  const generationsToday: Record<GenerationStatus, number> = { in_progress: 0, succeeded: 0, failed: 0, canceled: 0 };
  for (const row of today) generationsToday[row.status] = Number(row.count);
  return {
    balance_cents: org.balanceCents,
    month_spend_cents: spend,
    monthly_limit_cents: monthlyLimitCents(org, org.tier),
    generations_today: generationsToday,
    recent_errors: errors,
  };
}
