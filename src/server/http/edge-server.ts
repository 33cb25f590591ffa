import http from 'node:http';
import next from 'next';
import { stampIncomingRequest } from './incoming-request';
import { discardRequestBody } from './request-body';
import { headOfIncoming } from './request-head';
import { answerClientError, checkTarget, errorDoorReply, fixedOrigin, writeDoorReply } from './edge-checks';
import { findRoute, preloadRoutes, serveRoute, type RouteReply } from './routes';
import { observeHttp } from '@/server/observability/metrics';
import { ApiError } from './api-error';
import { newId } from '@/server/platform/ids';
import { apiErrorFromUnknown } from '@/server/trpc/errors';

/**
 * The launcher's web server (`npm start`): a plain node:http server in front of Next.js. It
 * serves the same route table as the App Router (http/routes.ts) and adds only what Next.js
 * cannot do:
 * - speed: the table's routes are answered here, outside Next's app-route pipeline (measured,
 *   that pipeline cost about half of the CPU of a /v1 read; bench/), and a reply is one write;
 * - the raw-socket edge: the request URL is built from the fixed origin (PUBLIC_BASE_URL) and
 *   the checked path, never from the Host header; unparseable requests, CONNECT and odd
 *   `Expect` headers are answered in the envelope; the client IP comes from the socket
 *   (http/incoming-request.ts);
 *   request timeouts are long enough for synchronous creations; bytes nobody reads are drained
 *   so a refusal reaches the client;
 * - it runs in every web process of the launcher's cluster (main/launcher.ts).
 * Everything else (the console's pages) goes to Next.js.
 */
/** A route's reply as bytes on the socket (a Response is read whole first: these bodies are small). */
async function writeRouteReply(req: http.IncomingMessage, res: http.ServerResponse, reply: RouteReply, requestId: string): Promise<void> {
  if (!(reply instanceof Response)) {
    if (res.headersSent) res.destroy();
    else writeDoorReply(res, reply, req.method);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  reply.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = reply.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  headers['request-id'] = requestId;
  const body = Buffer.from(await reply.arrayBuffer());
  if (res.headersSent) res.destroy();
  else res.writeHead(reply.status, { ...headers, 'content-length': String(body.length) }).end(req.method === 'HEAD' ? undefined : body);
}

/** A streamed Response (Server-Sent Events): the headers at once, then each chunk as it comes. */
async function streamRouteReply(req: http.IncomingMessage, res: http.ServerResponse, reply: Response, requestId: string): Promise<void> {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  reply.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(reply.status, { ...headers, 'request-id': requestId });
  res.flushHeaders();
  if (!reply.body || req.method === 'HEAD') {
    await reply.body?.cancel();
    res.end();
    return;
  }
  const reader = reply.body.getReader();
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

function failed(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, route: string) {
  return (error: unknown): void => {
    if (res.headersSent) res.destroy();
    else writeDoorReply(res, errorDoorReply(apiErrorFromUnknown(error, { requestId, route }), requestId), req.method);
  };
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
  const started = performance.now();
  res.once('finish', () => observeHttp(pathname, method, res.statusCode, (performance.now() - started) / 1000));
  const route = findRoute(pathname);
  if (route) {
    // A streaming route learns that its client went away from the request's signal.
    let closed: AbortController | undefined;
    if (route.streams) {
      const controller = (closed = new AbortController());
      res.once('close', () => controller.abort());
    }
    serveRoute(route, headOfIncoming(req, `${origin.origin}${path}`, closed?.signal), requestId)
      .then((reply) => (route.streams && reply instanceof Response ? streamRouteReply(req, res, reply, requestId) : writeRouteReply(req, res, reply, requestId)))
      .catch(failed(req, res, requestId, `${method} ${route.pattern}`));
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
    handleNext(req, res).catch(failed(req, res, requestId, `${method} ${pathname}`));
  }
}

export async function startEdgeServer(options: { root: string; port: number; host: string }): Promise<http.Server> {
  const app = next({ dev: false, dir: options.root, hostname: options.host, port: options.port });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  // After Next is prepared: next-auth imports next/server, which needs Next's runtime set up.
  await preloadRoutes();
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
