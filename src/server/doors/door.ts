import { ApiError, shouldRetryHeader } from '@/server/doors/errors';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { db } from '@/server/platform/db';
import { authenticateBearer, type AuthenticatedKey } from '@/server/capabilities/keys/keys';
import { assertIpAllowed } from '@/server/capabilities/keys/fences';
import { tierOf } from '@/server/capabilities/billing/pricing';
import { hitRateLimit, perIpLimit, type RateDecision } from '@/server/capabilities/limits/request-rate';
import { recordRequest } from '@/server/capabilities/requestlog/requestlog';
import { loggedAnswerJson, loggedJson } from '@/server/capabilities/requestlog/redact';
import { requestRateHeaders } from './rate-headers';
import type { RequestHead } from './request-head';

/**
 * The pieces every keyed HTTP door (/v1, /mcp) shares: request-id, browser refusal, the
 * per-IP and per-organization request rates, API key authentication, the error envelope and
 * the request log. Each door strings them together around its own dispatch.
 */

/**
 * What every door answers, before it becomes bytes: the one reply type. The edge server writes
 * it (http/edge-server.ts); a library that answers with a fetch `Response` (tRPC, Auth.js, the
 * MCP SDK, Inngest) is turned into one by `replyOfResponse`.
 */
export interface DoorReply {
  status: number;
  /** Lower-case names; an array for a header sent several times (set-cookie). */
  headers: Record<string, string | string[]>;
  /** A string or bytes are written in one write with a Content-Length; a stream as it comes (Server-Sent Events). */
  body: string | Uint8Array | ReadableStream<Uint8Array>;
  /** The code and message of an error reply, for the request log and the metrics. */
  errorCode?: string | null;
  errorMessage?: string;
  /** The value `body` is the JSON text of, when the door made it: the request log redacts it without parsing the body back. */
  value?: unknown;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): DoorReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), errorCode: null, value: body };
}

/** A refusal in the envelope, with its headers (Retry-After, Allow, x-should-retry) and, given one, the request-id. */
export function errorReply(error: ApiError, requestId?: string): DoorReply {
  const headers: Record<string, string> = { ...error.headers, ...shouldRetryHeader(error) };
  if (requestId !== undefined) headers['request-id'] = requestId;
  return { ...jsonReply(error.status, error.toBody(), headers), errorCode: error.code, errorMessage: error.message };
}

/** A library's fetch Response as a reply: its body read whole, or kept as a stream when `stream` (a streaming route). */
export async function replyOfResponse(response: Response, stream = false): Promise<DoorReply> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = stream && response.body ? response.body : new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body };
}

/** The body of a reply the door made itself (a string), for the request log. */
export function textOf(reply: DoorReply): string | null {
  return typeof reply.body === 'string' ? reply.body : null;
}

/** One request through a door: who is calling, from where, and the request rate decision. */
export interface DoorRequest {
  requestId: string;
  /** ms since epoch: waits count from it. */
  receivedAt: number;
  started: number;
  ip: string | null;
  key: AuthenticatedKey | null;
  orgDecision: RateDecision | null;
  /** The key's own request rate, when it has one (a fence: keys/fences.ts). */
  keyDecision: RateDecision | null;
}

export function beginRequest(ip: string | null, requestId = newId('req')): DoorRequest {
  return { requestId, receivedAt: Date.now(), started: performance.now(), ip, key: null, orgDecision: null, keyDecision: null };
}

/**
 * Browsers are refused outright: keys belong on servers. Detected by Origin (fetch from Node
 * also sends sec-fetch-mode, so that header proves nothing) and CORS preflights.
 */
export function refuseBrowsers(req: RequestHead): void {
  if (req.method === 'OPTIONS' || req.headers.get('origin') !== null) {
    throw new ApiError('browser_request_refused', 'The API does not accept browser (CORS) requests. Call it from your server; never put a key in a browser.');
  }
}

/** The per-IP rate, counted before the key is checked (`hits` messages at once for MCP batches). */
export async function limitIp(door: DoorRequest, hits = 1): Promise<void> {
  let decision: RateDecision | null = null;
  for (let i = 0; i < hits; i++) {
    // Usually decided at once (this process's slice): awaited only when it is not, since each
    // await is one more promise for the process's async hooks to follow.
    const hit = hitRateLimit('ip', door.ip ?? 'unknown', perIpLimit());
    decision = hit instanceof Promise ? await hit : hit;
  }
  if (decision && !decision.allowed) {
    throw new ApiError('rate_limit_exceeded', 'Too many requests from this IP address.', { headers: { 'retry-after': String(decision.resetSeconds) } });
  }
}

