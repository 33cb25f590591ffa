import http from 'node:http';
import next from 'next';
import { serveV1 } from '@/server/http/v1';
import { serveEventStream } from '@/server/http/event-stream';
import { EVENT_STREAM_PATH } from '@/server/webhooks/event-stream';
import { serveMcp } from '@/server/mcp/endpoint';
import { serveUploadPut } from '@/server/http/upload-put';
import { stampIncomingRequest } from '@/server/http/incoming-request';
import { discardRequestBody, requestBodyStream } from '@/server/http/request-body';
import { answerClientError, checkTarget, errorDoorReply, fixedOrigin, writeDoorReply, type DoorReply } from '@/server/http/front-door';
import { serveSignedFile, serveSwatch } from '@/server/http/public-files';
import { serveMetrics, serveReadiness } from '@/server/http/ops';
import { observeHttp } from '@/server/observability/metrics';
import { ApiError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { apiErrorFromUnknown } from '@/server/trpc/errors';
import { REPLICATE_WEBHOOK_PATH, serveReplicateWebhook } from '@/server/engine/replicate/replicate-webhook';
import { INNGEST_SERVE_PATH } from '@/server/jobs/providers/inngest-events';

/**
 * The production web server: a plain node:http server in front of Next.js (App Router), so
 * the same process runs the job workers and we control the socket-level facts (client IP,
 * request timeouts long enough for synchronous creations).
 *
 * /v1 is served by its wrapper directly, not through Next's app-route pipeline: measured, that
 * pipeline cost about half of the CPU of a /v1 read (bench/), and /v1 needs nothing from Next.
 * The App Router route (app/v1/[[...path]]/route.ts) calls the same handler, so `next start`
 * alone serves the same API. /files and /swatches are served directly too (same handlers as
 * their App Router routes), and /api/inngest (the Inngest SDK's Next.js handler; no App Router
 * route, which would pull the job handlers and the engine into Next's bundle).
 *
 * Every request URL is built from the fixed origin (PUBLIC_BASE_URL) and the request path,
 * never from the Host header (issue 12: a Host with a path changed which route was served).
 */
function toWebRequest(req: http.IncomingMessage, origin: string, path: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`${origin}${path}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: requestBodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/** Answer whatever `serve` resolves to; anything it throws in the envelope with the request-id. */
async function answer(req: http.IncomingMessage, res: http.ServerResponse, route: string, requestId: string, serve: () => Promise<DoorReply>): Promise<void> {
  let reply: DoorReply;
  try {
    reply = await serve();
  } catch (error) {
    reply = errorDoorReply(apiErrorFromUnknown(error, { requestId, route }), requestId);
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  writeDoorReply(res, { ...reply, headers: { ...reply.headers, 'request-id': requestId } }, req.method);
}

function routeOf(pathname: string): string {
  return pathname.split('/').slice(0, 3).join('/');
}

export function handleRequest(req: http.IncomingMessage, res: http.ServerResponse, handleNext: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): void {
  // The client IP comes from the socket only (a header of that name from outside is dropped),
  // and repeated Authorization headers are all kept, so an ambiguous credential is refused.
  stampIncomingRequest(req);
  // An answer sent before the body was read (a refusal): drain the rest so the client gets it.
  res.once('finish', () => discardRequestBody(req));
  const requestId = newId('req');
  const method = req.method ?? '';
  const target = checkTarget(req);
  if (target instanceof ApiError) {
    writeDoorReply(res, errorDoorReply(target, requestId), method);
    return;
  }
  const origin = fixedOrigin();
  const { path } = target;
  const queryAt = path.indexOf('?');
  const pathname = queryAt === -1 ? path : path.slice(0, queryAt);
  const search = new URLSearchParams(queryAt === -1 ? '' : path.slice(queryAt + 1));
  const route = `${method} ${routeOf(pathname)}`;
  const started = performance.now();
  res.once('finish', () => observeHttp(pathname, method, res.statusCode, (performance.now() - started) / 1000));
  if (pathname === EVENT_STREAM_PATH) {
    const closed = new AbortController();
    res.once('close', () => closed.abort());
    void answerStream(req, res, route, requestId, () => serveEventStream(toWebRequest(req, origin.origin, path), requestId, closed.signal));
  } else if (pathname === '/v1' || pathname.startsWith('/v1/')) {
    void answer(req, res, route, requestId, () => serveV1(toWebRequest(req, origin.origin, path), requestId));
  } else if (consoleDoors && (pathname.startsWith('/api/trpc/') || pathname.startsWith('/api/auth/'))) {
    const handler = pathname.startsWith('/api/trpc/') ? consoleDoors.trpc : consoleDoors.auth;
    void answerFetch(req, res, route, requestId, toWebRequest(req, origin.origin, path), handler);
  } else if (pathname === INNGEST_SERVE_PATH) {
    // Loaded on first use: the job handlers (and the engine) stay out of processes that never serve it.
    void answerFetch(req, res, route, requestId, toWebRequest(req, origin.origin, path), async (request) => (await import('@/server/jobs/providers/inngest')).serveInngest(request));
  } else if (pathname.startsWith(REPLICATE_WEBHOOK_PATH)) {
    serveReplicateWebhook(req, res);
  } else if (pathname === '/mcp') {
    void answer(req, res, route, requestId, () => serveMcp(toWebRequest(req, origin.origin, path), requestId));
  } else if (pathname.startsWith('/uploads/')) {
    void answer(req, res, route, requestId, () => serveUploadPut(toWebRequest(req, origin.origin, path), requestId));
  } else if (pathname.startsWith('/files/')) {
    void answer(req, res, route, requestId, () => serveSignedFile(method, pathname.slice('/files/'.length), search));
  } else if (pathname === '/readyz') {
    void answer(req, res, route, requestId, () => serveReadiness(method));
  } else if (pathname === '/metrics') {
    void answer(req, res, route, requestId, () => serveMetrics(method, req.headers.authorization));
  } else if (pathname.startsWith('/swatches/')) {
    void answer(req, res, route, requestId, () => serveSwatch(method, pathname.slice('/swatches/'.length), search));
  } else if (method === 'POST' && /^multipart\//i.test(req.headers['content-type'] ?? '') && req.headers['next-action'] === undefined) {
    // Next.js parses any multipart POST to a page as a possible no-JS server action, buffering
    // and decoding the whole body (fuzzing: seconds of a web process's CPU per request). No
    // page of ours takes one; server actions sent by the console's JS carry Next-Action.
    const refusal = new ApiError(415, 'parameter_invalid', 'multipart/form-data is accepted by the /v1 creation routes only.');
    writeDoorReply(res, errorDoorReply(refusal, requestId), method);
  } else {
    // Next.js sees our own origin and the checked path, whatever the client sent.
    req.url = path;
    req.headers.host = origin.host;
    res.setHeader('request-id', requestId);
    handleNext(req, res).catch((error: unknown) => {
      const apiError = apiErrorFromUnknown(error, { requestId, route });
      if (res.headersSent) res.destroy();
      else writeDoorReply(res, errorDoorReply(apiError, requestId), method);
    });
  }
}

/** A response written as it comes (the event stream): headers at once, then each chunk. */
async function answerStream(req: http.IncomingMessage, res: http.ServerResponse, route: string, requestId: string, serve: () => Promise<Response>): Promise<void> {
  let response: Response;
  try {
    response = await serve();
  } catch (error) {
    writeDoorReply(res, errorDoorReply(apiErrorFromUnknown(error, { requestId, route }), requestId), req.method);
    return;
  }
  const headers: Record<string, string> = { 'request-id': requestId };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders();
  if (!response.body || req.method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** The console's API doors (tRPC, Auth.js): fetch handlers served like /v1, outside Next's pipeline. */
type FetchHandler = (req: Request) => Promise<Response>;
let consoleDoors: { trpc: FetchHandler; auth: FetchHandler } | null = null;

async function answerFetch(req: http.IncomingMessage, res: http.ServerResponse, route: string, requestId: string, request: Request, handler: FetchHandler): Promise<void> {
  try {
    const response = await handler(request);
    const headers: Record<string, string | string[]> = { 'request-id': requestId };
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) }).end(req.method === 'HEAD' ? undefined : body);
  } catch (error) {
    if (res.headersSent) res.destroy();
    else writeDoorReply(res, errorDoorReply(apiErrorFromUnknown(error, { requestId, route }), requestId), req.method);
  }
}

export async function startWebServer(options: { root: string; port: number; host: string }): Promise<http.Server> {
  const app = next({ dev: false, dir: options.root, hostname: options.host, port: options.port });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  // Loaded after Next is prepared: next-auth imports next/server, which needs Next's runtime set up.
  const { handleConsoleTrpc } = await import('@/server/http/console-trpc');
  const { handleAuth } = await import('@/server/http/console-auth');
  consoleDoors = { trpc: handleConsoleTrpc, auth: handleAuth };
  const server = http.createServer((req, res) => handleRequest(req, res, handleNext));
  server.on('clientError', answerClientError);
  // `Expect` other than 100-continue: 417 in the envelope (Node's default has no body).
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const error = new ApiError(417, 'parameter_invalid', 'Only Expect: 100-continue is supported.', { param: 'Expect' });
    writeDoorReply(res, errorDoorReply(error, newId('req')), req.method);
  });
  // CONNECT (a proxy's method) would otherwise close the socket without an answer.
  server.on('connect', (req: http.IncomingMessage, socket: import('node:net').Socket) => {
    answerClientError(Object.assign(new Error('CONNECT'), { code: 'CONNECT' }), socket);
  });
  // Synchronous creations may wait 4 min 30 s plus downloads: keep the socket that long.
  server.requestTimeout = 6 * 60_000;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
