import { ApiError } from '@/server/http/api-error';
import { withLogContext } from '@/server/platform/logger';
import { observeV1Reply } from '@/server/observability/metrics';
import { clientIp } from './client-ip';
import { config } from '@/server/platform/config';
import type { AuthenticatedKey } from '@/server/keys/keys';
import { callerFromKey, type TrpcContext } from '@/server/trpc/context';
import { apiErrorFromUnknown } from '@/server/trpc/errors';
import { parseJsonObject, readBodyText } from './body';
import { authenticate, beginRequest, errorReply, finishReply, jsonReply, limitIp, logRequest, refuseBrowsers, type DoorReply } from './door';
import { openApiDocument } from './openapi';
import { directRead } from './v1-reads';
import type { IncomingHead } from './request-head';
import { callOpenApi } from './openapi-adapter';
import { parseMultipart } from './multipart';
import { randomBase62 } from '@/server/platform/ids';
import { FileParts } from '@/server/creations/images';
import { validateIdempotencyKey } from '@/server/creations/create';
import { MULTIPART_BOOLEAN_FIELDS, MULTIPART_JSON_FIELDS } from '@/shared/creations/schemas';

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

/** What the /v1 door answers, before it becomes bytes (shared with /mcp: http/door.ts). */
export type V1Reply = DoorReply;

/**
 * The /v1 door. It owns what is HTTP and not business — request-id, browser refusal, rate
 * limits, API key authentication, body limits, the error envelope, the request log — and hands
 * plain input to the same tRPC procedures the console calls, through trpc-to-openapi.
 */
export async function serveV1(req: IncomingHead, requestId?: string): Promise<V1Reply> {
  const door = beginRequest(clientIp(req), requestId);
  const url = new URL(req.url);
  let response: V1Reply;
  // What the request asked, for the log (redacted there): its query and parsed body.
  const asked: { params: Record<string, unknown> | null } = { params: url.search ? { query: Object.fromEntries(url.searchParams) } : null };

  try {
    refuseBrowsers(req);
    await limitIp(door);
    if (req.method === 'GET' && url.pathname === '/v1/openapi.json') {
      response = jsonReply(200, openApiDocument(config().publicBaseUrl));
    } else {
      const read = req.method === 'GET' ? directRead(url) : null;
      // A direct read proves the key unrevoked in its own query (v1-reads.ts): no barrier.
      const key = await authenticate(req, door, 1, read !== null);
      // A read writes no log line of its own (a failure is logged below, with the request id),
      // so it runs outside the log context: AsyncLocalStorage adds to every promise inside it.
      if (read) response = jsonReply(200, await read(callerFromKey(key), key, door.ip));
      else response = await withLogContext({ requestId: door.requestId, organizationId: key.organizationId }, () => dispatch(req.request(), url, key, door.requestId, door.receivedAt, asked));
    }
  } catch (error) {
    response = errorReply(apiErrorFromUnknown(error, { requestId: door.requestId, route: `${req.method} ${url.pathname}` }));
  }

  finishReply(door, response);
  observeV1Reply(req.method, url.pathname, response.status, response.errorCode);
  logRequest(door, {
    method: req.method,
    path: url.pathname,
    status: response.status,
    errorCode: response.errorCode,
    errorMessage: response.errorMessage ?? null,
    requestParams: asked.params,
    // Only for an identified organization's line: nobody else reads it.
    responseBody: door.key ? response.body : null,
    responseValue: response.value,
  });
  return response;
}

async function dispatch(req: Request, url: URL, key: AuthenticatedKey, requestId: string, receivedAt: number, asked: { params: Record<string, unknown> | null }): Promise<V1Reply> {
  const isCreation = req.method === 'POST' && CREATION_PATHS.has(url.pathname);
  const idempotencyKey = req.headers.get('idempotency-key');
  if (isCreation && idempotencyKey) asked.params = { ...asked.params, idempotency_key: idempotencyKey.slice(0, 255) };

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

  if (body !== undefined) asked.params = { ...asked.params, body };
  const ctx: TrpcContext = {
    caller: callerFromKey(key),
    channel: 'v1',
    requestId,
    response: { headers: {} },
    parts,
    idempotencyKey: isCreation ? validateIdempotencyKey(req.headers.get('idempotency-key')) : null,
    receivedAt,
    creationWaitMs: config().SYNC_WAIT_MS,
  };

  const result = await callOpenApi(req, url, body, ctx);
  if (result.status >= 400 || result.failure) {
    return errorReply(apiErrorFromUnknown(result.failure ?? new ApiError(result.status, 'internal_error', 'Request failed.'), { requestId, route: `${req.method} ${url.pathname}` }));
  }
  return { status: result.status, headers: { ...result.headers, 'content-type': 'application/json' }, body: result.body, errorCode: null };
}
