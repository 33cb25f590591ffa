import { TRPCError } from '@trpc/server';
import { $ZodError, type $ZodIssue } from 'zod/v4/core';
import { DomainError, errorBody, type ApiErrorBody, type ApiErrorCode } from '@/server/platform/errors';
import { REQUIRED_MARKER } from '@/server/platform/zod-required';
import { log } from '@/server/platform/logger';
import { isDatabaseUnavailable } from '@/server/platform/db';
import { paramFromPath } from '@/shared/param-path';
import { StorageUnavailableError } from '@/server/capabilities/storage/blob-store';

/**
 * The doors' one error mapping: the refusal every door renders (`ApiError`), the one table from
 * error code to HTTP status, and `apiErrorFromUnknown`, which turns whatever a request raised
 * (a `DomainError` of business code, a zod issue, a tRPC error, an outage) into one. A door
 * names a code, never a status: the status comes from the table.
 */

/**
 * The one map from error code to HTTP status. Business code throws `DomainError` (code,
 * message, param, retryAfterSeconds) and never chooses a status; a code with no entry here is
 * a bug and answers 500.
 */
const STATUS: Record<ApiErrorCode, number> = {
  parameter_invalid: 400,
  mask_invalid: 400,
  mask_dimensions_mismatch: 400,
  mask_colors_mismatch: 400,
  image_url_unreachable: 400,
  image_unreadable: 400,
  image_dimensions_invalid: 400,
  api_key_missing: 401,
  api_key_invalid: 401,
  session_missing: 401,
  second_factor_required: 401,
  insufficient_balance: 402,
  monthly_limit_reached: 402,
  api_key_spend_cap_reached: 402,
  browser_request_refused: 403,
  api_key_ip_not_allowed: 403,
  permission_denied: 403,
  url_invalid: 403,
  signup_disabled: 403,
  email_unverified: 403,
  cross_site_request_refused: 403,
  two_factor_enrolment_required: 403,
  resource_not_found: 404,
  route_not_found: 404,
  invitation_invalid: 404,
  method_not_allowed: 405,
  generation_not_cancelable: 409,
  idempotency_key_reused: 409,
  idempotency_key_mismatch: 409,
  webhook_endpoint_limit_reached: 409,
  webhook_endpoint_disabled: 409,
  last_owner: 409,
  already_member: 409,
  invitation_used: 409,
  two_factor_already_enabled: 409,
  two_factor_not_enabled: 409,
  image_too_large: 413,
  request_too_large: 413,
  unsupported_image_type: 415,
  content_type_unsupported: 415,
  expectation_unsupported: 417,
  content_policy_violation: 422,
  rate_limit_exceeded: 429,
  generation_rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  mode_unavailable: 503,
  overloaded: 503,
};

export function httpStatusOf(code: ApiErrorCode): number {
  return STATUS[code] ?? 500;
}

/**
 * Refusals of Node's HTTP parser, answered on the raw socket before any request exists
 * (http/edge-checks.ts): the status HTTP gives each, with the envelope's code. Kept here so
 * every status a door answers is in this module.
 */
export const PARSER_REFUSALS = {
  malformed: { status: 400, code: 'parameter_invalid', message: 'The request could not be parsed as HTTP/1.1.' },
  headersTooLarge: { status: 431, code: 'request_too_large', message: 'The request headers are too large.' },
  connect: { status: 405, code: 'method_not_allowed', message: 'Method CONNECT is not supported.' },
  timeout: { status: 408, code: 'parameter_invalid', message: 'The request was not received in time.' },
} as const satisfies Record<string, { status: number; code: ApiErrorCode; message: string }>;

/**
 * A refusal as a door renders it: the code's status (from the table) and extra headers
 * (Retry-After, Allow) beside the spec's envelope. Only the doors build one; business code throws `DomainError`
 * and `toHttpError` gives it its status.
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
    code: ApiErrorCode,
    message: string,
    options: { param?: string; headers?: Record<string, string>; requestId?: string } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = httpStatusOf(code);
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

/** A domain error as the HTTP error the doors render (status from the table, Retry-After). */
export function toHttpError(error: DomainError): ApiError {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfterSeconds)));
  return new ApiError(error.code, error.message, {
    ...(error.param !== undefined ? { param: error.param } : {}),
    headers,
  });
}

function messageFor(issue: $ZodIssue, param: string): string {
  if (issue.message === REQUIRED_MARKER && param) return `${param} is required.`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `Unknown parameter '${param}'.`;
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return `${param} is required.`;
      return `Invalid type for '${param}': expected ${issue.expected === 'record' ? 'object' : issue.expected}.`;
    case 'invalid_value':
      return `Invalid value for '${param}': expected one of ${issue.values.map((v) => String(v)).join(', ')}.`;
    default:
      return param ? `Invalid '${param}': ${issue.message}` : issue.message;
  }
}

