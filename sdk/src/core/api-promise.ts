import type { HttpResponse } from './http.js';

/** What `withResponse()` adds to the object: the answer's request id, status and headers. */
export interface ResponseInfo {
  /** The `request-id` header (`req_…`): quote it when asking for help. */
  requestId: string | undefined;
  status: number;
  /** Every header, e.g. `x-ratelimit-remaining-requests`, `x-ratelimit-remaining-generations-minute`. */
  headers: Headers;
}

/**
 * The result of an API call: `await` it for the object, as usual, or call `.withResponse()` for
 * the object and the answer it came in (request id, status, rate-limit headers), as
 * openai-node and stripe-node offer.
 *
 * ```ts
 * const { data: generation, response } = await client.upscales.create({ image, scale: 'x2' }).withResponse();
 * console.log(response.requestId, response.headers.get('x-ratelimit-remaining-generations-minute'));
 * ```
 */
export class APIPromise<T> implements Promise<T> {
  /** Makes it a `Promise<T>` for TypeScript too: code typed with Promise keeps compiling. */
  readonly [Symbol.toStringTag] = 'APIPromise';
  private parsed: Promise<T> | null = null;

  constructor(private readonly responsePromise: Promise<HttpResponse<T>>) {}

  /** The object and the answer it came in. */
  async withResponse(): Promise<{ data: T; response: ResponseInfo }> {
    const { data, status, headers, requestId } = await this.responsePromise;
    return { data, response: { requestId, status, headers } };
  }

  private value(): Promise<T> {
    this.parsed ??= this.responsePromise.then((r) => r.data);
    return this.parsed;
  }

  then<R1 = T, R2 = never>(onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null, onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
    return this.value().then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.value().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.value().finally(onFinally);
  }
}
