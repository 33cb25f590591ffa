import { db, sql } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import type { Step } from '@/server/platform/jobs/steps';
import { OutboundError, safeRequest, UnsafeUrlError } from '@/server/capabilities/net/safe-http';
import { decryptSecret } from './signing-secret';
import { signatureHeader } from './sign';
import { renderEventBodies, type EventSource } from './event-body';
import { nextAttemptAt, RETRY_WINDOW_MS } from './retry-schedule';
import { retryAfterMs } from '@/server/capabilities/net/retry-after';
import { disableEndpointTx, mailEndpointDisabled, type DisabledReason } from './endpoint-status';

/** Spec: the receiver answers 2xx within 10 seconds. */
export const ANSWER_TIMEOUT_MS = 10_000;

export interface AttemptOptions {
  /** How long the receiver has to answer; the spec's 10 s unless a test shortens it. */
  answerTimeoutMs?: number;
}
/**
 * A claimed delivery is hidden from other workers this long; a worker that dies mid-attempt
 * leaves it to be claimed again after this (at-least-once: the receiver may see it twice).
 */
export const LEASE_MS = 30_000;
/** The log keeps the first KB of the answer. */
export const LOGGED_RESPONSE_BYTES = 1024;
export const USER_AGENT = 'Roomtone-Webhooks/1.0';

interface DeliveryRow {
  id: string;
  endpointId: string;
  attempts: number;
  kind: string;
  status: string;
  eventId: string;
  type: string;
  mode: 'test' | 'live';
  eventCreatedAt: Date;
  generationId: string | null;
  payload: unknown;
  url: string;
  endpointStatus: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
}

/** One delivery ready to send: its body rendered for this attempt (null: object gone). */
export interface PreparedDelivery {
  row: DeliveryRow;
  body: string | null;
}

export interface AttemptResult {
  deliveryId: string;
  number: number;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  /** Final status of the delivery after this attempt. */
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'skipped';
  nextAttemptAt: Date | null;
  disabled: DisabledReason | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Due deliveries looked at per claim (the oldest first, endpoints at their cap left out). */
const CLAIM_CANDIDATES = 500;

/**
 * Claim due deliveries for this worker: at most `limit`, and per endpoint at most its room
 * (`perEndpoint` minus what this worker already has in flight there), so a slow endpoint's
 * backlog never fills the pool. Only the oldest due rows of endpoints that still have room are
 * ranked (an index range, not the whole backlog), so a claim stays cheap however long the
 * queue; an endpoint whose slots are full is skipped outright, so its backlog cannot hide other
 * endpoints' deliveries. Claiming moves nextAttemptAt to the end of a lease; the attempt's
 * outcome sets it properly. SKIP LOCKED lets several workers claim side by side.
 */
export async function claimDueDeliveries(input: {
  now: Date;
  limit: number;
  perEndpoint: number;
  inFlight: ReadonlyMap<string, number>;
  /** Only deliveries never attempted (the Inngest dispatcher: later attempts are the function's). */
  firstAttemptOnly?: boolean;
  leaseMs?: number;
}): Promise<string[]> {
  if (input.limit <= 0) return [];
  const busy = [...input.inFlight.entries()].filter(([, n]) => n > 0);
  const full = busy.filter(([, n]) => n >= input.perEndpoint).map(([id]) => id);
  const rows = await sql<{ id: string }>(
    `with room as (select * from unnest($4::text[], $5::int[]) as r(endpoint_id, used)),
     candidates as (
       select d.id, d."endpointId", d."nextAttemptAt" from "WebhookDelivery" d
       where d.status = 'pending' and d."nextAttemptAt" <= $1::timestamp and d."endpointId" <> all($7::text[])
         and ($9::boolean is false or d.attempts = 0)
       order by d."nextAttemptAt" limit $8
     ),
     ranked as (
       select c.id, c."nextAttemptAt" as due,
              row_number() over (partition by c."endpointId" order by c."nextAttemptAt") as rn,
              $3::int - coalesce(room.used, 0) as allowed
       from candidates c left join room on room.endpoint_id = c."endpointId"
     ),
     picked as (
       select d.id from "WebhookDelivery" d join ranked r on r.id = d.id
       where r.rn <= r.allowed and d.status = 'pending' and d."nextAttemptAt" <= $1::timestamp
       order by r.due limit $2 for update of d skip locked
     )
     update "WebhookDelivery" d set "nextAttemptAt" = $6::timestamp from picked where d.id = picked.id returning d.id`,
    [
      input.now.toISOString(), input.limit, input.perEndpoint, busy.map(([id]) => id), busy.map(([, n]) => n),
      new Date(input.now.getTime() + (input.leaseMs ?? LEASE_MS)).toISOString(), full, CLAIM_CANDIDATES, input.firstAttemptOnly === true,
    ],
  );
  return rows.map((r) => r.id);
}

/** Load a claimed batch and render each body once (generations read again, in one pass). */
export async function prepareDeliveries(ids: readonly string[]): Promise<PreparedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await sql<DeliveryRow>(
    `select d.id, d."endpointId", d.attempts, d.kind, d.status::text as status,
            e.id as "eventId", e.type, e.mode::text as mode, e."createdAt" as "eventCreatedAt", e."generationId", e.payload,
            w.url, w.status::text as "endpointStatus", w."secretEncrypted", w."previousSecretEncrypted", w."previousSecretExpiresAt", w."failingSince"
     from "WebhookDelivery" d join "WebhookEvent" e on e.id = d."eventId" join "WebhookEndpoint" w on w.id = d."endpointId"
     where d.id = any($1::text[])`,
    [ids],
  );
  const events = new Map<string, EventSource>();
  for (const r of rows) {
    events.set(r.eventId, { id: r.eventId, type: r.type, mode: r.mode, createdAt: r.eventCreatedAt, generationId: r.generationId, payload: r.payload });
  }
  const bodies = await renderEventBodies([...events.values()]);
  return rows.map((row) => ({ row, body: bodies.get(row.eventId) ?? null }));
}

