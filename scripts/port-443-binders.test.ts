// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * Every test server on loopback port 443 binds through test/port-443.ts, which takes the port in
 * turns: one that binds it directly collides with whichever file holds it (EADDRINUSE, as the
 * unit SSRF test once did beside the webhook files). A scan of the test code for a `listen` on
 * 443 anywhere else.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@/server/platform/ports';
import { listenOn443 } from '../test/port-443';

const root = path.resolve(import.meta.dirname, '..');
const DIRS = ['src', 'test', 'e2e', 'scripts', 'sdk'];
const MECHANISM = 'test/port-443.ts';
/** This file: its examples are listens on 443. */
const SELF = 'scripts/port-443-binders.test.ts';

/** A `listen` call on port 443: `listen(443…` or `listen({ … port: 443 … })`. */
const LISTEN_443 = /\.listen\(\s*(?:443\b|\{[^}]*\bport\s*:\s*443\b)/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sources(rel));
    } else if (/\.(?:ts|tsx|mts|mjs|js)$/.test(entry.name)) {
      out.push(rel);
    }
  }
  return out;
}

describe('port 443 binders', () => {
  it('recognises a direct listen on 443 in either form', () => {
    expect(LISTEN_443.test("server.listen(443, '::1', done)")).toBe(true);
    expect(LISTEN_443.test("server.listen({ host: '::1', port: 443 }, done)")).toBe(true);
    expect(LISTEN_443.test("server.listen(0, '::1', done)")).toBe(false);
    expect(LISTEN_443.test("server.listen({ port: 4430, host: '::1' })")).toBe(false);
  });

  it('finds no listen on 443 outside test/port-443.ts, and the stand-ins calling it', () => {
    const binders = DIRS.flatMap(sources).filter((file) => file !== SELF && file !== MECHANISM && LISTEN_443.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(binders).toEqual([]);
    const callers = DIRS.flatMap(sources).filter((file) => file !== SELF && /\blistenOn443\(/.test(fs.readFileSync(path.join(root, file), 'utf8')));
    // The image server (the webhook receivers are behind its forward route), the Replicate
    // stand-in, the unit SSRF test's server and the e2e's receiver (the mechanism's own definition
    // is listed too).
    expect(callers.sort()).toEqual(['e2e/webhooks.spec.ts', 'src/server/capabilities/net/safe-http.test.ts', 'test/backends/replicate-server.ts', 'test/image-server.ts', 'test/port-443.ts'].sort());
  });
});

/** The mechanism on a free port of its own (443 may be another file's right now). */
describe('listenOn443', () => {
  const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

  it('answers false on a taken port when asked not to wait, and leaves no listener behind', async () => {
    const port = await freePort();
    const holder = net.createServer();
    expect(await listenOn443(holder, '127.0.0.1', { port })).toBe(true);
    const other = net.createServer();
    for (let i = 0; i < 12; i++) expect(await listenOn443(other, '127.0.0.1', { port, wait: false })).toBe(false);
    expect(other.listenerCount('listening')).toBe(0);
    expect(other.listenerCount('error')).toBe(0);
    await close(holder);
  });

  it('waits for its turn and takes the port once the holder lets it go', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await listenOn443(holder, '127.0.0.1', { port });
    // The waiter says once that it waits: the holder lets go only after that.
    const write = process.stderr.write.bind(process.stderr);
    const told = new Promise<void>((resolve) => {
      process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        if (String(chunk).includes(`port ${port} of 127.0.0.1 is taken: waiting for its turn`)) resolve();
        return write(chunk, ...rest);
      }) as typeof process.stderr.write;
    });
    const waiter = net.createServer();
    let settled = false;
    const taken = listenOn443(waiter, '127.0.0.1', { port, waitMs: 60_000 }).finally(() => (settled = true));
    try {
      await told;
    } finally {
      process.stderr.write = write;
    }
    expect(settled).toBe(false);
    await close(holder);
    expect(await taken).toBe(true);
    expect((waiter.address() as net.AddressInfo).port).toBe(port);
    expect(waiter.listenerCount('listening')).toBe(0);
    await close(waiter);
  });

  it('gives up after waitMs with an error naming the port', async () => {
    const port = await freePort();
    const holder = net.createServer();
    await listenOn443(holder, '127.0.0.1', { port });
    await expect(listenOn443(net.createServer(), '127.0.0.1', { port, waitMs: 300 })).rejects.toThrow(`port ${port} of 127.0.0.1 stayed taken`);
    await close(holder);
  });
});
