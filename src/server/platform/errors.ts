/**
 * Every refusal the client should see has a stable code (the spec's error table). Business
 * code throws `DomainError` with one of these; the doors render it in the spec's envelope
 * {"error":{"code","message","param"}} (the HTTP doors with the status of doors/errors.ts).
 */
export type ApiErrorCode =
  | 'parameter_invalid'
  | 'mask_invalid'
  | 'mask_dimensions_mismatch'
  | 'mask_colors_mismatch'
  | 'image_url_unreachable'
  | 'image_unreadable'
  | 'image_dimensions_invalid'
  | 'api_key_missing'
  | 'api_key_invalid'
  | 'browser_request_refused'
  | 'permission_denied'
  | 'insufficient_balance'
  | 'monthly_limit_reached'
  | 'resource_not_found'
  | 'route_not_found'
  | 'url_invalid'
  | 'method_not_allowed'
  | 'generation_not_cancelable'
  | 'idempotency_key_reused'
  | 'idempotency_key_mismatch'
  | 'image_too_large'
  | 'request_too_large'
  | 'unsupported_image_type'
  | 'content_policy_violation'
  | 'rate_limit_exceeded'
  | 'generation_rate_limit_exceeded'
  | 'service_unavailable'
  | 'mode_unavailable'
  | 'overloaded'
  | 'webhook_endpoint_limit_reached'
  | 'webhook_endpoint_disabled'
  | 'internal_error'
  // The HTTP edge: a request body type no route takes (415), an Expect header other than 100-continue (417)
  | 'content_type_unsupported'
  | 'expectation_unsupported'
  // Key fences (keys/fences.ts): not among the spec's codes, which stay as they are
  | 'api_key_ip_not_allowed'
  | 'api_key_spend_cap_reached'
  // Console (sessions, members, sign-up)
  | 'session_missing'
  | 'cross_site_request_refused'
  | 'last_owner'
  | 'already_member'
  | 'invitation_invalid'
  | 'invitation_used'
  | 'signup_disabled'
  | 'email_unverified'
  // Two-factor sign-in
  | 'second_factor_required'
  | 'two_factor_enrolment_required'
  | 'two_factor_already_enabled'
  | 'two_factor_not_enabled';

/**
 * What business code throws: a code, a message, the parameter at fault and, for refusals
 * that pass with time, how long to wait. No HTTP here: the doors map each code to a status
 * once (`httpStatusOf`), MCP to a tool error, the console to a tRPC error.
 */
export class DomainError extends Error {
  readonly code: ApiErrorCode;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ApiErrorCode, message: string, options: { param?: string; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): ApiErrorBody {
    return errorBody(this.code, this.message, this.param);
  }
}

/** The spec's error envelope, the same on every door (and in the CLI's JSON output). */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; param?: string };
}

export function errorBody(code: ApiErrorCode, message: string, param: string | undefined): ApiErrorBody {
  return { error: { code, message, ...(param !== undefined ? { param } : {}) } };
}

/** Shorthand for the most common refusal: parameter_invalid naming the field. */
export function invalidParam(param: string, message: string): DomainError {
  return new DomainError('parameter_invalid', message, { param });
}

export function notFound(message = 'No such resource.', param?: string): DomainError {
  return new DomainError('resource_not_found', message, param ? { param } : {});
}
