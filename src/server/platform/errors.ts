/**
 * The one error type every layer throws for a refusal the client should see.
 * Doors (the /v1 wrapper, MCP tools, the console) render it in the spec's envelope:
 * {"error":{"code","message","param"}} with `status` as the HTTP status.
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
  // Console (sessions, members, sign-up)
  | 'session_missing'
  | 'cross_site_request_refused'
  | 'last_owner'
  | 'already_member'
  | 'invitation_invalid'
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
}

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; param?: string };
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly param: string | undefined;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    options: { param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }

  toBody(): ApiErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
      },
    };
  }
}

/** Shorthand for the most common refusal: 400 parameter_invalid naming the field. */
export function invalidParam(param: string, message: string): ApiError {
  return new ApiError(400, 'parameter_invalid', message, { param });
}

export function notFound(message = 'No such resource.', param?: string): ApiError {
  return new ApiError(404, 'resource_not_found', message, param ? { param } : {});
}
