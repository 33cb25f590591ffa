import type { Caller } from '@/server/capabilities/access/caller';
import { clock } from '@/server/platform/clock';
import { db, sql, sqlTimestamp, transaction, type DbTx } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import type { Mode } from '@/generated/prisma/enums';
import { renderEventBodies, type EventSource } from './event-body';
import { eventTypesForMode, type WebhookEventType } from '@/shared/webhooks/event-types';

/**
 * The event stream (GET /v1/events/stream, an extension to the specification): a developer's
 * machine receives its organization's test-mode events without a public https endpoint — the
 * `listen` command of @roomtone/sdk forwards them to a local URL. Real endpoints keep their
 * rules (https on 443, SSRF-checked at every delivery); nothing here relaxes them.
 *
 * A stream is a session row with a lease, renewed while the stream is open. While a session
 * follows an event type, events of that type are produced even when no endpoint follows them
 * (the spec's "an event no endpoint follows is not produced" counts the stream as a follower),
 * and their transaction notifies the web processes, which then read the new events of the
 * organization. Test mode only: a stream never carries live data.
 */
export const EVENT_STREAM_PATH = '/v1/events/stream';
/** pg_notify channel; the payload is the organization id. */
export const EVENT_STREAM_CHANNEL = 'roomtone_event_stream';
export const MAX_STREAMS_PER_ORGANIZATION = 10;
/** A session stays followed this long after its last renewal (the stream renews it while open). */
export const STREAM_LEASE_MS = 60_000;
/** After its client goes, a session stays followed this long: a reconnection within it misses nothing. */
export const RECONNECT_GRACE_MS = 10_000;
/** Events become visible at commit, which can come after their createdAt: each read looks back this far. */
const COMMIT_LAG_MS = 30_000;
/** A resumption (Last-Event-ID) goes back at most this far. */
const RESUME_MAX_MS = 24 * 3600_000;
const READ_BATCH = 200;
const EVENT_ID = /^evt_[0-9A-Za-z]{1,64}$/;

export interface StreamSession {
  id: string;
  organizationId: string;
  mode: Mode;
  eventTypes: WebhookEventType[];
}

/** `events=a,b` of the request; default every type of test mode. */
export function parseStreamEventTypes(raw: string | null): WebhookEventType[] {
  const allowed = eventTypesForMode('test');
  if (raw === null || raw.trim() === '') return allowed;
  const asked = [...new Set(raw.split(',').map((t) => t.trim()))];
  const unknown = asked.filter((t) => !(allowed as string[]).includes(t));
  if (unknown.length > 0 || asked.length === 0) {
    throw new DomainError('parameter_invalid', `Unknown event type${unknown.length > 1 ? 's' : ''} '${unknown.join("', '")}'. A test-mode stream carries ${allowed.join(', ')}.`, { param: 'events' });
  }
  return asked as WebhookEventType[];
}

/**
 * Open a stream for a test key holding generations_read (the events carry generations).
 * At most MAX_STREAMS_PER_ORGANIZATION open at once per organization.
 */
