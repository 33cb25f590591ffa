/**
 * Errors of the SDK. Every error the API answers is an `APIError` carrying `status`, `code`,
 * `param`, `message` and `requestId`, in one subclass per family, so callers can branch with
 * `instanceof` (or on `code` for the exact cause):
 *
 * | class | statuses |
 * |---|---|
 * | `AuthenticationError` | 401 |
 * | `PermissionDeniedError` | 403 |
 * | `InvalidRequestError` | 400, 402, 405, 413, 415, 422 (the request cannot succeed as sent) |
 * | `NotFoundError` | 404 |
 * | `ConflictError` | 409 |
 * | `RateLimitError` | 429 (with `retryAfter`) |
 * | `APIError` | 5xx and anything else |
 *
 * Failures before an answer are `APIConnectionError` (and `APITimeoutError`).
 */
export class RoomtoneError extends Error {
  override name = 'RoomtoneError';
}

export interface APIErrorBody {
  error?: { code?: string; message?: string; param?: string };
}

export class APIError extends RoomtoneError {
  override name = 'APIError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** Stable error code, e.g. `parameter_invalid` (`unknown_error` if the body had none). */
  readonly code: string;
  /** The refused parameter, when one is to blame (e.g. `layers[0].element`). */
  readonly param: string | undefined;
  /** The `request-id` header: quote it when asking for help. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`), if it said. */
  readonly retryAfter: number | undefined;
  readonly headers: Headers;
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const error = (body as APIErrorBody | null)?.error;
    super(error?.message ?? `The API answered ${status}.`);
    this.status = status;
    this.code = error?.code ?? 'unknown_error';
    this.param = error?.param;
    this.requestId = headers.get('request-id') ?? undefined;
    this.retryAfter = retryAfterSeconds(headers);
    this.headers = headers;
    this.body = body;
  }

  /** The error for an answer of this status, in its family. */
  static from(status: number, body: unknown, headers: Headers): APIError {
    if (status === 401) return new AuthenticationError(status, body, headers);
    if (status === 403) return new PermissionDeniedError(status, body, headers);
    if (status === 404) return new NotFoundError(status, body, headers);
    if (status === 409) return new ConflictError(status, body, headers);
    if (status === 429) return new RateLimitError(status, body, headers);
    if (status >= 400 && status < 500) return new InvalidRequestError(status, body, headers);
    return new APIError(status, body, headers);
  }
}

export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class InvalidRequestError extends APIError {
  override name = 'InvalidRequestError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}

/** No answer: the connection failed or was dropped. */
export class APIConnectionError extends RoomtoneError {
  override name = 'APIConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No answer within `timeout`. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
}

/** The caller's AbortSignal fired. */
export class APIUserAbortError extends RoomtoneError {
  override name = 'APIUserAbortError';
}

/** `waitUntilDone` reached its timeout; the generation goes on (read it again later). */
export class WaitTimeoutError extends RoomtoneError {
  override name = 'WaitTimeoutError';
  constructor(
    message: string,
    /** The generation as last read (still in progress). */
    readonly generation: unknown,
  ) {
    super(message);
  }
}

/** A webhook whose signature or timestamp does not verify. */
export class WebhookVerificationError extends RoomtoneError {
  override name = 'WebhookVerificationError';
}

/** `Retry-After` (seconds or an HTTP date), or `retry-after-ms`; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms) / 1000;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
