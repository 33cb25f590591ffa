/**
 * Every test server on loopback port 443 binds through test/port-443.ts, which takes the port in
 * turns: one that binds it directly collides with whichever file holds it (EADDRINUSE, as the
 * unit SSRF test once did beside the webhook files). A scan of the test code for a `listen` on
 * 443 anywhere else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it('finds every listen on 443 in test/port-443.ts, and the stand-ins calling it', () => {
    const binders = DIRS.flatMap(sources).filter((file) => file !== SELF && LISTEN_443.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(binders).toEqual([MECHANISM]);
    const callers = DIRS.flatMap(sources).filter((file) => /\blistenOn443\(/.test(fs.readFileSync(path.join(root, file), 'utf8')));
    // The image server, the webhook receivers, the Replicate stand-in, the unit SSRF test's server
    // and the e2e's receiver (the mechanism's own definition is listed too).
    expect(callers.sort()).toEqual(
      ['e2e/webhooks.spec.ts', 'src/server/net/safe-http.test.ts', 'test/backends/replicate-server.ts', 'test/image-server.ts', 'test/port-443.ts', 'test/webhook-receiver.ts'].sort(),
    );
  });
});
