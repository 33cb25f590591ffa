import { RoomtoneError } from './core/errors.js';
import { HttpClient, refuseBrowsers, type Fetch } from './core/http.js';
import { Creations } from './resources/creations.js';
import { Generations } from './resources/generations.js';
import { EditMaterialCategories, EditMaterials, Prices, Styles } from './resources/reference.js';
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
  /** `GET /v1/styles` (permission `decorations`). */
  readonly styles: Styles;
  /** `GET /v1/edit-materials` (permission `edits`). */
  readonly editMaterials: EditMaterials;
  /** `GET /v1/edit-material-categories` (permission `edits`). */
  readonly editMaterialCategories: EditMaterialCategories;
  /** `GET /v1/prices` (any creation permission): this organization's prices, tier discount applied. */
  readonly prices: Prices;
  /** Verify deliveries, and `listen` to the test-mode event stream. */
  readonly webhooks: Webhooks;

  readonly baseUrl: string;

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
    const http = new HttpClient({
      apiKey,
      baseUrl,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRetryWait: options.maxRetryWait ?? DEFAULT_MAX_RETRY_WAIT_MS,
      fetch: fetchImpl,
    });
    this.renders = new Creations(http, '/renders');
    this.edits = new Creations(http, '/edits');
    this.decorations = new Creations(http, '/decorations');
    this.upscales = new Creations(http, '/upscales');
    this.generations = new Generations(http);
    this.styles = new Styles(http);
    this.editMaterials = new EditMaterials(http);
    this.editMaterialCategories = new EditMaterialCategories(http);
    this.prices = new Prices(http);
    this.webhooks = new Webhooks(http);
  }
}
