import http from 'node:http';
import { stampIncomingRequest } from './incoming-request';
import { discardRequestBody } from './request-body';
import { headOfIncoming } from './request-head';
import { answerClientError, checkTarget, fixedOrigin } from './edge-checks';
import { errorReply, type DoorReply } from '@/server/doors/door';
import { findRoute, preloadRoutes, serveRoute } from './routes';
import { observeHttp } from '@/server/capabilities/observability/metrics';
import { ApiError, apiErrorFromUnknown } from '@/server/doors/errors';
import { newId } from '@/server/platform/ids';
import { config } from '@/server/platform/config';

/**
 * The launcher's web server (`npm start`): a plain node:http server in front of Next.js. It
 * serves the route table (http/routes.ts) and adds only what Next.js
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
 * Everything else (the console's pages) goes to Next.js. An instance without the console
 * (CONSOLE_ENABLED=false, an API-only instance) never loads Next.js: its pages and the
 * console's routes answer 404 route_not_found.
 */
/** A reply as bytes on the socket: a string or bytes in one write with a Content-Length, a stream as it comes. */
function writeReply(req: http.IncomingMessage, res: http.ServerResponse, reply: DoorReply): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = reply.body;
  if (!(body instanceof ReadableStream)) {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(length) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  if (req.method === 'HEAD') {
    void body.cancel().catch(() => undefined);
    res.end();
    return;
  }
  const reader = body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  })().catch(() => res.destroy());
}

function failed(req: http.IncomingMessage, res: http.ServerResponse, requestId: string, route: string) {
  return (error: unknown): void => {
    writeReply(req, res, errorReply(apiErrorFromUnknown(error, { requestId, route }), requestId));
  };
}

type PagesHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** `handleNext`: Next.js's request handler, or null on an instance without the console. */
export function handleRequest(req: http.IncomingMessage, res: http.ServerResponse, handleNext: PagesHandler | null): void {
  // The client IP comes from the socket only (a header of that name from outside is dropped),
  // and repeated Authorization headers are all kept, so an ambiguous credential is refused.
  stampIncomingRequest(req);
  const method = req.method ?? '';
  // Set once the target is checked: from then on the request is measured.
  let pathname: string | null = null;
  let started = 0;
  // One listener per request: an answer sent before the body was read (a refusal) drains the rest so the client gets it.
  res.once('finish', () => {
    discardRequestBody(req);
    if (pathname !== null) observeHttp(pathname, method, res.statusCode, (performance.now() - started) / 1000);
  });
  const requestId = newId('req');
  const target = checkTarget(req);
  if (target instanceof ApiError) {
    writeReply(req, res, errorReply(target, requestId));
    return;
  }
  const origin = fixedOrigin();
  const { path } = target;
  const queryAt = path.indexOf('?');
  pathname = queryAt === -1 ? path : path.slice(0, queryAt);
  started = performance.now();
  const route = findRoute(pathname, handleNext !== null);
  if (route) {
    // A streaming route learns that its client went away from the request's signal.
    let closed: AbortController | undefined;
    if (route.streams) {
      const controller = (closed = new AbortController());
      res.once('close', () => controller.abort());
    }
    serveRoute(route, headOfIncoming(req, `${origin.origin}${path}`, closed?.signal), requestId)
      .then((reply) => writeReply(req, res, reply))
      .catch(failed(req, res, requestId, `${method} ${route.path}`));
  } else if (handleNext === null) {
    writeReply(req, res, errorReply(new ApiError('route_not_found', 'Unrecognized request URL. This instance serves the API only (CONSOLE_ENABLED=false).'), requestId));
  } else if (method === 'POST' && /^multipart\//i.test(req.headers['content-type'] ?? '') && req.headers['next-action'] === undefined) {
    // Next.js parses any multipart POST to a page as a possible no-JS server action, buffering
    // and decoding the whole body (fuzzing: seconds of a web process's CPU per request). No
    // page of ours takes one; server actions sent by the console's JS carry Next-Action.
    const refusal = new ApiError('content_type_unsupported', 'multipart/form-data is accepted by the /v1 creation routes only.');
    writeReply(req, res, errorReply(refusal, requestId));
  } else {
    // Next.js sees our own origin and the checked path, whatever the client sent.
    req.url = path;
    req.headers.host = origin.host;
    res.setHeader('request-id', requestId);
    handleNext(req, res).catch(failed(req, res, requestId, `${method} ${pathname}`));
  }
}

/** Next.js, prepared, serving the console's pages (loaded only where the console is served). */
async function startNext(options: { root: string; port: number; host: string }): Promise<PagesHandler> {
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: options.root, hostname: options.host, port: options.port });
  await app.prepare();
  return app.getRequestHandler();
}

export async function startEdgeServer(options: { root: string; port: number; host: string }): Promise<http.Server> {
  const withConsole = config().CONSOLE_ENABLED;
  const handleNext = withConsole ? await startNext(options) : null;
  // After Next is prepared: next-auth imports next/server, which needs Next's runtime set up.
  await preloadRoutes({ withConsole });
  const server = http.createServer((req, res) => handleRequest(req, res, handleNext));
  server.on('clientError', answerClientError);
  // `Expect` other than 100-continue: answered in the envelope (Node's default 417 has no body).
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const error = new ApiError('expectation_unsupported', 'Only Expect: 100-continue is supported.', { param: 'Expect' });
    writeReply(req, res, errorReply(error, newId('req')));
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
