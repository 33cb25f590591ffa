import { randomUUID } from 'node:crypto';
import type { HttpClient } from '../core/http.js';
import { creationBody } from '../core/uploads.js';
import type { CreateOptions, DecorationCreateParams, EditCreateParams, Generation, RenderCreateParams, UpscaleCreateParams } from '../types.js';

/**
 * One creation route (`POST /v1/renders`, `/edits`, `/decorations`, `/upscales`). `create`
 * answers the generation when it ends (200), or at once in progress with `background: true`
 * or under heavy load (202): see `generations.waitUntilDone`.
 */
export class Creations<Params extends object> {
  constructor(
    private readonly http: HttpClient,
    private readonly path: string,
  ) {}

  async create(params: Params, options: CreateOptions = {}): Promise<Generation> {
    const { idempotencyKey = `sdk_${randomUUID()}`, ...requestOptions } = options;
    const body = await creationBody(params as Record<string, unknown>);
    const response = await this.http.request<Generation>({ method: 'POST', path: this.path, body, idempotencyKey }, requestOptions);
    return response.data;
  }
}

export type Renders = Creations<RenderCreateParams>;
export type Edits = Creations<EditCreateParams>;
export type Decorations = Creations<DecorationCreateParams>;
export type Upscales = Creations<UpscaleCreateParams>;
