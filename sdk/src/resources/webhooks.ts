import { Webhook, WebhookVerificationError as StandardVerificationError } from 'standardwebhooks';
import { APIError, APIUserAbortError, AuthenticationError, RoomtoneError, WebhookVerificationError } from '../core/errors.js';
import { backoffMs, sleep, type HttpClient } from '../core/http.js';
import { SseParser } from '../core/sse.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions, TestEventType, TriggeredEvent, WebhookEvent, WebhookEventType } from '../types.js';

/** Request headers as a web `Headers`, Node's `IncomingHttpHeaders` or a plain record. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeadersLike): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return out;
}

/**
 * Verifying webhook deliveries (Standard Webhooks, through the official `standardwebhooks`
 * package): the signature of `{webhook-id}.{webhook-timestamp}.{raw body}` with the endpoint's
 * `whsec_…` secret, compared in constant time, and a timestamp within 5 minutes.
 *
 * Secret rotation: for 24 hours after a rotation every delivery carries two signatures (new
 * and previous secret), so a receiver configured with either verifies. Pass both secrets as an
 * array while you switch over: a delivery verifies if any of them signed it.
 */
export const webhookVerification = {
  /** Throws `WebhookVerificationError` unless the delivery is signed by `secret` (or one of them) and recent. */
  verify(payload: string | Uint8Array, headers: HeadersLike, secret: string | readonly string[]): void {
    const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
    const record = headerRecord(headers);
    const secrets = typeof secret === 'string' ? [secret] : secret;
    if (secrets.length === 0) throw new WebhookVerificationError('No webhook secret given.');
    let failure: unknown;
    for (const candidate of secrets) {
      try {
        new Webhook(candidate).verify(body, record, { jsonParse: false });
        return;
      } catch (error) {
        failure = error;
      }
    }
    const reason = failure instanceof StandardVerificationError || failure instanceof Error ? failure.message : String(failure);
    throw new WebhookVerificationError(`Webhook verification failed: ${reason}.`);
  },

  /** Verify, then parse: the typed event. Verify the raw body, before any JSON parsing of yours. */
  unwrap(payload: string | Uint8Array, headers: HeadersLike, secret: string | readonly string[]): WebhookEvent {
    webhookVerification.verify(payload, headers, secret);
    const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
    try {
      return JSON.parse(body) as WebhookEvent;
    } catch (error) {
      throw new WebhookVerificationError(`The webhook body is not JSON: ${(error as Error).message}.`);
    }
  },

  /**
   * Sign a body as a delivery would be (for tests of your receiver, and `listen`): the
   * `webhook-id`, `webhook-timestamp` and `webhook-signature` headers.
   */
  sign(payload: string, secret: string, id: string, timestamp: Date = new Date()): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, timestamp, payload),
    };
  },
};

export interface ListenOptions {
  /** Event types to receive (default: every test-mode type). */
  events?: WebhookEventType[];
  /** Resume after this event (as a reconnection does by itself). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Called each time the stream is (re)connected, with the types it carries. */
  onReady?: (info: { events: WebhookEventType[] }) => void;
  /** Called when the connection drops and the client reconnects. */
  onReconnect?: (info: { error: unknown; delayMs: number }) => void;
}

/** No message (events or the 15-second keep-alive comment) for this long: the connection is dead. */
const SILENCE_MS = 45_000;

export class Webhooks {
  constructor(private readonly http: HttpClient) {}

  verify = webhookVerification.verify;
  unwrap = webhookVerification.unwrap;

  /**
   * `POST /v1/events/trigger` (a Roomtone extension, as `stripe trigger`): a sample event of a
   * test-mode type (fictitious ids, no image), delivered signed to every active test endpoint
   * that follows it and to every running `listen`. Needs a test key with `generations_read`.
   * `event_id` is null when nothing follows the type.
   */
  trigger(type: TestEventType, options?: RequestOptions): APIPromise<TriggeredEvent> {
    return this.http.call<TriggeredEvent>({ method: 'POST', path: '/events/trigger', body: { type } }, options);
  }

  /**
   * The organization's test-mode events as they happen, from `GET /v1/events/stream` (an
   * extension of Roomtone's API for developing webhook receivers): each event is the body a
   * webhook endpoint would receive. Needs a test key with `generations_read`. Reconnects by
   * itself (resuming after the last event received) until `signal` aborts or the key is refused.
   */
  async *listen(options: ListenOptions = {}): AsyncGenerator<WebhookEvent> {
    let lastEventId = options.lastEventId;
    let failures = 0;
    let serverRetryMs: number | undefined;
    const query = options.events ? { events: options.events.join(',') } : undefined;
    for (;;) {
      if (options.signal?.aborted) return;
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let silence: NodeJS.Timeout | undefined;
      const watch = () => {
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(new RoomtoneError(`No message from the event stream for ${SILENCE_MS / 1000} s.`)), SILENCE_MS);
      };
      let dropped: unknown;
      try {
        watch();
        const response = await this.http.settings.fetch(this.http.url('/events/stream', query), {
          headers: this.http.headers({ accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) }),
          signal: controller.signal,
        });
        if (!response.ok || !response.body) {
          const text = await response.text();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // kept as text
          }
          const error = APIError.from(response.status, body, response.headers);
          if (response.status !== 429 && response.status < 500) throw error;
          dropped = error;
        } else {
          const parser = new SseParser();
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            watch();
            for (const message of parser.push(chunk)) {
              if (message.retry !== undefined) serverRetryMs = message.retry;
              if (message.event === 'ready') {
                failures = 0;
                options.onReady?.({ events: (JSON.parse(message.data) as { events: WebhookEventType[] }).events });
              } else if (message.event === 'error') {
                // The stream ends when its key is revoked (401) or fenced off this address (403).
                const body = JSON.parse(message.data) as { error?: { code?: string } };
                if (body.error?.code === 'api_key_ip_not_allowed') throw APIError.from(403, body, response.headers);
                throw new AuthenticationError(401, body, response.headers);
              } else if (message.data) {
                if (message.id) lastEventId = message.id;
                yield JSON.parse(message.data) as WebhookEvent;
              }
            }
          }
          dropped = new RoomtoneError('The event stream ended.');
        }
      } catch (error) {
        if (options.signal?.aborted) return;
        if (error instanceof APIError || error instanceof APIUserAbortError) throw error;
        dropped = error;
      } finally {
        clearTimeout(silence);
        options.signal?.removeEventListener('abort', onAbort);
        controller.abort();
      }
      const retryAfter = dropped instanceof APIError && dropped.retryAfter !== undefined ? dropped.retryAfter * 1000 : undefined;
      const delayMs = retryAfter ?? Math.max(serverRetryMs ?? 0, backoffMs(Math.min(failures, 6)));
      failures++;
      options.onReconnect?.({ error: dropped, delayMs });
      try {
        await sleep(delayMs, options.signal);
      } catch {
        return;
      }
    }
  }
}
