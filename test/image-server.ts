/**
 * The outside world of image URLs, on loopback: an HTTPS server on 127.0.0.1:443 with a
 * throwaway CA that the service under test trusts (NODE_EXTRA_CA_CERTS) and reaches because
 * DEV_ALLOW_LOOPBACK_URLS=true. It serves files tests drop in `wwwDir`, plus behaviours:
 *   /redirect/<n>/<file>   n redirects, then the file
 *   /to-http/<file>        a redirect to plain http
 *   /to-private/<file>     a redirect to a private address
 *   /status/<code>         that status
 *   /hang                  never answers
 *   /trickle               answers at once, then one byte of the body every 200 ms (never ends)
 *   /endless               streams bytes forever
 *   /as-html/<file>        the file's bytes labelled text/html
 *   /forward/<port>/<path> the request, as it came, to http://127.0.0.1:<port>/<path>, and its
 *                          answer back: a test file's own HTTPS stand-in (webhook receivers) on
 *                          port 443 without taking the port from the other files
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { makeTestCertificates } from './tls';
import { listenOn443 } from './port-443';

export interface ImageServer {
  origin: string;
  caPath: string;
  wwwDir: string;
  close(): Promise<void>;
}

export async function startImageServer(dir: string): Promise<ImageServer> {
  const certs = await makeTestCertificates('Roomtone Integration CA');
  const wwwDir = path.join(dir, 'www');
  fs.mkdirSync(wwwDir, { recursive: true });
  const caPath = path.join(dir, 'test-ca.pem');
  fs.writeFileSync(caPath, certs.caPem);

  const hanging = new Set<import('node:http').ServerResponse>();
  const server = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean);
    const serveFile = (name: string, type?: string) => {
      const file = path.join(wwwDir, path.basename(name));
      if (!fs.existsSync(file)) {
        res.writeHead(404).end('not found');
        return;
      }
      const bytes = fs.readFileSync(file);
      res.writeHead(200, { 'content-type': type ?? 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
    };
    switch (parts[0]) {
      case 'redirect': {
        const n = Number(parts[1]);
        const file = parts[2] ?? '';
        if (n > 0) res.writeHead(302, { location: `/redirect/${n - 1}/${file}` }).end();
        else serveFile(file);
        return;
      }
      case 'slow': {
        // A slow host: the file after `ms` milliseconds (MCP wait budget includes downloads).
        setTimeout(() => serveFile(parts[2] ?? ''), Number(parts[1]) || 0);
        return;
      }
      case 'to-http':
        res.writeHead(302, { location: `http://127.0.0.1/${parts[1] ?? ''}` }).end();
        return;
      case 'to-private':
        res.writeHead(302, { location: `https://10.1.2.3/${parts[1] ?? ''}` }).end();
        return;
      case 'status':
        res.writeHead(Number(parts[1]) || 500).end();
        return;
      case 'hang':
        hanging.add(res);
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 10_000 });
        res.write(Buffer.from([0xff, 0xd8]));
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(Buffer.from([0]))), 200);
        res.once('close', () => clearInterval(timer));
        hanging.add(res);
        return;
      }
      case 'endless': {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        const chunk = Buffer.alloc(64 * 1024, 0xab);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {
            /* keep writing until backpressure */
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      case 'as-html':
        serveFile(parts[1] ?? '', 'text/html');
        return;
      case 'forward': {
        const prefix = `/forward/${parts[1] ?? ''}`;
        const upstream = http.request({ host: '127.0.0.1', port: Number(parts[1]), path: (req.url ?? '/').slice(prefix.length) || '/', method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // A stand-in that cuts its connection cuts the sender's too.
          answer.once('aborted', () => res.destroy());
        });
        upstream.once('error', () => res.destroy());
        // A sender that gives up (its answer deadline) is seen by the stand-in as a closed request.
        res.once('close', () => upstream.destroy());
        req.pipe(upstream);
        return;
      }
      default:
        serveFile(parts[0] ?? '');
    }
  });
  // Image URLs must use port 443; the dev flag admits exactly 127.0.0.1 and ::1, and ::1 is the
  // Replicate stand-in's (test/backends/replicate-server.ts). Another run on this machine outside a network
  // namespace of its own holds it until it ends: this one waits its turn (test/port-443.ts).
  await listenOn443(server, '127.0.0.1');
  const origin = 'https://127.0.0.1';
  return {
    origin,
    caPath,
    wwwDir,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
