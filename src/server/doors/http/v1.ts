import { ApiError, apiErrorFromUnknown } from '@/server/doors/errors';
import { withLogContext } from '@/server/platform/logger';
import { observeV1Reply } from '@/server/capabilities/observability/metrics';
import { clientIp } from '@/server/doors/client-ip';
import { config } from '@/server/platform/config';
import type { AuthenticatedKey } from '@/server/capabilities/keys/keys';
import { callerFromKey, type TrpcContext } from '@/server/doors/trpc/context';
import { parseJsonObject, readBodyText } from '@/server/doors/body';
import { authenticate, beginRequest, errorReply, finishReply, jsonReply, limitIp, logRequest, refuseBrowsers, textOf, type DoorReply, type DoorRequest } from '@/server/doors/door';
import { openApiDocument } from './openapi';
import { requestTarget, type IncomingHead, type RequestTarget } from './request-head';
import { findOperation, queryInput, routeNotFound, runOperation, type FoundOperation } from './v1-operations';
import { parseMultipart } from './multipart';
import { randomBase62 } from '@/server/platform/ids';
import { FileParts } from '@/server/capabilities/creations/images';
import { validateIdempotencyKey } from '@/server/capabilities/creations/create';
import { MULTIPART_BOOLEAN_FIELDS, MULTIPART_JSON_FIELDS } from '@/shared/creations/schemas';

const CREATION_PATHS = new Set(['/v1/renders', '/v1/edits', '/v1/decorations', '/v1/upscales']);
const NO_PARTS = new FileParts(new Map(), '');

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
        throw new ApiError('parameter_invalid', `The ${name} field must hold JSON.`, { param: name });
      }
    } else if (MULTIPART_BOOLEAN_FIELDS.has(name)) {
      if (value !== 'true' && value !== 'false') throw new ApiError('parameter_invalid', `${name} must be true or false.`, { param: name });
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
        throw new ApiError('parameter_invalid', `A file was sent for ${field} but layers has no layer ${index}.`, { param: field });
      }
      if ('element' in layer) throw new ApiError('parameter_invalid', `${field} was sent twice (as a file and in layers).`, { param: field });
      (layer as Record<string, unknown>).element = parts.reference(field);
    } else {
      if (field in input) throw new ApiError('parameter_invalid', `${field} was sent twice (as a file and as a text field).`, { param: field });
      input[field] = parts.reference(field);
    }
  }
  return input;
}

/**
 * The /v1 door. It owns what is HTTP and not business — request-id, browser refusal, rate
 * limits, API key authentication, body limits, the error envelope, the request log — and hands
 * plain input to the same procedures the console and MCP call (http/v1-operations.ts).
 */
export async function serveV1(req: IncomingHead, requestId?: string): Promise<DoorReply> {
  const door = beginRequest(clientIp(req), requestId);
  const url = requestTarget(req.url);
  let response: DoorReply;
  // What the request asked, for the log (redacted there): its query and parsed body.
  const asked: { params: Record<string, unknown> | null } = { params: url.search ? { query: Object.fromEntries(url.searchParams) } : null };

  try {
    refuseBrowsers(req);
    await limitIp(door);
    if (req.method === 'GET' && url.pathname === '/v1/openapi.json') {
      response = jsonReply(200, openApiDocument(config().publicBaseUrl));
    } else {
      const found = findOperation(req.method, url.pathname);
      // A read that proves the key unrevoked in its own query needs no barrier (keys/revocation-proof.ts).
      const key = await authenticate(req, door, 1, found?.operation.meta.provesKey === true);
      // A read writes no log line of its own (a failure is logged below, with the request id),
      // so it runs outside the log context: AsyncLocalStorage adds to every promise inside it.
      if (found?.operation.type === 'query') response = await dispatch(req, url, found, key, door, asked);
      else response = await withLogContext({ requestId: door.requestId, organizationId: key.organizationId }, () => dispatch(req, url, found, key, door, asked));
    }
  } catch (error) {
    response = errorReply(apiErrorFromUnknown(error, { requestId: door.requestId, route: `${req.method} ${url.pathname}` }));
  }

  finishReply(door, response);
  observeV1Reply(req.method, url.pathname, response.status, response.errorCode ?? null);
  logRequest(door, {
    method: req.method,
    path: url.pathname,
    status: response.status,
    errorCode: response.errorCode ?? null,
    errorMessage: response.errorMessage ?? null,
    requestParams: asked.params,
    // Only for an identified organization's line: nobody else reads it.
    responseBody: door.key ? textOf(response) : null,
    responseValue: response.value,
  });
  return response;
}

async function dispatch(
  head: IncomingHead,
  url: RequestTarget,
  found: FoundOperation | null,
  key: AuthenticatedKey,
  door: DoorRequest,
  asked: { params: Record<string, unknown> | null },
): Promise<DoorReply> {
  const isCreation = head.method === 'POST' && CREATION_PATHS.has(url.pathname);
  const idempotencyKey = head.headers.get('idempotency-key');
  if (isCreation && idempotencyKey) asked.params = { ...asked.params, idempotency_key: idempotencyKey.slice(0, 255) };

  // Any body is read and parsed within the limits (before the route is judged: an oversized or
  // malformed body is refused as such). GET and DELETE operations take the query, the others the body.
  let body: Record<string, unknown> | undefined;
  let parts: FileParts | null = null;
  if (head.method !== 'GET' && head.method !== 'HEAD') {
    const req = head.request();
    const contentType = req.headers.get('content-type') ?? '';
    if (/^multipart\/form-data/i.test(contentType)) {
      if (!isCreation) throw new ApiError('parameter_invalid', 'multipart/form-data is accepted only by the creation routes.');
      const parsed = await parseMultipart(req);
      parts = new FileParts(new Map(Object.entries(parsed.files)), randomBase62(16));
      body = multipartToInput(parsed.fields, parsed.files, parts);
    } else if (contentType === '' || /^application\/json/i.test(contentType)) {
      body = parseJsonObject(await readBodyText(req));
    } else {
      throw new ApiError('parameter_invalid', `Unsupported Content-Type '${contentType}': send application/json${isCreation ? ' or multipart/form-data' : ''}.`);
    }
    asked.params = { ...asked.params, body };
  }
  if (!found) {
    // HEAD matches no operation (none is declared): an empty answer, not a 404.
    if (head.method === 'HEAD') return { status: 204, headers: { 'content-type': 'application/json' }, body: '', errorCode: null };
    throw routeNotFound();
  }
  const input = body === undefined || head.method === 'DELETE' ? queryInput(url.searchParams) : body;

  const ctx: TrpcContext = {
    caller: callerFromKey(key),
    channel: 'v1',
    requestId: door.requestId,
    response: { headers: {} },
    // A read resolves no file: only a body gets a per-request token (a reference cannot be guessed).
    parts: parts ?? (found.operation.type === 'query' ? NO_PARTS : new FileParts(new Map(), randomBase62(16))),
    idempotencyKey: isCreation ? validateIdempotencyKey(idempotencyKey) : null,
    receivedAt: door.receivedAt,
    creationWaitMs: config().SYNC_WAIT_MS,
  };
  const data = await runOperation(found, ctx, input, key, door.ip);
  return jsonReply(ctx.response.status ?? 200, data, ctx.response.headers);
}