/**
 * The Bearer key (401 otherwise), its IP allowlist (403 api_key_ip_not_allowed, logged under
 * the key), its own request rate if it has one, then the organization's (429 otherwise).
 * `revocationCheckedByCaller`: the caller proves the key unrevoked itself (authenticateBearer).
 */
export async function authenticate(req: RequestHead, door: DoorRequest, hits = 1, revocationCheckedByCaller = false): Promise<AuthenticatedKey> {
  const key = await authenticateBearer(db(), req.headers.get('authorization'), { revocationCheckedByCaller, ip: door.ip });
  door.key = key;
  assertIpAllowed(key, door.ip);
  // The key's rate first: a key at its own limit does not spend the organization's allowance.
  if (key.requestsPerMinute !== null) {
    for (let i = 0; i < hits; i++) {
      const hit = hitRateLimit('key', key.keyId, key.requestsPerMinute);
      door.keyDecision = hit instanceof Promise ? await hit : hit;
    }
    const decision = door.keyDecision;
    if (decision && !decision.allowed) {
      throw new ApiError('rate_limit_exceeded', `Request rate limit of this API key (${decision.limit}/min) exceeded.`, {
        headers: { 'retry-after': String(decision.resetSeconds) },
      });
    }
  }
  for (let i = 0; i < hits; i++) {
    const hit = hitRateLimit('org', key.organizationId, tierOf(key.tier).requestsPerMinute);
    door.orgDecision = hit instanceof Promise ? await hit : hit;
  }
  const decision = door.orgDecision;
  if (decision && !decision.allowed) {
    throw new ApiError('rate_limit_exceeded', `Request rate limit of your tier (${decision.limit}/min) exceeded.`, {
      headers: { 'retry-after': String(decision.resetSeconds) },
    });
  }
  return key;
}

/** request-id and x-ratelimit-*-requests on the reply. */
export function finishReply(door: DoorRequest, reply: DoorReply): DoorReply {
  reply.headers['request-id'] = door.requestId;
  // The limit that binds first: the key's own or the organization's, whichever has less left.
  const decision = door.keyDecision && (!door.orgDecision || door.keyDecision.remaining <= door.orgDecision.remaining) ? door.keyDecision : door.orgDecision;
  if (decision) Object.assign(reply.headers, requestRateHeaders(decision));
  return reply;
}

/** One line of the request log (console "Requests" screen). */
export function logRequest(
  door: DoorRequest,
  line: {
    id?: string;
    method: string;
    path: string;
    status: number;
    errorCode: string | null;
    errorMessage?: string | null;
    requestParams?: unknown;
    /** The answer's body to keep (redacted), and the value it is the JSON of if known. */
    responseBody?: string | null;
    responseValue?: unknown;
  },
): void {
  recordRequest({
    id: line.id ?? door.requestId,
    organizationId: door.key?.organizationId ?? null,
    apiKeyId: door.key?.keyId ?? null,
    mode: door.key?.mode ?? null,
    method: line.method,
    path: line.path,
    status: line.status,
    errorCode: line.errorCode,
    errorMessage: line.errorMessage ?? null,
    durationMs: Math.round(performance.now() - door.started),
    ip: door.ip,
    createdAt: clock.nowMs(),
    ...loggedBodies(line),
  });
}

/** The redacted parameters and answer of a line; only lines of an identified organization keep them (nobody else reads them). */
function loggedBodies(line: { requestParams?: unknown; responseBody?: string | null; responseValue?: unknown }): { requestParams: string | null; responseBody: string | null } {
  const requestParams = loggedJson(line.requestParams);
  if (!line.responseBody) return { requestParams, responseBody: null };
  // The door's own answers come with the value they are the JSON of (the common case, and a cheap one).
  if (line.responseValue !== undefined) return { requestParams, responseBody: loggedAnswerJson(line.responseBody, line.responseValue) };
  let answer: unknown;
  try {
    answer = JSON.parse(line.responseBody);
  } catch {
    answer = { text: line.responseBody.slice(0, 500) };
  }
  return { requestParams, responseBody: loggedJson(answer) };
}
