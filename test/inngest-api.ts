/**
 * A local stand-in for Inngest's API, for tests (Inngest's server cannot run on these
 * machines): it speaks the two calls a serve handler and a client make to it, per the SDK's
 * protocol, and records them. POST /e/<event key>: events (answers their ids); POST
 * /fn/register: a sync (answers ok). Anything else is 404.
 */
import http from 'node:http';

export interface InngestEvent {
  name: string;
  data: Record<string, unknown>;
  id?: string;
  ts?: number;
}

export interface InngestApi {
  url: string;
  events(name?: string): InngestEvent[];
  registrations(): { body: Record<string, unknown>; authorization: string | undefined }[];
  waitForEvent(name: string, match: (e: InngestEvent) => boolean, timeoutMs?: number): Promise<InngestEvent>;
  close(): Promise<void>;
}

export async function startInngestApi(eventKey: string): Promise<InngestApi> {
  const events: InngestEvent[] = [];
  const registrations: { body: Record<string, unknown>; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'POST' && path === `/e/${eventKey}`) {
        const parsed = JSON.parse(body) as InngestEvent | InngestEvent[];
        const batch = Array.isArray(parsed) ? parsed : [parsed];
        events.push(...batch);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ids: batch.map((_, i) => `01TEST${events.length + i}`), status: 200 }));
      } else if (req.method === 'POST' && path === '/fn/register') {
        registrations.push({ body: JSON.parse(body) as Record<string, unknown>, authorization: req.headers.authorization });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, modified: true }));
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    events: (name) => events.filter((e) => name === undefined || e.name === name),
    registrations: () => registrations,
    async waitForEvent(name, match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((e) => e.name === name && match(e));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${name} event arrived`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
