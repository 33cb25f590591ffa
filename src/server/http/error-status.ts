import type { ApiErrorCode, DomainError } from '@/server/platform/errors';
import { ApiError } from './api-error';

/**
 * The one map from error code to HTTP status, used by the doors that speak HTTP. Business
 * code throws `DomainError` (code, message, param, retryAfterSeconds) and never chooses a
 * status; a code with no entry here is a bug and answers 500.
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

/** A domain error as the HTTP error the doors render (status from the table, Retry-After). */
export function toHttpError(error: DomainError): ApiError {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfterSeconds)));
  return new ApiError(httpStatusOf(error.code), error.code, error.message, {
    ...(error.param !== undefined ? { param: error.param } : {}),
    headers,
  });
}
