import type { Readable } from 'node:stream';
import type { components, operations } from './generated/openapi.js';

/**
 * The public types, derived from the generated OpenAPI types (generated/openapi.ts) so a field
 * added to the API reaches them by regenerating. Image fields are widened to `ImageInput`.
 */
type Schemas = components['schemas'];

/** A generation, as `GET /v1/generations/{id}` returns it. Clients must ignore unknown fields. */
export type Generation = Schemas['Generation'];
export type GenerationStatus = Generation['status'];
export type GenerationType = Generation['type'];
export type GenerationOutput = Generation['output'][number];
export type Style = Schemas['Style'];
export type Price = Schemas['Price'];
export type EditMaterial = Schemas['EditMaterial'];
export type EditMaterialCategory = Schemas['EditMaterialCategory'];
/** The balance object inside balance events. */
export type Balance = Schemas['Balance'];
/** `GET /v1/balance` (an addition to the spec): the balance object plus `monthly_limit` and `monthly_spend`, in cents. */
export type AccountBalance = Schemas['AccountBalance'];
export type GenerationEvent = Schemas['GenerationEvent'];
export type BalanceEvent = Schemas['BalanceEvent'];
/** A webhook event (the body of a delivery, or of the event stream). */
export type WebhookEvent = GenerationEvent | BalanceEvent;
export type WebhookEventType = WebhookEvent['type'];
/** What `webhooks.trigger` answers (`POST /v1/events/trigger`, a Roomtone extension). */
export type TriggeredEvent = Schemas['TriggeredEvent'];
/** The event types of test mode (the ones `trigger` and `listen` carry). */
export type TestEventType = GenerationEvent['type'];
/** The error body of every refusal. */
export type ErrorBody = Schemas['Error'];

/** A list answer: `has_more` is true while another page follows. */
export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/**
 * An image for `image`, `mask` or `layers[].element` (JPEG, PNG or WebP, at most 10 MB):
 * - an `https://` URL (string or `URL`), sent as is: the server downloads it;
 * - an uploaded file id, `file_…` (made by MCP `create_upload`), sent as is;
 * - a file path (any other string, e.g. `'./room.jpg'`, or a `file:` URL), read from disk;
 * - bytes: `Buffer`, `Uint8Array`, `ArrayBuffer`, a `Blob`/`File`, or a stream (Node `Readable`
 *   such as `fs.createReadStream(…)`, or a web `ReadableStream`), read once and kept in memory
 *   so retries can resend it.
 * A request with any file is sent as multipart/form-data, each file in a part named as its field.
 */
export type ImageInput = string | URL | Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | Readable | AsyncIterable<Uint8Array>;

/** The mask palette (the spec's five colours): each layer's `mask_color`, painted on the mask PNG. */
export type PaletteColor = '#FF0000' | '#CCFF00' | '#00FF66' | '#0066FF' | '#CC00FF';
/** A palette colour as `mask_color` takes it (the API reads it in either case). */
export type MaskColor = PaletteColor | Lowercase<PaletteColor>;
/** A colour `#RRGGBB` (a `modify` layer's `color`). */
export type HexColor = `#${string}`;

type Field<K, V> = K extends 'image' | 'mask' | 'element' ? ImageInput : K extends 'mask_color' ? MaskColor : K extends 'color' ? HexColor : V;

type ReplaceImages<T> = T extends readonly (infer U)[]
  ? ReplaceImages<U>[]
  : T extends object
    ? { [K in keyof T]: Field<K, ReplaceImages<T[K]>> }
    : T;

type JsonBody<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type QueryOf<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Metadata: up to 16 string pairs (keys 1–40 characters, values at most 500), returned unchanged. */
export type Metadata = Record<string, string>;

type Creation<Op extends keyof operations> = Omit<ReplaceImages<JsonBody<Op>>, 'metadata'> & { metadata?: Metadata };

export type RenderCreateParams = Creation<'creations-render'>;
export type DecorationCreateParams = Creation<'creations-decoration'>;
export type UpscaleCreateParams = Creation<'creations-upscale'>;

type EditBody = Creation<'creations-edit'>;
export type EditLayer = NonNullable<EditBody['layers']>[number];
/** Prompt mode: an instruction; a mask painted in exactly one colour limits it to that area. */
export type PromptEditParams = Omit<EditBody, 'mode' | 'prompt' | 'layers'> & { mode: 'prompt'; prompt: string; layers?: never };
/** Mask mode: a mask and one layer per painted colour. */
export type MaskEditParams = Omit<EditBody, 'mode' | 'prompt' | 'mask' | 'layers'> & { mode: 'mask'; mask: ImageInput; layers: EditLayer[]; prompt?: never };
export type EditCreateParams = PromptEditParams | MaskEditParams;

export type GenerationListParams = Omit<QueryOf<'generations-list'>, 'after'> & { after?: string };
export type EditMaterialListParams = Omit<QueryOf<'reference-editMaterials'>, 'after'> & { after?: string };

/** Per-call options; each overrides the client's own. */
export interface RequestOptions {
  /** Milliseconds one attempt may take (default: the client's, 6 minutes). */
  timeout?: number;
  /** Extra attempts after a connection error, 429 or 5xx (default: the client's, 2). */
  maxRetries?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface CreateOptions extends RequestOptions {
  /**
   * The Idempotency-Key (1–255 printable ASCII characters). Default: one is generated for the
   * call and reused by its retries, so a retry never creates a second generation. Pass your own
   * to make a retry of your own (another process, after a crash) safe too.
   */
  idempotencyKey?: string;
}

/** What `onProgress` receives: the API's `progress` (0 to 1, null when the model cannot tell; 1 once succeeded). */
export interface ProgressEvent {
  id: string;
  status: GenerationStatus;
  progress: number | null;
  generation: Generation;
}

export interface WaitOptions {
  /** Called with each new `progress` value of the generation, and once at its end. */
  onProgress?: (event: ProgressEvent) => void;
  /** Milliseconds to wait for the end (default 10 minutes); then `WaitTimeoutError`. */
  timeout?: number;
  /** First delay between reads, in ms (default 1000); it grows by half each time up to `maxPollInterval`. */
  pollInterval?: number;
  /** Longest delay between reads, in ms (default 10000). */
  maxPollInterval?: number;
  signal?: AbortSignal;
}
