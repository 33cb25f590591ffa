import { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, RoomtoneError } from './errors.js';
import { APIPromise, type ResponseInfo } from './api-promise.js';
import type { ClientHooks } from './hooks.js';
import { VERSION } from '../version.js';
import type { RequestOptions } from '../types.js';

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface HttpSettings {
  apiKey: string;
  /** Origin of the service, without /v1. */
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  /** The longest Retry-After the client waits for; a longer one is answered with the error at once. */
  maxRetryWait: number;
  fetch: Fetch;
  hooks: ClientHooks;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path under /v1, e.g. `/generations`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON object, or multipart form data (either is sent again unchanged on a retry). */
  body?: Record<string, unknown> | FormData;
  idempotencyKey?: string;
}

/**
 * Connection failures that say the address is wrong (nothing listens there, no such host):
 * retrying cannot help, unless this client has already reached the service (then it is a
 * restart, which passes).
 */
const WRONG_ADDRESS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL', 'UND_ERR_INVALID_ARG']);

/** Statuses worth another attempt: the request was not served, or may be served next time. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * Exponential backoff with jitter: 0.5 s, 1 s, 2 s, … up to 8 s, each reduced by up to 25 %
 * at random, so clients that failed together do not retry together.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** retry);
  return base * (1 - 0.25 * random());
}

/** Resolve after `ms`, or reject when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new APIUserAbortError('Request was aborted.'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError('Request was aborted.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface HttpResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

export class HttpClient {
  /** Whether an answer (any status) ever came back: a refused connection after that is a restart, not a wrong address. */
  private reached = false;
  /** The most recent answer of any call (errors included). */
  lastResponse: ResponseInfo | undefined;

  constructor(readonly settings: HttpSettings) {}

  url(path: string, query?: HttpRequest['query']): string {
    const url = new URL(`${this.settings.baseUrl}/v1${path}`);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  headers(extra?: Record<string, string>): Record<string, string> {
    return {
      authorization: `Bearer ${this.settings.apiKey}`,
      accept: 'application/json',
      'user-agent': `roomtone-sdk-node/${VERSION} node/${process.versions.node}`,
      ...extra,
    };
  }

  /** `request` as an `APIPromise`: awaited, the object; `.withResponse()`, the object and its answer. */
  call<T>(request: HttpRequest | (() => Promise<HttpRequest>), options: RequestOptions = {}): APIPromise<T> {
    const pending = typeof request === 'function' ? request().then((r) => this.request<T>(r, options)) : this.request<T>(request, options);
    return new APIPromise<T>(pending);
  }

  /**
   * One API call with the client's retries. The server's `x-should-retry` decides first
   * (`false`: a configuration refusal, such as no model backend, that no retry changes; `true`:
   * it passes with time); then connection errors, timeouts, 408, 429 and 5xx are tried again (at
   * most `maxRetries` times), after `Retry-After` when the server gave one (up to
   * `maxRetryWait`), else after an exponential backoff with jitter. A refused connection or an
   * unknown host fails at once, naming the URL, until the client has reached the service once.
   * A creation carries the same Idempotency-Key on every attempt, so a retry returns the
   * generation the first attempt created (with no second charge) instead of creating another.
   */
  async request<T>(request: HttpRequest, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const maxRetries = options.maxRetries ?? this.settings.maxRetries;
    const timeout = options.timeout ?? this.settings.timeout;
    const headers = this.headers(options.headers);
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    let body: string | FormData | undefined;
    if (request.body instanceof FormData) body = request.body;
    else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const url = this.url(request.path, request.query);
    const hooks = this.settings.hooks;

    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      const event = { method: request.method, url, attempt: retry + 1, idempotencyKey: request.idempotencyKey };
      hooks.emit('request', event);
      const started = performance.now();
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await this.attempt(url, { method: request.method, headers, body }, timeout, options.signal));
      } catch (error) {
        if (error instanceof APIUserAbortError) throw error;
        const code = connectionCode(error);
        if (error instanceof APIConnectionError && !(error instanceof APITimeoutError) && code !== undefined && WRONG_ADDRESS.has(code) && !this.reached) {
          throw new APIConnectionError(
            `Could not connect to ${url}: ${code}. Check baseUrl (or ROOMTONE_BASE_URL): nothing answers at ${this.settings.baseUrl}.`,
            { cause: error },
          );
        }
        if (last) throw error;
        const delayMs = backoffMs(retry);
        hooks.emit('retry', { ...event, delayMs, reason: (error as Error).message, status: undefined, retryAfter: undefined, requestId: undefined, error });
        await sleep(delayMs, options.signal);
        continue;
      }
      this.reached = true;
      const requestId = response.headers.get('request-id') ?? undefined;
      this.lastResponse = { requestId, status: response.status, headers: response.headers };
      hooks.emit('response', { ...event, status: response.status, requestId, headers: response.headers, durationMs: Math.round(performance.now() - started) });
      if (response.ok) {
        return { data: (text ? JSON.parse(text) : null) as T, status: response.status, headers: response.headers, requestId };
      }
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the error keeps the text as its body
      }
      const error = APIError.from(response.status, parsed, response.headers);
      const said = response.headers.get('x-should-retry');
      const retryable = said === 'true' ? true : said === 'false' ? false : RETRYABLE.has(response.status);
      if (last || !retryable) throw error;
      const delayMs = error.retryAfter !== undefined ? error.retryAfter * 1000 : backoffMs(retry);
      if (delayMs > this.settings.maxRetryWait) throw error;
      hooks.emit('retry', { ...event, delayMs, reason: `${response.status} ${error.code}`, status: response.status, retryAfter: error.retryAfter, requestId, error });
      await sleep(delayMs, options.signal);
    }
  }

  /** One attempt: the answer and its whole body within `timeout`, or an error saying why not. */
  async attempt(url: string, init: RequestInit, timeout: number, signal?: AbortSignal): Promise<{ response: Response; text: string }> {
    if (signal?.aborted) throw new APIUserAbortError('Request was aborted.');
    // A controller and a timer of our own: on Node 20, AbortSignal.any() can let a timeout
    // signal be garbage-collected before it fires.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.settings.fetch(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (signal?.aborted) throw new APIUserAbortError('Request was aborted.');
      if (timedOut) throw new APITimeoutError(`No answer within ${timeout} ms.`, { cause: error });
      throw new APIConnectionError(`Connection error: ${describe(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The system error code of a failed fetch (`ECONNREFUSED`, `ENOTFOUND`, …), if it has one. */
function connectionCode(error: unknown): string | undefined {
  let current = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** The environment has no `window` and `document`: the SDK holds a secret key and runs on servers only. */
export function refuseBrowsers(): void {
  const global = globalThis as { window?: unknown; document?: unknown };
  if (typeof global.window !== 'undefined' && typeof global.document !== 'undefined') {
    throw new RoomtoneError(
      'The Roomtone SDK does not run in a browser: an API key placed in a browser is exposed to every visitor, and the API refuses browser requests. Call Roomtone from your server.',
    );
  }
}
