import { TRPCError } from '@trpc/server';
import { REQUIRED_MARKER } from '@/server/platform/zod-required';
import { $ZodError, type $ZodIssue } from 'zod/v4/core';
import { DomainError } from '@/server/platform/errors';
import { ApiError } from '@/server/http/api-error';
import { toHttpError } from '@/server/http/error-status';
import { log } from '@/server/platform/logger';
import { paramFromPath } from '@/shared/param-path';
import { isDatabaseUnavailable } from '@/server/platform/db';
import { StorageUnavailableError } from '@/server/storage/blob-store';

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
  if (!issue) return new ApiError(400, 'parameter_invalid', 'Invalid request.');
  let path: PropertyKey[] = [...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys[0]) path = [...path, issue.keys[0]];
  // Errors raised by nested unions point at the most specific branch.
  if (issue.code === 'invalid_union' && issue.errors[0]?.[0]) {
    const inner = issue.errors.flat()[0];
    if (inner) return apiErrorFromZodIssues([{ ...inner, path: [...issue.path, ...inner.path] }]);
  }
  const param = paramFromPath(path);
  return new ApiError(400, 'parameter_invalid', messageFor(issue, param), param ? { param } : {});
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
  return error instanceof StorageUnavailableError || (error instanceof Error && error.name === 'StorageUnavailableError');
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
        return new ApiError(404, 'route_not_found', 'Unrecognized request URL.');
      case 'PARSE_ERROR':
        return new ApiError(400, 'parameter_invalid', 'The request body is not valid JSON.');
      case 'PAYLOAD_TOO_LARGE':
        return new ApiError(413, 'request_too_large', 'The request body is too large.');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new ApiError(400, 'parameter_invalid', 'Send application/json (or multipart/form-data for creations with files).');
      case 'METHOD_NOT_SUPPORTED':
        return new ApiError(405, 'method_not_allowed', 'Method not allowed on this route.');
      case 'BAD_REQUEST':
        return new ApiError(400, 'parameter_invalid', error.message);
      default:
        break;
    }
    error = error.cause ?? error;
  }
  // The database is down or unreachable: not a bug in the request. Every write of the request
  // ran in a transaction that did not commit, so nothing was created or charged.
  if (isDatabaseUnavailable(error)) {
    warnDatabaseUnavailable(error, context);
    return new ApiError(503, 'service_unavailable', 'The service cannot reach its database right now; nothing was charged. Retry after the delay given.', {
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  // The blob store refused a write or read, or did not answer: intake stores inputs before
  // anything is created or charged, so nothing was.
  if (isStorageUnavailable(error)) {
    warnStorageUnavailable(error, context);
    return new ApiError(503, 'service_unavailable', 'The service cannot reach its file storage right now; nothing was created or charged. Retry after the delay given.', {
      headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
    });
  }
  // Database saturated (no pooled connection or transaction slot in time): that is load, not a
  // bug. The transaction rolled back, so nothing was created or charged.
  const prismaCode = (error as { code?: unknown } | null)?.code;
  if (prismaCode === 'P2024' || prismaCode === 'P2028') {
    log.warn('database saturated', { code: prismaCode, ...context });
    return new ApiError(503, 'overloaded', 'The service is under heavy load; nothing was charged. Retry after the delay given.', { headers: { 'retry-after': '30' } });
  }
  log.error('unexpected error', { ...context, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new ApiError(500, 'internal_error', 'An unexpected error occurred. It has been logged; try again later.');
}
