import { sql, sqlTimestamp } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import type { Scope } from '@/server/capabilities/generations/generations';
import type { GenerationStatus, GenerationType } from '@/generated/prisma/enums';

/**
 * Usage per UTC day over the last 7, 30 or 90 days (today included): generations by type and
 * by status, and spend (cost net of refunds). In test mode nothing is charged: spend is what the
 * same generations would have cost (`charged: false`).
 */
export interface UsageDay {
  date: string;
  by_type: Record<GenerationType, number>;
  by_status: Record<GenerationStatus, number>;
  total: number;
  spend_cents: number;
}

export interface UsageView {
  days: UsageDay[];
  totals: { generations: number; spend_cents: number; by_type: Record<GenerationType, number>; by_status: Record<GenerationStatus, number> };
  charged: boolean;
}

const TYPES: GenerationType[] = ['render', 'edit', 'decoration', 'upscale'];
const STATUSES: GenerationStatus[] = ['in_progress', 'succeeded', 'failed', 'canceled'];

const zeroTypes = () => Object.fromEntries(TYPES.map((t) => [t, 0])) as Record<GenerationType, number>;
const zeroStatuses = () => Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<GenerationStatus, number>;

export function utcDayStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export async function usageByDay(scope: Scope, dayCount: 7 | 30 | 90): Promise<UsageView> {
  const today = utcDayStart(clock.now());
  const from = new Date(today.getTime() - (dayCount - 1) * 86_400_000);
  const rows = await sql<{ day: string; type: GenerationType; status: GenerationStatus; count: bigint; spend: bigint }>(
    `select to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD') as day, type::text as type, status::text as status,
       count(*) as count, sum("costAmount" - "amountRefunded") as spend
     from "Generation" where "organizationId" = $1 and mode = $2::"Mode" and "createdAt" >= $3
     group by 1, 2, 3`,
    [scope.organizationId, scope.mode, sqlTimestamp(from)],
  );
  const days = new Map<string, UsageDay>();
  for (let i = 0; i < dayCount; i++) {
    const date = new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    days.set(date, { date, by_type: zeroTypes(), by_status: zeroStatuses(), total: 0, spend_cents: 0 });
  }
  const totals = { generations: 0, spend_cents: 0, by_type: zeroTypes(), by_status: zeroStatuses() };
  for (const row of rows) {
    const day = days.get(row.day);
    if (!day) continue;
    const count = Number(row.count);
    const spend = Number(row.spend);
    day.by_type[row.type] += count;
    day.by_status[row.status] += count;
    day.total += count;
    day.spend_cents += spend;
    totals.by_type[row.type] += count;
    totals.by_status[row.status] += count;
    totals.generations += count;
    totals.spend_cents += spend;
  }
  return { days: [...days.values()], totals, charged: scope.mode === 'live' };
}
