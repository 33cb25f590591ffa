import http from 'node:http';
import { Readable } from 'node:stream';
import next from 'next';
import { CLIENT_IP_HEADER, serveV1 } from '@/server/http/v1';

/**
 * The production web server: a plain node:http server in front of Next.js (App Router), so
 * the same process runs the job workers and we control the socket-level facts (client IP,
 * request timeouts long enough for synchronous creations).
 *
 * /v1 is served by its wrapper directly, not through Next's app-route pipeline: measured, that
 * pipeline cost about half of the CPU of a /v1 read (bench/), and /v1 needs nothing from Next.
 * The App Router route (app/v1/[[...path]]/route.ts) calls the same handler, so `next start`
 * alone serves the same API.
 */
function toWebRequest(req: http.IncomingMessage): Request {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

async function serveV1Request(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  try {
    const reply = await serveV1(toWebRequest(req));
    // API bodies are small JSON: one write with a Content-Length.
    const body = Buffer.from(reply.body);
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) }).end(body);
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } }));
  }
}

/** The console's API doors (tRPC, Auth.js) are served like /v1, outside Next's pipeline. */
async function serveFetchHandler(req: http.IncomingMessage, res: http.ServerResponse, handler: (req: Request) => Promise<Response>): Promise<void> {
  try {
    const response = await handler(toWebRequest(req));
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) }).end(body);
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.' } }));
  }
}

export async function startWebServer(options: { root: string; port: number; host: string }): Promise<http.Server> {
  const app = next({ dev: false, dir: options.root, hostname: options.host, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // Loaded after Next is prepared: next-auth imports next/server, which needs Next's runtime set up.
  const { handleConsoleTrpc } = await import('@/server/http/console-trpc');
  const { handleAuth } = await import('@/server/http/console-auth');
  const server = http.createServer((req, res) => {
    // The client IP comes from the socket only; a header of that name from outside is dropped.
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? '';
    const path = req.url ?? '/';
    if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?')) void serveV1Request(req, res);
    else if (path.startsWith('/api/trpc/')) void serveFetchHandler(req, res, handleConsoleTrpc);
    else if (path.startsWith('/api/auth/')) void serveFetchHandler(req, res, handleAuth);
    else void handle(req, res);
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
