import { callerFromKey } from '@/server/capabilities/access/caller';
import { authenticateBearer } from '@/server/capabilities/keys/keys';
import { assertIpAllowed } from '@/server/capabilities/keys/fences';
import { db } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { ApiError, apiErrorFromUnknown } from '@/server/doors/errors';
import { listen } from '@/server/platform/listen';
import { log } from '@/server/platform/logger';
import {
  deleteEventStream,
  EVENT_STREAM_CHANNEL,
  EVENT_STREAM_PATH,
  openEventStream,
  parseStreamEventTypes,
  releaseEventStream,
  renewEventStream,
  StreamCursor,
  type StreamSession,
} from '@/server/capabilities/webhooks/event-stream';
import { clientIp } from '@/server/doors/client-ip';
import { authenticate, beginRequest, errorReply, finishReply, limitIp, logRequest, refuseBrowsers, type DoorReply } from '@/server/doors/door';

/**
 * GET /v1/events/stream as Server-Sent Events. The door checks what every keyed route checks
 * (browser refusal, per-IP and per-organization rates, the key), then keeps the response open:
 * `event: ready`, then each event as `id` / `event` / `data` (the webhook body), and a comment
 * every HEARTBEAT_MS, at which the session's lease is renewed and the key checked again (a
 * revoked key ends the stream). Events are read when a transaction notifies the organization,
 * and on a slow poll in case a notification was missed.
 */
export const HEARTBEAT_MS = 15_000;
const FALLBACK_POLL_MS = 2_000;
/** How long a client waits before reconnecting (the SSE `retry:` field). */
const RECONNECT_MS = 2_000;

type Wake = () => void;
const streams: { byOrganization: Map<string, Set<Wake>>; open: Set<() => void>; listening: Promise<unknown> | null } = { byOrganization: new Map(), open: new Set(), listening: null };

function following(): Promise<unknown> {
  streams.listening ??= listen(
    EVENT_STREAM_CHANNEL,
    (organizationId) => {
      for (const wake of streams.byOrganization.get(organizationId) ?? []) wake();
    },
    () => {
      streams.listening = null; // the fallback poll covers the gap
    },
  ).catch((error: unknown) => {
    streams.listening = null;
    log.warn('event stream: LISTEN unavailable; polling', { error: String(error) });
  });
  return streams.listening;
}

/** End every open stream (the server is stopping: clients reconnect elsewhere with Last-Event-ID). */
export function endEventStreams(): void {
  for (const end of [...streams.open]) end();
}

const encoder = new TextEncoder();

function message(fields: { id?: string; event?: string; data?: string; retry?: number; comment?: string }): Uint8Array {
  let text = '';
  if (fields.comment !== undefined) text += `: ${fields.comment}\n`;
  if (fields.retry !== undefined) text += `retry: ${fields.retry}\n`;
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  if (fields.event !== undefined) text += `event: ${fields.event}\n`;
  if (fields.data !== undefined) for (const line of fields.data.split('\n')) text += `data: ${line}\n`;
  return encoder.encode(`${text}\n`);
}

function eventStream(session: StreamSession, cursor: StreamCursor, authorization: string | null, ip: string | null, closed: AbortSignal): ReadableStream<Uint8Array> {
  let end: () => void = () => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      let reading: Promise<void> = Promise.resolve();
      let again = false;
      const timers: NodeJS.Timeout[] = [];
      const wake = () => {
        // One read at a time; a wake during a read makes one more read after it.
        if (again) return;
        again = true;
        reading = reading.then(async () => {
          again = false;
          if (ended) return;
          try {
            for (const event of await cursor.next(session)) controller.enqueue(message({ id: event.id, event: event.type, data: event.body }));
          } catch (error) {
            log.warn('event stream: read failed', { session: session.id, error: String(error) });
          }
        });
      };
      end = () => {
        if (ended) return;
        ended = true;
        for (const timer of timers) clearInterval(timer);
        streams.byOrganization.get(session.organizationId)?.delete(wake);
        streams.open.delete(end);
        closed.removeEventListener('abort', end);
        void releaseEventStream(session).catch(() => undefined);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      streams.open.add(end);
      closed.addEventListener('abort', end, { once: true });
      let wakes = streams.byOrganization.get(session.organizationId);
      if (!wakes) streams.byOrganization.set(session.organizationId, (wakes = new Set<Wake>()));
      wakes.add(wake);

      controller.enqueue(message({ retry: RECONNECT_MS, event: 'ready', data: JSON.stringify({ object: 'event_stream', livemode: false, events: session.eventTypes }) }));
      void following().then(wake);
      timers.push(setInterval(wake, FALLBACK_POLL_MS));
      timers.push(
        setInterval(() => {
          void (async () => {
            try {
              // A key revoked, or fenced off this address, since the stream opened ends it.
              assertIpAllowed(await authenticateBearer(db(), authorization, { ip }), ip);
              await renewEventStream(session);
              if (!ended) controller.enqueue(message({ comment: 'ping' }));
            } catch (error) {
              const refusal = apiErrorFromUnknown(error);
              if (!ended && (refusal.status === 401 || refusal.code === 'api_key_ip_not_allowed')) {
                controller.enqueue(message({ event: 'error', data: JSON.stringify(refusal.toBody()) }));
                end();
              }
            }
          })();
        }, HEARTBEAT_MS),
      );
      if (closed.aborted) end();
    },
    cancel() {
      end();
    },
  });
}

/**
 * The stream, or the refusal in the error envelope. `closed` aborts when the client goes away:
 * the request's signal (the edge server ties it to the socket: a streaming route of http/routes.ts).
 */
export async function serveEventStream(req: Request, requestId?: string, closed: AbortSignal = req.signal): Promise<DoorReply> {
  const door = beginRequest(clientIp(req), requestId);
  const url = new URL(req.url);
  let response: DoorReply;
  let status: number;
  let errorCode: string | null = null;
  let errorMessage: string | null = null;
  try {
    refuseBrowsers(req);
    await limitIp(door);
    // A door's refusal with its Allow header (a DomainError carries no headers).
    if (req.method !== 'GET') throw new ApiError('method_not_allowed', `${EVENT_STREAM_PATH} answers GET only.`, { headers: { allow: 'GET' } });
    const key = await authenticate(req, door);
    const eventTypes = parseStreamEventTypes(url.searchParams.get('events'));
    const unknown = [...url.searchParams.keys()].find((name) => name !== 'events');
    if (unknown) throw new DomainError('parameter_invalid', `Unknown parameter '${unknown}'.`, { param: unknown });
    const session = await openEventStream(callerFromKey(key), eventTypes);
    let cursor: StreamCursor;
    try {
      cursor = await StreamCursor.start(session, req.headers.get('last-event-id'));
    } catch (error) {
      await deleteEventStream(session);
      throw error;
    }
    const headers = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };
    response = finishReply(door, { status: 200, headers, body: eventStream(session, cursor, req.headers.get('authorization'), door.ip, closed), errorCode: null });
    status = 200;
  } catch (error) {
    const reply = finishReply(door, errorReply(apiErrorFromUnknown(error, { requestId: door.requestId, route: `${req.method} ${EVENT_STREAM_PATH}` })));
    status = reply.status;
    errorCode = reply.errorCode ?? null;
    errorMessage = reply.errorMessage ?? null;
    response = reply;
  }
  logRequest(door, { method: req.method, path: url.pathname, status, errorCode, errorMessage });
  return response;
}
