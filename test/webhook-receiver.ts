/**
 * Webhook receivers for tests: one server of this file on a port of its own, reached over HTTPS
 * on 127.0.0.1:443 through the run's image server (its /forward/<port>/ route, with the test CA),
 * so the service reaches it under DEV_ALLOW_LOOPBACK_URLS and no file waits for port 443. Each
 * path /r/<name> is one receiver with its own behaviour and its own record of what arrived.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** performance.now() at arrival (real time, whatever the test's clock says). */
  at: number;
}

export type Behaviour = (received: Received, index: number) => { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receivers {
  origin: string;
  url(name: string): string;
  /** Behaviour of a receiver (default: 200 "ok"). */
  set(name: string, behaviour: Behaviour): void;
  received(name: string): Received[];
  /** Highest number of requests a receiver held at once. */
  maxConcurrent(name: string): number;
  waitFor(name: string, count: number, timeoutMs?: number): Promise<Received[]>;
  /** Cut the connections a receiver is hanging on (the sender sees a network error at once). */
  release(name: string): void;
  close(): Promise<void>;
}

export async function startReceivers(): Promise<Receivers> {
  const behaviours = new Map<string, Behaviour>();
  const log = new Map<string, Received[]>();
  const concurrent = new Map<string, { now: number; max: number }>();
  const hanging = new Map<ServerResponse, string>();

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const name = (req.url ?? '/').split('/')[2] ?? '';
    const chunks: Buffer[] = [];
    const c = concurrent.get(name) ?? { now: 0, max: 0 };
    concurrent.set(name, c);
    c.now += 1;
    c.max = Math.max(c.max, c.now);
    res.on('close', () => (c.now -= 1));
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const received = { headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
      const list = log.get(name) ?? [];
      log.set(name, list);
      list.push(received);
      const behaviour: Behaviour = behaviours.get(name) ?? (() => ({ status: 200, body: 'ok' }));
      const answer = behaviour(received, list.length - 1);
      if (answer === 'hang') {
        hanging.set(res, name);
        res.on('close', () => hanging.delete(res));
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    });
  });
  // A port of its own, held while the receivers live; the image server forwards to it.
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const origin = `${inject('imageOrigin')}/forward/${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (name) => `${origin}/r/${name}`,
    set: (name, behaviour) => behaviours.set(name, behaviour),
    received: (name) => log.get(name) ?? [],
    maxConcurrent: (name) => concurrent.get(name)?.max ?? 0,
    async waitFor(name, count, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs;
      while ((log.get(name)?.length ?? 0) < count) {
        if (performance.now() > deadline) throw new Error(`receiver ${name}: ${log.get(name)?.length ?? 0} of ${count} requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return log.get(name) ?? [];
    },
    release(name) {
      for (const [res, of] of hanging) if (of === name) res.destroy();
    },
    async close() {
      for (const res of hanging.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(undefined)));
    },
  };
}
