/**
 * What every framework-free baseline server of the bench does around its handler: answer an
 * unexpected failure 500 in the envelope, listen on loopback, and stop (connections, pool) on
 * SIGTERM/SIGINT.
 */
import http from 'node:http';
import type pg from 'pg';

export function serveBaseline(name: string, port: number, pool: pg.Pool, handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): http.Server {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      process.stderr.write(`${name}: ${e instanceof Error ? e.message : String(e)}\n`);
      if (res.headersSent) return void res.destroy();
      const text = JSON.stringify({ error: { code: 'internal_error', message: 'Request failed.' } });
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1');
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return server;
}
