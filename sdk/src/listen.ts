import { randomBytes } from 'node:crypto';
import { Roomtone } from './client.js';
import { webhookVerification } from './resources/webhooks.js';
import type { WebhookEvent, WebhookEventType } from './types.js';

/**
 * `listen`: what `stripe listen --forward-to` does for Stripe. It follows the organization's
 * test-mode events (GET /v1/events/stream, with a test key) and POSTs each one to a local URL,
 * signed per Standard Webhooks with a session secret it prints, so the receiver under
 * development verifies it exactly as it will verify real deliveries. Each forward reports
 * the receiver's status and the time it took. A forward is one attempt (no retries), within
 * 10 seconds, like a real delivery's answer time.
 */
export interface ForwardOptions {
  client: Roomtone;
  /** Where to POST each event, e.g. http://localhost:4000/hooks. Without it, events are printed. */
  forwardTo?: string;
  events?: WebhookEventType[];
  /** The signing secret (`whsec_…`); default: a new one for this session. */
  secret?: string;
  signal?: AbortSignal;
  /** Where lines go (default: stdout). */
  print?: (line: string) => void;
  fetch?: typeof fetch;
}

export interface ForwardResult {
  event: WebhookEvent;
  status: number | null;
  error: string | null;
  ms: number;
}

const FORWARD_TIMEOUT_MS = 10_000;

/** A new `whsec_` secret: base64 of 24 random bytes, as Standard Webhooks libraries expect. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** POST one event to the local receiver, signed with `secret`. */
export async function forwardEvent(event: WebhookEvent, url: string, secret: string, fetchImpl: typeof fetch = fetch): Promise<ForwardResult> {
  const body = JSON.stringify(event);
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), FORWARD_TIMEOUT_MS);
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Roomtone-Webhooks/1.0 (listen)', ...webhookVerification.sign(body, secret, event.id) },
      body,
      redirect: 'manual',
      signal: controller.signal,
    });
    await response.arrayBuffer().catch(() => undefined);
    return { event, status: response.status, error: null, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const reason = controller.signal.aborted ? `timeout after ${FORWARD_TIMEOUT_MS / 1000} s` : (cause?.code ?? (error as Error).message);
    return { event, status: null, error: reason, ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

function time(): string {
  return new Date().toISOString().replace('T', ' ').slice(0, 19);
}

/** Run until `signal` aborts (or the key is refused: that error is thrown). */
export async function listenAndForward(options: ForwardOptions): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const secret = options.secret ?? newSigningSecret();
  let announced = false;
  const events = options.client.webhooks.listen({
    ...(options.events ? { events: options.events } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onReady: ({ events: types }) => {
      if (announced) {
        print(`${time()}  reconnected`);
        return;
      }
      announced = true;
      print(`Ready. Listening to test-mode events (${types.join(', ')}) of ${options.client.baseUrl}`);
      if (options.forwardTo) print(`Forwarding to ${options.forwardTo}`);
      print(`Webhook signing secret: ${secret}`);
      print('Verify with Roomtone.webhooks.unwrap(rawBody, headers, secret) or any Standard Webhooks library. Ctrl+C to stop.');
    },
    onReconnect: ({ error, delayMs }) => print(`${time()}  connection lost (${error instanceof Error ? error.message : String(error)}); reconnecting in ${Math.round(delayMs / 100) / 10} s`),
  });
  for await (const event of events) {
    const object = event.data.object as { id?: string };
    if (!options.forwardTo) {
      print(`${time()}  ${event.type}  ${event.id}  ${object.id ?? ''}`);
      print(JSON.stringify(event, null, 2));
      continue;
    }
    const result = await forwardEvent(event, options.forwardTo, secret, options.fetch);
    const outcome = result.status !== null ? `${result.status}` : `failed: ${result.error}`;
    print(`${time()}  ${event.type}  ${event.id}  ${object.id ?? ''}  -> ${outcome}  (${result.ms} ms)`);
  }
}
