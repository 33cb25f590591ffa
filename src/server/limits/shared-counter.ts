/**
 * Request-rate counters in PostgreSQL (RATE_LIMIT_STORE=postgres): exact across every
 * instance on one database. One row per limiter and subject holds the window (opened by the
 * first request, database clock, restarting from zero after a minute). Hits are sent in
 * batches, one statement per event-loop turn: the hits of a turn are grouped by subject and
 * one atomic `INSERT … ON CONFLICT DO UPDATE` counts each group and returns the count before
 * it, from which each hit's decision follows in order. Refused hits are not counted.
 */
import { sql } from '@/server/platform/db';
import type { LimiterName, RateDecision } from './rate-decision';

const WINDOW_MS = 60_000;

const UPSERT = `
with now_ms as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as t),
input as (select * from unnest($1::text[], $2::int[], $3::int[]) as i(subject, n, lim))
insert into "RateLimitCounter" as c ("subject", "windowStartMs", "base", "count", "batch", "limitValue")
select i.subject, now_ms.t, 0, least(i.n, i.lim), i.n, i.lim from input i, now_ms
on conflict ("subject") do update set
  "windowStartMs" = case when c."windowStartMs" <= (select t from now_ms) - ${WINDOW_MS} then (select t from now_ms) else c."windowStartMs" end,
  "base" = case when c."windowStartMs" <= (select t from now_ms) - ${WINDOW_MS} then 0 else c."count" end,
  "count" = case when c."windowStartMs" <= (select t from now_ms) - ${WINDOW_MS} then least(excluded."batch", excluded."limitValue")
            else greatest(c."count", least(c."count" + excluded."batch", excluded."limitValue")) end,
  "batch" = excluded."batch",
  "limitValue" = excluded."limitValue"
returning "subject", "windowStartMs", "base", (select t from now_ms) as "nowMs"`;

interface Row {
  subject: string;
  windowStartMs: bigint;
  base: number;
  nowMs: bigint;
}

interface Pending {
  limit: number;
  resolve: (decision: RateDecision) => void;
  reject: (error: unknown) => void;
}

let queued = new Map<string, Pending[]>();

async function flush(): Promise<void> {
  const batch = queued;
  queued = new Map();
  const subjects = [...batch.keys()];
  const counts = subjects.map((s) => batch.get(s)!.length);
  // Hits of one subject in one turn share a limit (the IP limit, or the organization's tier).
  const limits = subjects.map((s) => Math.max(...batch.get(s)!.map((p) => p.limit)));
  let rows: Row[];
  try {
    rows = await sql<Row>(UPSERT, [subjects, counts, limits]);
  } catch (error) {
    for (const hits of batch.values()) for (const hit of hits) hit.reject(error);
    return;
  }
  for (const row of rows) {
    const hits = batch.get(row.subject)!;
    const limit = limits[subjects.indexOf(row.subject)]!;
    const resetSeconds = Math.max(1, Math.ceil((Number(row.windowStartMs) + WINDOW_MS - Number(row.nowMs)) / 1000));
    hits.forEach((hit, i) => {
      const counted = row.base + i + 1;
      hit.resolve(counted <= limit ? { allowed: true, limit, remaining: limit - counted, resetSeconds } : { allowed: false, limit, remaining: 0, resetSeconds });
    });
  }
}

export function hitShared(limiter: LimiterName, key: string, limit: number): Promise<RateDecision> {
  return new Promise((resolve, reject) => {
    const subject = `${limiter}:${key}`;
    if (queued.size === 0) setImmediate(() => void flush());
    const hits = queued.get(subject);
    if (hits) hits.push({ limit, resolve, reject });
    else queued.set(subject, [{ limit, resolve, reject }]);
  });
}

/** Retention: windows closed for a minute are of no use (run by the retention job). */
export async function deleteClosedWindows(): Promise<number> {
  const rows = await sql<{ n: bigint }>(
    `with gone as (delete from "RateLimitCounter" where "windowStartMs" < (extract(epoch from clock_timestamp()) * 1000)::bigint - ${2 * WINDOW_MS} returning 1) select count(*) as n from gone`,
    [],
  );
  return Number(rows[0]?.n ?? 0);
}
