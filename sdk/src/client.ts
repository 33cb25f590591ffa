import { RoomtoneError } from './core/errors.js';
import { HttpClient, refuseBrowsers, type Fetch } from './core/http.js';
import type { ResponseInfo } from './core/api-promise.js';
import { ClientHooks, isLogLevel, type ClientEventName, type Listener, type Logger, type LogLevel } from './core/hooks.js';
import { Creations } from './resources/creations.js';
import { download, type DownloadOptions, type DownloadTarget } from './resources/download.js';
import { Generations } from './resources/generations.js';
import { BalanceResource, EditMaterialCategories, EditMaterials, Prices, Styles } from './resources/reference.js';
import { webhookVerification, Webhooks } from './resources/webhooks.js';
import type { DecorationCreateParams, EditCreateParams, RenderCreateParams, UpscaleCreateParams } from './types.js';

export interface ClientOptions {
  /** An API key, `rt_test_…` or `rt_live_…`. Default: the `ROOMTONE_API_KEY` environment variable. */
  apiKey?: string;
  /**
   * The service's address, e.g. `https://roomtone.example.com` (a trailing `/v1` is accepted).
   * Default: `ROOMTONE_BASE_URL`, else `http://localhost:3000`.
   */
  baseUrl?: string;
  /**
   * Milliseconds one attempt may take. Default 6 minutes: a creation answers when its
   * generation ends, within 4 min 30 s (then 202 in progress) plus image downloads.
   */
  timeout?: number;
  /** Extra attempts after a connection error, a timeout, 408, 429 or 5xx. Default 2. */
  maxRetries?: number;
  /** The longest `Retry-After` (ms) a retry waits for; a longer one throws at once. Default 60 s. */
  maxRetryWait?: number;
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: Fetch;
  /**
   * What the client prints: `off`, `error`, `warn` (default: a retry that waits 10 s or more,
   * e.g. after a 429 with `Retry-After: 56`), `info` (every retry), `debug` (every request and
   * answer). Default: `ROOMTONE_LOG`, else `warn`. For your own handling use `client.on(…)`.
   */
  logLevel?: LogLevel;
  /** Where lines go (default: `console`). */
  logger?: Logger;
}

const DEFAULT_BASE_URL = 'http://localhost:3000';
const DEFAULT_TIMEOUT_MS = 6 * 60_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;

/**
 * The Roomtone API client.
 *
 * ```ts
 * import Roomtone from '@roomtone/sdk';
 * const client = new Roomtone(); // ROOMTONE_API_KEY, ROOMTONE_BASE_URL
 * const generation = await client.upscales.create({ image: './room.jpg', scale: 'x2' });
 * ```
 *
 * Server-side only: the constructor refuses to run in a browser (keys must never reach one).
 */
export class Roomtone {
  /** Webhook verification without a client: `Roomtone.webhooks.unwrap(body, headers, secret)`. */
  static readonly webhooks = webhookVerification;

  /** `POST /v1/renders` (permission `renders`). */
  readonly renders: Creations<RenderCreateParams>;
  /** `POST /v1/edits`, prompt or mask mode (permission `edits`). */
  readonly edits: Creations<EditCreateParams>;
  /** `POST /v1/decorations` (permission `decorations`). */
  readonly decorations: Creations<DecorationCreateParams>;
  /** `POST /v1/upscales` (permission `upscales`). */
  readonly upscales: Creations<UpscaleCreateParams>;
  /** Retrieve, list, cancel and wait for generations (permission `generations_read`). */
  readonly generations: Generations;
  /** `GET /v1/styles` (permission **`decorations`**, as the spec says; a renders-only key is refused). */
  readonly styles: Styles;
  /** `GET /v1/balance` (any permission; a Roomtone addition to the spec): balance, monthly limit and spend, in cents. */
  readonly balance: BalanceResource;
  /** `GET /v1/edit-materials` (permission `edits`). */
  readonly editMaterials: EditMaterials;
  /** `GET /v1/edit-material-categories` (permission `edits`). */
  readonly editMaterialCategories: EditMaterialCategories;
  /** `GET /v1/prices` (any creation permission): this organization's prices, tier discount applied. */
  readonly prices: Prices;
  /** Verify deliveries, and `listen` to the test-mode event stream. */
  readonly webhooks: Webhooks;

  readonly baseUrl: string;
  private readonly http: HttpClient;
  private readonly hooks: ClientHooks;

  constructor(options: ClientOptions = {}) {
    refuseBrowsers();
    const apiKey = options.apiKey ?? process.env.ROOMTONE_API_KEY;
    if (!apiKey) {
      throw new RoomtoneError('No API key: pass { apiKey } or set ROOMTONE_API_KEY (rt_test_… or rt_live_…).');
    }
    const baseUrl = (options.baseUrl ?? process.env.ROOMTONE_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
    try {
      new URL(baseUrl);
    } catch {
      throw new RoomtoneError(`baseUrl must be an absolute URL such as https://roomtone.example.com (got '${baseUrl}').`);
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new RoomtoneError('No fetch implementation: use Node.js 20 or later, or pass { fetch }.');
    this.baseUrl = baseUrl;
    const level = options.logLevel ?? (isLogLevel(process.env.ROOMTONE_LOG) ? process.env.ROOMTONE_LOG : 'warn');
    this.hooks = new ClientHooks(level, options.logger ?? console);
    const http = new HttpClient({
      apiKey,
      baseUrl,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRetryWait: options.maxRetryWait ?? DEFAULT_MAX_RETRY_WAIT_MS,
      fetch: fetchImpl,
      hooks: this.hooks,
    });
    this.http = http;
    this.generations = new Generations(http);
    this.renders = new Creations(http, '/renders', this.generations);
    this.edits = new Creations(http, '/edits', this.generations);
    this.decorations = new Creations(http, '/decorations', this.generations);
    this.upscales = new Creations(http, '/upscales', this.generations);
    this.styles = new Styles(http);
    this.balance = new BalanceResource(http);
    this.editMaterials = new EditMaterials(http);
    this.editMaterialCategories = new EditMaterialCategories(http);
    this.prices = new Prices(http);
    this.webhooks = new Webhooks(http);
  }

  /**
   * The answer of this client's most recent call, whatever the method (list pages included),
   * errors too: request id, status, headers. With calls running at once, `.withResponse()` on
   * the call you mean is exact.
   */
  get lastResponse(): ResponseInfo | undefined {
    return this.http.lastResponse;
  }

  /**
   * Listen to the client's requests: `request` (each attempt), `response` (each answer, with
   * its status, request id and headers) and `retry` (before each retry, with the wait and
   * why). A 429 with `Retry-After: 56` shows up as a `retry` event with `delayMs: 56000`.
   */
  on<E extends ClientEventName>(event: E, listener: Listener<E>): this {
    this.hooks.on(event, listener);
    return this;
  }

  off<E extends ClientEventName>(event: E, listener: Listener<E>): this {
    this.hooks.off(event, listener);
    return this;
  }

  /**
   * The bytes of an output: pass the generation (its first output; an expired URL is renewed
   * by reading it again), an output item, or an output URL. `{ to: './out.webp' }` also writes
   * the file. The URL is signed: the API key is never sent with it.
   */
  download(target: DownloadTarget, options?: DownloadOptions): Promise<Buffer> {
    return download(this.http, this.generations, target, options);
  }
}
