import { ApiError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { db } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { authenticateBearer, type AuthenticatedKey } from '@/server/keys/keys';
import { tierOf } from '@/server/billing/pricing';
import { hitRateLimit, perIpLimit, type RateDecision } from '@/server/limits/request-rate';
import { recordRequest } from '@/server/requestlog/requestlog';
import { callerFromKey, type TrpcContext } from '@/server/trpc/context';
import { apiErrorFromUnknown } from '@/server/trpc/errors';
import { parseJsonObject, readBodyText } from './body';
import { openApiDocument } from './openapi';
import { callOpenApi } from './openapi-adapter';
import { parseMultipart } from './multipart';
import { randomBase62 } from '@/server/platform/ids';
import { FileParts } from '@/server/creations/images';
import { validateIdempotencyKey } from '@/server/creations/create';
import { MULTIPART_BOOLEAN_FIELDS, MULTIPART_JSON_FIELDS } from '@/server/creations/schemas';

const CREATION_PATHS = new Set(['/v1/renders', '/v1/edits', '/v1/decorations', '/v1/upscales']);

/**
 * A multipart creation as the same JSON input a JSON request would send: text fields as
 * values (layers, metadata, categories parsed from JSON text; background from "true"/"false"),
 * each file part as a per-request reference at its field (image, mask, layers[N].element).
 */
export function multipartToInput(fields: Record<string, string>, files: Record<string, Buffer>, parts: FileParts): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (MULTIPART_JSON_FIELDS.has(name)) {
      try {
        input[name] = JSON.parse(value);
      } catch {
        throw new ApiError(400, 'parameter_invalid', `The ${name} field must hold JSON.`, { param: name });
      }
    } else if (MULTIPART_BOOLEAN_FIELDS.has(name)) {
      if (value !== 'true' && value !== 'false') throw new ApiError(400, 'parameter_invalid', `${name} must be true or false.`, { param: name });
      input[name] = value === 'true';
    } else {
      input[name] = value;
    }
  }
  for (const field of Object.keys(files)) {
    const element = /^layers\[(\d)\]\.element$/.exec(field);
    if (element) {
      const index = Number(element[1]);
      const layers = input.layers;
      const layer = Array.isArray(layers) ? (layers[index] as unknown) : undefined;
      if (typeof layer !== 'object' || layer === null || Array.isArray(layer)) {
        throw new ApiError(400, 'parameter_invalid', `A file was sent for ${field} but layers has no layer ${index}.`, { param: field });
      }
      if ('element' in layer) throw new ApiError(400, 'parameter_invalid', `${field} was sent twice (as a file and in layers).`, { param: field });
      (layer as Record<string, unknown>).element = parts.reference(field);
    } else {
      if (field in input) throw new ApiError(400, 'parameter_invalid', `${field} was sent twice (as a file and as a text field).`, { param: field });
      input[field] = parts.reference(field);
    }
  }
  return input;
}

/** Header the launcher's HTTP server sets from the socket (any client-sent copy is dropped). */
export const CLIENT_IP_HEADER = 'x-roomtone-client-ip';

export function clientIp(req: Request): string | null {
  if (config().TRUST_PROXY) {
    const forwarded = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.headers.get(CLIENT_IP_HEADER);
}

/**
 * What the /v1 door answers, before it becomes bytes: the launcher's node:http server writes it
 * directly, the App Router route wraps it in a Response. (A Response per request was measured
 * as a visible share of a read's CPU: its body stream is built even for a string.)
 */
export interface V1Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The code and message of an error reply, for the request log. */
  errorCode: string | null;
  errorMessage?: string;
}

function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): V1Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), errorCode: null };
}

function errorReply(error: ApiError): V1Reply {
  return { ...jsonReply(error.status, error.toBody(), error.headers), errorCode: error.code, errorMessage: error.message };
}

function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(decision.limit),
    'x-ratelimit-remaining-requests': String(decision.remaining),
    'x-ratelimit-reset-requests': `${decision.resetSeconds}s`,
  };
}

/**
 * The /v1 door. It owns what is HTTP and not business — request-id, browser refusal, rate
 * limits, API key authentication, body limits, the error envelope, the request log — and hands
 * plain input to the same tRPC procedures the console calls, through trpc-to-openapi.
 */
