/**
 * Request-rate windows in PostgreSQL (RATE_LIMIT_STORE=postgres), shared by every instance on
 * one database. One row per limiter and subject holds the window (opened by the first lease,
 * database clock, restarting from zero after a minute) and how many hits it has granted.
 * Instances lease slices of the allowance (leased-limiter.ts): the lease requests of one
 * event-loop turn go in one statement, an atomic `INSERT … ON CONFLICT DO UPDATE` that grants
 * each subject `allowanceSlice` (computed here in SQL: at most what is wanted, what is left,
 * 1 % of the limit, MAX_SLICE and a quarter of what is left, at least 1) and returns the new
 * total. Rows are locked in
 * subject order, so two instances' statements never deadlock.
 */
import { sql } from '@/server/platform/db';
import { MAX_SLICE, type Lease, type LeaseRequest } from './fixed-window';

const WINDOW_MS = 60_000;

/** allowanceSlice(want, granted, limit) in SQL. */
const slice = (want: string, granted: string, limit: string) =>
  `case when ${limit} - ${granted} <= 0 then 0 else least(greatest(1, ${want}), ${limit} - ${granted}, ${MAX_SLICE}, greatest(1, ${limit} / 100), greatest(1, ceil((${limit} - ${granted}) / 4.0)::int)) end`;

const LEASE = `
with now_ms as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as t),
input as (select * from unnest($1::text[], $2::int[], $3::int[]) as i(subject, want, lim) order by subject)
insert into "RateLimitCounter" as c ("subject", "windowStartMs", "base", "count", "batch", "limitValue")
select i.subject, now_ms.t, 0, ${slice('i.want', '0', 'i.lim')}, i.want, i.lim from input i, now_ms
order by i.subject
on conflict ("subject") do update set
  "windowStartMs" = case when c."windowStartMs" <= (select t from now_ms) - ${WINDOW_MS} then (select t from now_ms) else c."windowStartMs" end,
  "base" = case when c."windowStartMs" <= (select t from now_ms) - ${WINDOW_MS} then 0 else c."count" end,
  "count" = case when c."windowStartMs" <= (select t from now_ms) - ${WINDOW_MS} then ${slice('excluded."batch"', '0', 'excluded."limitValue"')}
            else c."count" + ${slice('excluded."batch"', 'c."count"', 'excluded."limitValue"')} end,
  "batch" = excluded."batch",
  "limitValue" = excluded."limitValue"
returning "subject", "windowStartMs", "base", "count", (select t from now_ms) as "nowMs"`;

interface Row {
  subject: string;
  windowStartMs: bigint;
  base: number;
  count: number;
  nowMs: bigint;
}

/** One statement for a batch of lease requests (one per subject: the limiter asks once per turn). */
export async function leaseShared(requests: LeaseRequest[]): Promise<Lease[]> {
  // The same subject twice in one INSERT … ON CONFLICT would be refused: merge them.
  const wants = new Map<string, { want: number; limit: number }>();
  for (const r of requests) {
    const subject = `${r.limiter}:${r.key}`;
    const seen = wants.get(subject);
    wants.set(subject, { want: (seen?.want ?? 0) + r.want, limit: Math.max(seen?.limit ?? 0, r.limit) });
  }
  const subjects = [...wants.keys()];
  const rows = await sql<Row>(LEASE, [subjects, subjects.map((s) => wants.get(s)!.want), subjects.map((s) => wants.get(s)!.limit)]);
  const bySubject = new Map(rows.map((row) => [row.subject, row]));
  const handedOut = new Map<string, number>();
  return requests.map((r) => {
    const subject = `${r.limiter}:${r.key}`;
    const row = bySubject.get(subject);
    if (!row) throw new Error(`no rate-limit row returned for ${subject}`);
    // Merged requests share the subject's grant in order.
    const given = handedOut.get(subject) ?? 0;
    const granted = Math.max(0, Math.min(r.want, row.count - row.base - given));
    handedOut.set(subject, given + granted);
    return { granted, total: row.count, endsInMs: Number(row.windowStartMs) + WINDOW_MS - Number(row.nowMs), windowStartMs: Number(row.windowStartMs) };
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
