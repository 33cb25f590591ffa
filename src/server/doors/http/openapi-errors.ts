import type { ApiErrorCode } from '@/server/platform/errors';
import { httpStatusOf } from '@/server/doors/errors';

/**
 * The error codes each /v1 route can answer, for the OpenAPI document (and so the API
 * reference at /docs and the SDK's types). Every code is a real `ApiErrorCode`: a renamed or
 * removed code fails the type check here. Statuses come from the one code → status table.
 */
type Documented = Partial<Record<ApiErrorCode, string>>;

/** Every keyed route: the key, the browser refusal, the request rate, the unexpected. */
const KEYED: Documented = {
  parameter_invalid: 'An unknown or invalid parameter (`param` names it).',
  api_key_missing: 'No `Authorization: Bearer <key>` header.',
  api_key_invalid: 'The key is malformed, unknown or revoked.',
  api_key_ip_not_allowed: 'The key has an IP allowlist and the request came from outside it (the message names the key’s id and the address). An extension to the specification.',
  browser_request_refused: 'The request came from a browser (it carried `Origin`, or was a CORS preflight). Keys belong on a server.',
  permission_denied: 'The key lacks the permission this route needs.',
  rate_limit_exceeded: 'Request rate exceeded (per organization: the tier’s Requests/min; per key: its own limit, if it has one; per IP: 600/min). `Retry-After` gives the seconds to wait.',
  internal_error: 'Unexpected: logged with the request-id. Retry later.',
};

const IMAGES: Documented = {
  parameter_invalid: 'Missing, unknown or invalid field (`param` names it); metadata limits; an image value that is neither an https URL nor a file of the request; a base64 image; a file under another field name or sent twice.',
  image_url_unreachable: 'An image URL could not be downloaded: unreachable or private address, error answer, redirect to http, timeout, expired URL (`param` names the field).',
  image_unreadable: 'An image could not be decoded.',
  image_dimensions_invalid: 'An image is over 8192 pixels a side or 36 million pixels.',
  image_too_large: 'An image is over 10 MB.',
  request_too_large: 'JSON body over 64 KB, multipart text fields over 64 KB, or a body beyond five images of 10 MB.',
  unsupported_image_type: 'Not JPEG, PNG or WebP (recognized from the content), or a URL that does not return an image.',
};

const CREATION: Documented = {
  ...IMAGES,
  insufficient_balance: 'Live mode: the balance does not cover the price. Nothing was charged.',
  monthly_limit_reached: 'Live mode: the generation would pass the organization’s monthly spending limit.',
  api_key_spend_cap_reached: 'Live mode: the generation would pass the monthly spend cap of the key that sent it. Nothing was charged. An extension to the specification.',
  idempotency_key_reused: 'This Idempotency-Key was first used on another door (MCP or the console playground).',
  idempotency_key_mismatch: 'This Idempotency-Key was already used with different parameters.',
  generation_rate_limit_exceeded: 'Generation quota (Generations/min or /h of the tier, per mode) exceeded. `Retry-After` gives the seconds to wait; nothing was created or charged.',
};

const GENERATIVE: Documented = {
  mode_unavailable: 'Live mode: no generative model is configured for this operation, or it is temporarily unavailable. Nothing was charged.',
  overloaded: 'Live mode under heavy load: refused at admission. `Retry-After` 30 to 300 seconds; nothing was charged.',
};

/** Keyed by `METHOD /path` as in the document (paths without /v1). */
export const ROUTE_ERRORS: Record<string, Documented> = {
  'POST /renders': { ...CREATION, ...GENERATIVE, parameter_invalid: `${IMAGES.parameter_invalid} An unknown \`style\`.` },
  'POST /decorations': { ...CREATION, ...GENERATIVE, parameter_invalid: `${IMAGES.parameter_invalid} An unknown \`style\` or category.` },
  'POST /upscales': { ...CREATION, image_dimensions_invalid: 'An image is over 8192 pixels a side or 36 million pixels, or the output would pass 16,384 pixels a side or 64 million pixels.' },
  'POST /edits': {
    ...CREATION,
    ...GENERATIVE,
    parameter_invalid: `${IMAGES.parameter_invalid} A field of the other mode; a colour outside the palette or repeated; a layer holding fields of another action; a non-compliant instruction.`,
    mask_invalid: 'The mask is unreadable or not a PNG.',
    mask_dimensions_mismatch: 'The mask’s proportions differ from the image’s (more than 1%), or its long side is under 512 pixels (or the image’s, if smaller).',
    mask_colors_mismatch: 'A layer’s colour is not painted (`param` names the layer), a painted colour has no layer (`param` is `mask`), or, in prompt mode, the mask does not have exactly one painted colour.',
    resource_not_found: 'Unknown or withdrawn edit material (`param` names the layer).',
    content_policy_violation: 'Live mode: the instruction was refused by moderation. Do not resend it as is; nothing was charged.',
    service_unavailable: 'Live mode: moderation is temporarily unavailable. Resend after `Retry-After` (30 seconds); nothing was charged.',
  },
  'GET /generations/{id}': { resource_not_found: 'Unknown, deleted (13 months after creation) or foreign generation (another organization or mode).' },
  'GET /generations': { parameter_invalid: 'Invalid `limit` (1 to 100), `after` (the id of a generation you listed), `type` or `status` (`param` names it).' },
  'POST /generations/{id}/cancel': {
    resource_not_found: 'Unknown, deleted or foreign generation.',
    generation_not_cancelable: 'Processing has started, or the generation has ended.',
    permission_denied: 'The key lacks `generations_read` or the permission of the generation’s type (renders, edits, decorations or upscales).',
  },
  'GET /styles': {},
  'GET /prices': {},
  'GET /balance': {},
  'POST /events/trigger': {
    parameter_invalid: '`type` is missing or not a test-mode event type (generation.succeeded, generation.failed, generation.canceled).',
    permission_denied: 'The key is a live key (test events are test mode only) or lacks `generations_read`.',
  },
  'GET /edit-material-categories': {},
  'GET /edit-materials': { parameter_invalid: 'Invalid `limit` (1 to 100), `after` (the id of a material you listed), unknown `category`, or `search` over 100 characters (`param` names it).' },
  'GET /events/stream': {
    parameter_invalid: 'An unknown event type in `events` (only generation events exist in test mode), or a malformed `Last-Event-ID`.',
    permission_denied: 'The key is a live key (the stream serves test mode only) or lacks `generations_read`.',
    rate_limit_exceeded: 'Request rate exceeded, or the organization already has 10 streams open. `Retry-After` gives the seconds to wait.',
  },
};

export interface DocumentedError {
  code: ApiErrorCode;
  status: number;
  description: string;
}

/** The codes of one route, the keyed ones first, sorted by status. */
export function routeErrors(method: string, path: string): DocumentedError[] {
  const own = ROUTE_ERRORS[`${method.toUpperCase()} ${path}`];
  if (!own) throw new Error(`no error table for ${method.toUpperCase()} ${path} (src/server/doors/http/openapi-errors.ts)`);
  const merged: Documented = { ...KEYED, ...own };
  return (Object.entries(merged) as [ApiErrorCode, string][])
    .map(([code, description]) => ({ code, status: httpStatusOf(code), description }))
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}