export async function handleV1(req: Request): Promise<Response> {
  const reply = await serveV1(req);
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** handleV1 without the Response: what the launcher's HTTP server calls. */
export async function serveV1(req: Request): Promise<V1Reply> {
  const started = performance.now();
  const receivedAt = Date.now();
  const requestId = newId('req');
  const url = new URL(req.url);
  const ip = clientIp(req);
  let key: AuthenticatedKey | null = null;
  let orgDecision: RateDecision | null = null;
  let response: V1Reply;

  try {
    // Browsers are refused outright: keys belong on servers. Detected by Origin (fetch from
    // Node also sends sec-fetch-mode, so that header proves nothing) and CORS preflights.
    if (req.method === 'OPTIONS' || req.headers.get('origin') !== null) {
      throw new ApiError(403, 'browser_request_refused', 'The API does not accept browser (CORS) requests. Call it from your server; never put a key in a browser.');
    }
    const ipDecision = await hitRateLimit('ip', ip ?? 'unknown', perIpLimit());
    if (!ipDecision.allowed) {
      throw new ApiError(429, 'rate_limit_exceeded', 'Too many requests from this IP address.', { headers: { 'retry-after': String(ipDecision.resetSeconds) } });
    }
    if (req.method === 'GET' && url.pathname === '/v1/openapi.json') {
      response = jsonReply(200, openApiDocument(config().publicBaseUrl));
    } else {
      key = await authenticateBearer(db(), req.headers.get('authorization'));
      orgDecision = await hitRateLimit('org', key.organizationId, tierOf(key.tier).requestsPerMinute);
      if (!orgDecision.allowed) {
        throw new ApiError(429, 'rate_limit_exceeded', `Request rate limit of your tier (${orgDecision.limit}/min) exceeded.`, {
          headers: { 'retry-after': String(orgDecision.resetSeconds) },
        });
      }
      response = await dispatch(req, url, key, requestId, receivedAt);
    }
  } catch (error) {
    const apiError = apiErrorFromUnknown(error);
    response = errorReply(apiError);
  }

  response.headers['request-id'] = requestId;
  if (orgDecision) Object.assign(response.headers, rateHeaders(orgDecision));

  recordRequest({
    id: requestId,
    organizationId: key?.organizationId ?? null,
    apiKeyId: key?.keyId ?? null,
    mode: key?.mode ?? null,
    method: req.method,
    path: url.pathname,
    status: response.status,
    errorCode: response.errorCode,
    errorMessage: response.errorMessage ?? null,
    durationMs: Math.round(performance.now() - started),
    ip,
    createdAt: clock.now(),
  });
  return response;
}

async function dispatch(req: Request, url: URL, key: AuthenticatedKey, requestId: string, receivedAt: number): Promise<V1Reply> {
  const isCreation = req.method === 'POST' && CREATION_PATHS.has(url.pathname);

  // The adapter gets the body we have already read and parsed within the limits.
  let body: Record<string, unknown> | undefined;
  let parts = new FileParts(new Map(), randomBase62(16));
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const contentType = req.headers.get('content-type') ?? '';
    if (/^multipart\/form-data/i.test(contentType)) {
      if (!isCreation) throw new ApiError(400, 'parameter_invalid', 'multipart/form-data is accepted only by the creation routes.');
      const parsed = await parseMultipart(req);
      parts = new FileParts(new Map(Object.entries(parsed.files)), randomBase62(16));
      body = multipartToInput(parsed.fields, parsed.files, parts);
    } else if (contentType === '' || /^application\/json/i.test(contentType)) {
      body = parseJsonObject(await readBodyText(req));
    } else {
      throw new ApiError(400, 'parameter_invalid', `Unsupported Content-Type '${contentType}': send application/json${isCreation ? ' or multipart/form-data' : ''}.`);
    }
  }

  const ctx: TrpcContext = {
    caller: callerFromKey(key),
    channel: 'v1',
    requestId,
    response: { headers: {} },
    parts,
    idempotencyKey: isCreation ? validateIdempotencyKey(req.headers.get('idempotency-key')) : null,
    receivedAt,
  };

  const result = await callOpenApi(req, url, body, ctx);
  if (result.status >= 400 || result.failure) {
    return errorReply(apiErrorFromUnknown(result.failure ?? new ApiError(result.status, 'internal_error', 'Request failed.')));
  }
  return { status: result.status, headers: { ...result.headers, 'content-type': 'application/json' }, body: result.body, errorCode: null };
}