/** The first zod issue as 400 parameter_invalid, naming the parameter. */
export function apiErrorFromZodIssues(issues: readonly $ZodIssue[]): ApiError {
  const issue = issues[0];
  if (!issue) return new ApiError('parameter_invalid', 'Invalid request.');
  let path: PropertyKey[] = [...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys[0]) path = [...path, issue.keys[0]];
  // Errors raised by nested unions point at the most specific branch.
  if (issue.code === 'invalid_union' && issue.errors[0]?.[0]) {
    const inner = issue.errors.flat()[0];
    if (inner) return apiErrorFromZodIssues([{ ...inner, path: [...issue.path, ...inner.path] }]);
  }
  const param = paramFromPath(path);
  return new ApiError('parameter_invalid', messageFor(issue, param), param ? { param } : {});
}

/** Retry-After of a 503 while the database is unreachable: outages of a restart or a failover last seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 10;

let lastUnavailableWarning = 0;

/** One line every 10 s at most: during an outage every request fails the same way. */
function warnDatabaseUnavailable(error: unknown, context: ErrorContext): void {
  const now = Date.now();
  if (now - lastUnavailableWarning < 10_000) return;
  lastUnavailableWarning = now;
  log.warn('database unavailable: answering 503 service_unavailable', { ...context, error: error instanceof Error ? error.message : String(error) });
}

/** Retry-After of a 503 while the blob store fails. */
export const STORAGE_RETRY_AFTER_SECONDS = 10;

let lastStorageWarning = 0;

function isStorageUnavailable(error: unknown): boolean {
  return error instanceof StorageUnavailableError;
}

/** One line every 10 s at most, like the database's. */
function warnStorageUnavailable(error: unknown, context: ErrorContext): void {
  const now = Date.now();
  if (now - lastStorageWarning < 10_000) return;
  lastStorageWarning = now;
  log.warn('storage unavailable: answering 503 service_unavailable', { ...context, error: error instanceof Error ? error.message : String(error) });
}

/** Where an error reached a door: logged with it. */
export interface ErrorContext {
  requestId?: string;
  /** e.g. `POST /v1/upscales`. */
  route?: string;
}

/**
 * Whatever went wrong, as an ApiError; anything unexpected is logged once (with the request
 * id, route and stack the door gives) and becomes a 500 internal_error.
 */
export function apiErrorFromUnknown(error: unknown, context: ErrorContext = {}): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return toHttpError(error);
  if (error instanceof TRPCError) {
    if (error.cause instanceof ApiError) return error.cause;
    if (error.cause instanceof DomainError) return toHttpError(error.cause);
    if (error.cause instanceof $ZodError) return apiErrorFromZodIssues(error.cause.issues);
    switch (error.code) {
      case 'NOT_FOUND':
        return new ApiError('route_not_found', 'Unrecognized request URL.');
      case 'PARSE_ERROR':
        return new ApiError('parameter_invalid', 'The request body is not valid JSON.');
      case 'PAYLOAD_TOO_LARGE':
        return new ApiError('request_too_large', 'The request body is too large.');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new ApiError('parameter_invalid', 'Send application/json (or multipart/form-data for creations with files).');
      case 'METHOD_NOT_SUPPORTED':
        return new ApiError('method_not_allowed', 'Method not allowed on this route.');
      case 'BAD_REQUEST':
        return new ApiError('parameter_invalid', error.message);
      default:
        break;
    }
    error = error.cause ?? error;
  }
  // The database is down or unreachable: not a bug in the request. Every write of the request
  // ran in a transaction that did not commit, so nothing was created or charged.
  if (isDatabaseUnavailable(error)) {
    warnDatabaseUnavailable(error, context);
    return new ApiError('service_unavailable', 'The service cannot reach its database right now; nothing was charged. Retry after the delay given.', {
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  // The blob store refused a write or read, or did not answer: intake stores inputs before
  // anything is created or charged, so nothing was.
  if (isStorageUnavailable(error)) {
    warnStorageUnavailable(error, context);
    return new ApiError('service_unavailable', 'The service cannot reach its file storage right now; nothing was created or charged. Retry after the delay given.', {
      headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
    });
  }
  // Database saturated (no pooled connection or transaction slot in time): that is load, not a
  // bug. The transaction rolled back, so nothing was created or charged.
  const prismaCode = (error as { code?: unknown } | null)?.code;
  if (prismaCode === 'P2024' || prismaCode === 'P2028') {
    log.warn('database saturated', { code: prismaCode, ...context });
    return new ApiError('overloaded', 'The service is under heavy load; nothing was charged. Retry after the delay given.', { headers: { 'retry-after': '30' } });
  }
  log.error('unexpected error', { ...context, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new ApiError('internal_error', 'An unexpected error occurred. It has been logged; try again later.');
}
