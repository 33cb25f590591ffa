import { randomUUID } from 'node:crypto';
import type { HttpClient } from '../core/http.js';
import type { APIPromise } from '../core/api-promise.js';
import { creationBody } from '../core/uploads.js';
import type { CreateOptions, DecorationCreateParams, EditCreateParams, Generation, RenderCreateParams, UpscaleCreateParams, WaitOptions } from '../types.js';
import type { Generations } from './generations.js';

/**
 * One creation route (`POST /v1/renders`, `/edits`, `/decorations`, `/upscales`). `create`
 * answers the generation when it ends (200), or at once in progress with `background: true`
 * or under heavy load (202): see `generations.waitUntilDone`.
 */
export class Creations<Params extends object> {
  constructor(
    private readonly http: HttpClient,
    private readonly path: string,
    private readonly generations: Generations,
  ) {}

  /** The generation when it ends (or in progress: 202); `.withResponse()` adds the request id, status and headers. */
  create(params: Params, options: CreateOptions = {}): APIPromise<Generation> {
    const { idempotencyKey = `sdk_${randomUUID()}`, ...requestOptions } = options;
    return this.http.call<Generation>(async () => ({ method: 'POST', path: this.path, body: await creationBody(params as Record<string, unknown>), idempotencyKey }), requestOptions);
  }

  /**
   * Create in the background (202 at once), then wait for the end with `waitUntilDone`:
   * `onProgress` sees the API's `progress` as it grows. A failed generation is returned, not
   * thrown: check `status`.
   *
   * ```ts
   * const generation = await client.upscales.createAndWait({ image: './room.jpg', scale: 'x4' }, {
   *   onProgress: ({ progress }) => console.log(progress === null ? 'working…' : `${Math.round(progress * 100)} %`),
   * });
   * ```
   */
  async createAndWait(params: Params, options: CreateOptions & WaitOptions = {}): Promise<Generation> {
    const { timeout, pollInterval, maxPollInterval, onProgress, signal, ...createOptions } = options;
    const accepted = await this.create({ ...params, background: true } as Params, { ...createOptions, ...(signal ? { signal } : {}) });
    return this.generations.waitUntilDone(accepted, {
      ...(timeout !== undefined ? { timeout } : {}),
      ...(pollInterval !== undefined ? { pollInterval } : {}),
      ...(maxPollInterval !== undefined ? { maxPollInterval } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(signal ? { signal } : {}),
    });
  }
}

export type Renders = Creations<RenderCreateParams>;
export type Edits = Creations<EditCreateParams>;
export type Decorations = Creations<DecorationCreateParams>;
export type Upscales = Creations<UpscaleCreateParams>;