export async function openEventStream(caller: Caller, eventTypes: WebhookEventType[]): Promise<StreamSession> {
  if (caller.mode !== 'test') {
    throw new DomainError('permission_denied', 'The event stream serves test mode only: use a test key (rt_test_…). Live events go to webhook endpoints.');
  }
  if (!caller.permissions.has('generations_read')) {
    throw new DomainError('permission_denied', "This key lacks the 'generations_read' permission the event stream needs.");
  }
  const id = newId('evs');
  await transaction(async (tx) => {
    // One opening at a time per organization, so two cannot both be the tenth.
    await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`event-stream:${caller.organizationId}`}))`;
    const now = clock.now();
    await tx.eventStreamSession.deleteMany({ where: { organizationId: caller.organizationId, expiresAt: { lte: now } } });
    const open = await tx.eventStreamSession.findMany({ where: { organizationId: caller.organizationId }, select: { expiresAt: true }, orderBy: { expiresAt: 'asc' } });
    if (open.length >= MAX_STREAMS_PER_ORGANIZATION) {
      const wait = Math.ceil(((open[0]?.expiresAt.getTime() ?? now.getTime()) - now.getTime()) / 1000);
      throw new DomainError('rate_limit_exceeded', `This organization already has ${open.length} event streams open (at most ${MAX_STREAMS_PER_ORGANIZATION}). Close one, or retry later.`, {
        retryAfterSeconds: Math.max(1, wait),
      });
    }
    await tx.eventStreamSession.create({
      data: { id, organizationId: caller.organizationId, mode: caller.mode, eventTypes, apiKeyId: caller.apiKeyId ?? '', createdAt: now, expiresAt: new Date(now.getTime() + STREAM_LEASE_MS) },
    });
  });
  return { id, organizationId: caller.organizationId, mode: caller.mode, eventTypes };
}

/** Keep the session followed for another lease. */
export async function renewEventStream(session: StreamSession): Promise<void> {
  await db().eventStreamSession.updateMany({ where: { id: session.id }, data: { expiresAt: new Date(clock.nowMs() + STREAM_LEASE_MS) } });
}

/**
 * The client went away: events stay produced for RECONNECT_GRACE_MS more, so a reconnection
 * (Last-Event-ID) finds those of the gap; then the session lapses.
 */
export async function releaseEventStream(session: StreamSession): Promise<void> {
  await db().eventStreamSession.updateMany({ where: { id: session.id }, data: { expiresAt: new Date(clock.nowMs() + RECONNECT_GRACE_MS) } });
}

/** A session that never streamed (its request was refused after it opened). */
export async function deleteEventStream(session: StreamSession): Promise<void> {
  await db().eventStreamSession.deleteMany({ where: { id: session.id } });
}

/** Inside an event's transaction: does an open stream follow this type? */
export async function streamFollows(tx: DbTx, organizationId: string, mode: Mode, type: string): Promise<boolean> {
  if (mode !== 'test') return false;
  const session = await tx.eventStreamSession.findFirst({
    where: { organizationId, mode, expiresAt: { gt: clock.now() }, eventTypes: { has: type } },
    select: { id: true },
  });
  return session !== null;
}

export async function notifyEventStreams(tx: DbTx, organizationId: string): Promise<void> {
  await tx.$executeRaw`select pg_notify(${EVENT_STREAM_CHANNEL}, ${organizationId})`;
}

export interface StreamedEvent {
  id: string;
  type: string;
  /** The body a webhook endpoint would receive (JSON text). */
  body: string;
}

/**
 * Where a stream is: events from `floor` on, minus those already sent. Reads look back
 * COMMIT_LAG_MS behind the newest event sent, because an event committed late can carry an
 * earlier createdAt than one already read.
 */
export class StreamCursor {
  private newest: number;
  private readonly sent = new Map<string, number>();

  private constructor(private readonly floor: number) {
    this.newest = floor;
  }

  /** From now, or after `lastEventId` when it is an event of this session's organization and mode. */
  static async start(session: StreamSession, lastEventId: string | null): Promise<StreamCursor> {
    const now = clock.nowMs();
    if (lastEventId !== null && !EVENT_ID.test(lastEventId)) {
      throw new DomainError('parameter_invalid', 'Last-Event-ID must be an event id (evt_…).', { param: 'Last-Event-ID' });
    }
    if (lastEventId !== null) {
      const last = await db().webhookEvent.findFirst({
        where: { id: lastEventId, organizationId: session.organizationId, mode: session.mode },
        select: { id: true, createdAt: true },
      });
      // Unknown, foreign or too old: the stream starts from now (nothing tells whether it exists).
      if (last && now - last.createdAt.getTime() <= RESUME_MAX_MS) {
        const cursor = new StreamCursor(last.createdAt.getTime());
        cursor.sent.set(last.id, last.createdAt.getTime());
        return cursor;
      }
    }
    return new StreamCursor(now);
  }

  /** The events not yet sent, oldest first, as webhook bodies (an event whose generation is gone is skipped). */
  async next(session: StreamSession): Promise<StreamedEvent[]> {
    const from = Math.max(this.floor, this.newest - COMMIT_LAG_MS);
    const rows = await sql<EventSource & { createdAt: Date }>(
      `select id, type, mode, "createdAt", "generationId", payload from "WebhookEvent"
        where "organizationId" = $1 and mode = $2::"Mode" and type = any($3::text[]) and "createdAt" >= $4::timestamp
        order by "createdAt", id limit ${READ_BATCH}`,
      [session.organizationId, session.mode, session.eventTypes, sqlTimestamp(new Date(from))],
    );
    const fresh = rows.filter((row) => !this.sent.has(row.id));
    for (const row of fresh) {
      const at = row.createdAt.getTime();
      this.sent.set(row.id, at);
      this.newest = Math.max(this.newest, at);
    }
    for (const [id, at] of this.sent) if (at < this.newest - COMMIT_LAG_MS) this.sent.delete(id);
    if (fresh.length === 0) return [];
    const bodies = await renderEventBodies(fresh);
    return fresh.flatMap((row) => {
      const body = bodies.get(row.id);
      return body ? [{ id: row.id, type: row.type, body }] : [];
    });
  }
}
