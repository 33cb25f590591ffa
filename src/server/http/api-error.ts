import { errorBody, type ApiErrorBody, type ApiErrorCode } from '@/server/platform/errors';

/**
 * A refusal as an HTTP door renders it: the status and extra headers (Retry-After, Allow)
 * beside the spec's envelope. Only the doors build one; business code throws `DomainError`
 * and `toHttpError` (error-status.ts) gives it its status.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly param: string | undefined;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;
  /** The request-log line of a door that logs its own requests (the console playground), shown behind the message's details. */
  readonly requestId: string | undefined;

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    options: { param?: string; headers?: Record<string, string>; requestId?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
    this.requestId = options.requestId;
  }

  toBody(): ApiErrorBody {
    return errorBody(this.code, this.message, this.param);
  }
}

/**
 * Refusals that no retry can turn into a success while the installation's configuration stays
 * as it is (no model backend for the operation): `x-should-retry: false`, as OpenAI's API says it.
 */
const PERMANENT_CODES: ReadonlySet<string> = new Set(['mode_unavailable']);

/**
 * Whether a client should retry, said outright (`x-should-retry`, read by the SDK before its own
 * status rules): `true` when the server gave a Retry-After (the refusal passes with time), `false`
 * for configuration refusals; absent otherwise.
 */
export function shouldRetryHeader(error: ApiError): Record<string, string> {
  if (error.headers['retry-after'] !== undefined) return { 'x-should-retry': 'true' };
  if (PERMANENT_CODES.has(error.code)) return { 'x-should-retry': 'false' };
  return {};
}