function describeError(error: unknown): string {
  if (error instanceof UnsafeUrlError) return `refused: ${error.message}`;
  if (error instanceof OutboundError) return `${error.kind}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** The secrets that sign now: the current one, and the previous one during a rotation's 24 h. */
function signingSecrets(row: DeliveryRow, nowMs: number): string[] {
  const secrets = [decryptSecret(row.endpointId, row.secretEncrypted)];
  if (row.previousSecretEncrypted && row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > nowMs) {
    secrets.push(decryptSecret(row.endpointId, row.previousSecretEncrypted));
  }
  return secrets;
}

async function cancel(row: DeliveryRow, reason: string): Promise<void> {
  await sql(`update "WebhookDelivery" set status = 'canceled', "nextAttemptAt" = null, "lastError" = $2 where id = $1 and status = 'pending'`, [row.id, reason]);
}

/**
 * One attempt of one claimed delivery, as named idempotent steps: send (POST through the
 * SSRF-safe client: address checked now, connection pinned, redirects not followed), record
 * (log row + the delivery's next state, conditional on the attempt count it was claimed at,
 * so a worker whose lease ran out cannot advance it twice), then the endpoint's health.
 */
export async function attemptDelivery(prepared: PreparedDelivery, step: Step, options: AttemptOptions = {}): Promise<AttemptResult> {
  const { row } = prepared;
  const number = row.attempts + 1;
  const base = { deliveryId: row.id, number, statusCode: null, nextAttemptAt: null, disabled: null };
  if (row.status !== 'pending') return { ...base, succeeded: false, error: null, status: 'skipped' };
  if (row.endpointStatus !== 'active') {
    await step.run('cancel', () => cancel(row, 'endpoint disabled'));
    return { ...base, succeeded: false, error: 'endpoint disabled', status: 'canceled' };
  }

  const sent = await step.run('send', async () => {
    const startedAt = clock.now();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': row.eventId,
      'webhook-timestamp': String(timestamp),
    };
    const t0 = performance.now();
    let statusCode: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    let retryAfter: string | undefined;
    if (prepared.body === null) {
      error = 'The event object no longer exists (deleted by retention); nothing was sent.';
    } else {
      headers['webhook-signature'] = signatureHeader(signingSecrets(row, startedAt.getTime()), row.eventId, timestamp, prepared.body);
      try {
        const res = await safeRequest(row.url, {
          method: 'POST',
          headers,
          body: prepared.body,
          timeoutMs: options.answerTimeoutMs ?? ANSWER_TIMEOUT_MS,
          followRedirects: false,
          maxResponseBytes: LOGGED_RESPONSE_BYTES,
          onTooLarge: 'truncate',
          keepAlive: true,
        });
        statusCode = res.status;
        responseBody = res.body.toString('utf8');
        retryAfter = res.headers['retry-after'];
        if (res.status >= 300 && res.status < 400) error = `redirect ${res.status} (never followed)`;
        else if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
      } catch (e) {
        error = describeError(e);
      }
    }
    return { startedAt, headers, statusCode, responseBody, error, retryAfter, durationMs: Math.round(performance.now() - t0) };
  });

  const succeeded = sent.error === null;
  const finished = clock.now();
  // 410 Gone is final: the endpoint is disabled below and its planned deliveries canceled.
  const retried = row.kind === 'event' && !succeeded && prepared.body !== null && sent.statusCode !== 410;
  const next = retried
    ? nextAttemptAt({
        nextAttempt: number + 1,
        nowMs: finished.getTime(),
        eventCreatedMs: row.eventCreatedAt.getTime(),
        retryAfterMs: retryAfterMs(sent.retryAfter, finished.getTime()),
      })
    : null;
  const status: AttemptResult['status'] = succeeded ? 'succeeded' : next !== null ? 'pending' : 'failed';
  const nextAt = next === null ? null : new Date(next);

  const recorded = await step.run('record', async () => {
    const result = await sql<{ updated: number }>(
      `with upd as (
         update "WebhookDelivery" set attempts = attempts + 1, status = $3::"DeliveryStatus", "nextAttemptAt" = $4::timestamp,
           "lastStatusCode" = $5, "lastError" = $6, "lastAttemptAt" = $7::timestamp, "updatedAt" = $7::timestamp
         where id = $1 and status = 'pending' and attempts = $2 returning id),
       ins as (
         insert into "WebhookAttempt" (id, "deliveryId", "endpointId", "eventId", number, "startedAt", "durationMs", "requestHeaders", "statusCode", "responseBody", error, succeeded)
         values ($8, $1, $9, $10, $11, $7::timestamp, $12, $13::jsonb, $5, $14, $6, $15))
       select count(*)::int as updated from upd`,
      [
        row.id, row.attempts, status, iso(nextAt), sent.statusCode, sent.error, sent.startedAt.toISOString(),
        newId('att'), row.endpointId, row.eventId, number, sent.durationMs, JSON.stringify(sent.headers), sent.responseBody, succeeded,
      ],
    );
    return (result[0]?.updated ?? 0) > 0;
  });

  let disabled: DisabledReason | null = null;
  // Only automatic event deliveries that reached the receiver judge an endpoint's health
  // (resend and test are manual probes; a vanished object is not the receiver's fault).
  if (recorded && row.kind === 'event' && prepared.body !== null) {
    disabled = await step.run('health', () => updateHealth(row, succeeded, sent.statusCode, finished));
    if (disabled) await step.run('mail', () => mailEndpointDisabled(db(), row.endpointId, disabled as Exclude<DisabledReason, 'manual'>));
  }
  return { deliveryId: row.id, number, succeeded, statusCode: sent.statusCode, error: sent.error, status, nextAttemptAt: nextAt, disabled };
}

/**
 * Success clears the failure streak. 410 Gone disables at once; otherwise the endpoint is
 * disabled when its failures (without any success) have lasted 72 hours.
 */
async function updateHealth(row: DeliveryRow, succeeded: boolean, statusCode: number | null, now: Date): Promise<DisabledReason | null> {
  if (succeeded) {
    if (row.failingSince) await sql(`update "WebhookEndpoint" set "failingSince" = null where id = $1`, [row.endpointId]);
    return null;
  }
  let reason: DisabledReason | null = null;
  if (statusCode === 410) reason = 'gone';
  else {
    const rows = await sql<{ failingSince: Date }>(
      `update "WebhookEndpoint" set "failingSince" = coalesce("failingSince", $2::timestamp) where id = $1 returning "failingSince"`,
      [row.endpointId, now.toISOString()],
    );
    const since = rows[0]?.failingSince;
    if (since && now.getTime() - since.getTime() >= RETRY_WINDOW_MS) reason = 'failing';
  }
  if (!reason) return null;
  const chosen = reason;
  const changed = await db().$transaction((tx) => disableEndpointTx(tx, row.endpointId, chosen, now));
  return changed ? reason : null;
}
