import { createHash } from 'node:crypto';
import { isDatabaseUnavailable, sql, sqlTimestampOfMs } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { Mode } from '@/generated/prisma/enums';

/**
 * The request log behind the console's "Requests" screen. Entries are buffered and written in
 * batches (one INSERT per 250 ms or 200 requests) so logging never adds a round trip to the
 * request path; a crash can lose at most the last batch of log lines, never business data.
 * While the database is unreachable the lines wait in memory (up to MAX_KEPT) and are written
 * once it is back, so the console shows the requests of an outage too.
 * The INSERT is one prepared statement whatever the batch size (INSERT_BATCH).
 */
export interface RequestLogEntry {
  id: string;
  organizationId: string | null;
  apiKeyId: string | null;
  mode: Mode | null;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  /** The message of an error reply (shown in the console's log detail). */
  errorMessage?: string | null;
  durationMs: number;
  ip: string | null;
  /** Milliseconds since the epoch (a number: in a process that has loaded Next.js a Date costs several times more). */
  createdAt: number;
  /** Redacted JSON text (redact.ts): what the request asked and what it answered. */
  requestParams?: string | null;
  responseBody?: string | null;
}

const FLUSH_MS = 250;
const MAX_BATCH = 200;
/** While the database is unreachable: lines kept in memory at most, and the retry interval. */
const MAX_KEPT = 20_000;
const RETRY_MS = 2_000;
/** A stored body's lastUsedAt is moved forward when a batch uses it and it is this far behind. */
export const BODY_TOUCH_MS = 3_600_000;

const rl: { buffer: RequestLogEntry[]; timer: NodeJS.Timeout | null; flushing: Promise<void> | null; waitingForDatabase?: boolean } = { buffer: [], timer: null, flushing: null };

/**
 * A batch is three parameters: a JSON document of the lines' short fields, the logged bodies
 * (JSON text already) back to back in one bytea, which pg sends as binary, and a JSON document
 * naming each body's hash and where its bytes are. PostgreSQL copies a body out of the bytea
 * without parsing it (the column is text). Measured on a list read (20 generations, about
 * 12 kB logged): as json values inside the document, PostgreSQL parsed every body twice, a
 * quarter of its CPU per read; before that, as text[]/jsonb[] parameters, pg escaped every
 * character of them into array literals, 0.5–0.7 ms of Node CPU per logged page.
 *
 * A body is stored once per organization (RequestLogBody, keyed by its hash): a client polling
 * a page gets the same answer until something changes, and storing those 12 kB again for every
 * poll was most of PostgreSQL's work on a list read. A body a batch repeats is sent once; one
 * already stored is only located again (ON CONFLICT), and its lastUsedAt moved forward when it
 * is more than BODY_TOUCH_MS behind, so that retention (jobs/retention.ts) deletes it
 * only once no line that is kept uses it. Bodies are upserted in hash order, so two batches that
 * share bodies lock them in the same order.
 */
const INSERT_BATCH = `with body as (
    insert into "RequestLogBody" (hash, "organizationId", body, "lastUsedAt")
    select decode(hash, 'hex'), "organizationId", convert_from(substring($2::bytea from at for bytes), 'UTF8'), "lastUsedAt"
    from json_to_recordset($3::json) as b(hash text, "organizationId" text, at int, bytes int, "lastUsedAt" timestamp(3))
    order by hash
    on conflict (hash) do update set "lastUsedAt" = excluded."lastUsedAt"
      where "RequestLogBody"."lastUsedAt" < excluded."lastUsedAt" - interval '${BODY_TOUCH_MS} milliseconds'
  )
  insert into "RequestLog" (id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "durationMs", ip, "createdAt", "errorMessage", "requestParamsHash", "responseBodyHash")
  select id, "organizationId", "apiKeyId", mode, method, path, status, "errorCode", "durationMs", ip, "createdAt", "errorMessage", decode("paramsHash", 'hex'), decode("bodyHash", 'hex')
  from json_to_recordset($1::json) as line(id text, "organizationId" text, "apiKeyId" text, mode "Mode", method text, path text, status int, "errorCode" text,
    "durationMs" int, ip text, "createdAt" timestamp(3), "errorMessage" text, "paramsHash" text, "bodyHash" text)
  on conflict (id) do nothing`;

