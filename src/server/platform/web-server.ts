import http from 'node:http';
import next from 'next';
import { CLIENT_IP_HEADER } from '@/server/http/v1';

/**
 * The production web server: Next.js (App Router) behind a plain node:http server, so the
 * same process can run the job workers and we control the socket-level facts (client IP,
 * request timeouts long enough for synchronous creations).
 */
export async function startWebServer(options: { root: string; port: number; host: string }): Promise<http.Server> {
  const app = next({ dev: false, dir: options.root, hostname: options.host, port: options.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => {
    // The client IP comes from the socket only; a header of that name from outside is dropped.
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? '';
    void handle(req, res);
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