/** The key of a logged body in RequestLogBody (the migration that made the table computes the same). */
export function requestLogBodyHash(organizationId: string | null, text: string): string {
  return createHash('sha256').update(`${organizationId ?? ''}\n`).update(text).digest('hex');
}

interface BatchBody {
  hash: string;
  organizationId: string | null;
  at: number;
  bytes: number;
  /** The newest line of the batch that uses it (ms since the epoch). */
  lastUsedAt: number;
}

/** The three parameters of INSERT_BATCH for a batch. */
function batchParameters(batch: readonly RequestLogEntry[]): [string, Buffer, string] {
  const texts: string[] = [];
  let at = 1; // substring() counts from 1
  // Where each text is in the blob, and each (organization, text)'s body: a client polling a
  // page gets the same answer many times within a batch.
  const placed = new Map<string, [number, number]>();
  // A repeated answer is the same string object (redact.ts keeps the last one), whose hash V8
  // computes once: these lookups do not hash its 12 kB again.
  const bodies = new Map<string | null, Map<string, BatchBody>>();
  const body = (organizationId: string | null, text: string | null | undefined, createdAt: number): string | null => {
    if (text === null || text === undefined) return null;
    let ofOrganization = bodies.get(organizationId);
    if (!ofOrganization) bodies.set(organizationId, (ofOrganization = new Map()));
    const known = ofOrganization.get(text);
    if (known) {
      if (createdAt > known.lastUsedAt) known.lastUsedAt = createdAt;
      return known.hash;
    }
    let location = placed.get(text);
    if (!location) {
      const bytes = Buffer.byteLength(text);
      texts.push(text);
      location = [at, bytes];
      at += bytes;
      placed.set(text, location);
    }
    const stored: BatchBody = { hash: requestLogBodyHash(organizationId, text), organizationId, at: location[0], bytes: location[1], lastUsedAt: createdAt };
    ofOrganization.set(text, stored);
    return stored.hash;
  };
  const lines = batch.map((e) =>
    JSON.stringify({
      id: e.id,
      organizationId: e.organizationId,
      apiKeyId: e.apiKeyId,
      mode: e.mode,
      method: e.method,
      path: e.path,
      status: e.status,
      errorCode: e.errorCode,
      durationMs: e.durationMs,
      ip: e.ip,
      createdAt: sqlTimestampOfMs(e.createdAt),
      errorMessage: e.errorMessage ?? null,
      paramsHash: body(e.organizationId, e.requestParams, e.createdAt),
      bodyHash: body(e.organizationId, e.responseBody, e.createdAt),
    }),
  );
  const located = [...bodies.values()].flatMap((m) => [...m.values()]).map((b) => ({ ...b, lastUsedAt: sqlTimestampOfMs(b.lastUsedAt) }));
  return [`[${lines.join(',')}]`, Buffer.from(texts.join('')), JSON.stringify(located)];
}

export function recordRequest(entry: RequestLogEntry): void {
  rl.buffer.push(entry);
  if (rl.buffer.length >= MAX_BATCH && !rl.waitingForDatabase) void flushRequestLog();
  else rl.timer ??= setTimeout(() => void flushRequestLog(), FLUSH_MS);
}

/** One statement per MAX_BATCH lines (after an outage the buffer holds many batches). */
async function insertBatch(batch: readonly RequestLogEntry[]): Promise<void> {
  for (let i = 0; i < batch.length; i += MAX_BATCH) await sql(INSERT_BATCH, batchParameters(batch.slice(i, i + MAX_BATCH)));
}

export async function flushRequestLog(): Promise<void> {
  if (rl.timer) {
    clearTimeout(rl.timer);
    rl.timer = null;
  }
  if (rl.flushing) await rl.flushing;
  const batch = rl.buffer.splice(0, rl.buffer.length);
  if (batch.length === 0) return;
  rl.flushing = insertBatch(batch)
    .then(() => {
      rl.waitingForDatabase = false;
    })
    .catch((error: unknown) => {
      // The database is away (a restart, an outage): keep the lines, bounded, and try again.
      if (isDatabaseUnavailable(error) && rl.buffer.length + batch.length <= MAX_KEPT) {
        rl.buffer.unshift(...batch);
        rl.waitingForDatabase = true;
        rl.timer ??= setTimeout(() => void flushRequestLog(), RETRY_MS);
        return;
      }
      log.error('request log write failed', { error: String(error), lost: batch.length });
    })
    .finally(() => {
      rl.flushing = null;
    });
  await rl.flushing;
}
