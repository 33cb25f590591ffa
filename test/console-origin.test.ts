// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
/**
 * The console's Origin check (CSRF) where the console is opened. With PUBLIC_BASE_URL unset (the
 * zero-setup default) the console is wherever the browser opened it — http://127.0.0.1:3000, a
 * LAN name — and its changes work there; another site's Origin is still refused. With
 * PUBLIC_BASE_URL set (the main test server), only that origin passes.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { db } from '@/server/platform/db';
import { baseUrl, createTestOrg } from './support';
import { createMember, mutate, signIn } from './console-support';
import { startServer, type TestProcess } from './server-processes';

let server: TestProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-origin-'));
  // A second server on the same database, without PUBLIC_BASE_URL and without workers.
  server = await startServer(inject('databaseUrl'), { PUBLIC_BASE_URL: '', WORKERS_IN_PROCESS: 'false', DATA_DIR: dataDir });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A tRPC mutation sent with a Host of our choosing (what a browser at a LAN name sends). */
function mutateWithHost(base: string, host: string, origin: string, cookie: string, procedure: string, input: unknown): Promise<{ status: number; code: string | undefined }> {
  const body = JSON.stringify(input);
  const url = new URL(`${base}/api/trpc/${procedure}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host, origin, cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          const parsed = JSON.parse(text) as { error?: { data?: { apiError?: { code: string } } } };
          resolve({ status: res.statusCode ?? 0, code: parsed.error?.data?.apiError?.code });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the console Origin check', () => {
  it('with PUBLIC_BASE_URL unset: changes work at 127.0.0.1 and at a LAN name; other sites, other ports and no Origin are refused', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const base = server.url; // http://127.0.0.1:<port>, while the server thinks of itself as localhost
    const signedIn = await signIn(owner.email, 'correct horse battery staple', undefined, base);
    expect(signedIn.cookie).not.toBeNull();
    const cookie = signedIn.cookie!;
    const input = (name: string) => ({ organizationId: org.id, mode: 'test', name, permissions: ['renders'] });

    const byIp = await mutate('keys.create', input('by ip'), cookie, { base, origin: base });
    expect(byIp.status).toBe(200);
    const port = new URL(base).port;
    const byLanName = await mutateWithHost(base, `roomtone.lan:${port}`, `http://roomtone.lan:${port}`, cookie, 'keys.create', input('by lan name'));
    expect(byLanName).toEqual({ status: 200, code: undefined });

    for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, 'null', null]) {
      const refused = await mutate('keys.create', input('cross-site'), cookie, { base, origin });
      expect(refused.status, String(origin)).toBe(403);
      expect(refused.error?.code).toBe('cross_site_request_refused');
    }
    // A page of another site whose Host points here (DNS rebinding) matches its own Origin, but carries no console cookie.
    const rebound = await mutateWithHost(base, `evil.example:${port}`, `http://evil.example:${port}`, '', 'keys.create', input('rebound'));
    expect(rebound).toEqual({ status: 401, code: 'session_missing' });
    expect((await db().apiKey.findMany({ where: { organizationId: org.id, name: { in: ['by ip', 'by lan name', 'cross-site', 'rebound'] } } })).map((k) => k.name).sort()).toEqual(['by ip', 'by lan name']);
  });

  it('with PUBLIC_BASE_URL set: only its origin, not the same server under another name', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const cookie = (await signIn(owner.email, 'correct horse battery staple')).cookie!;
    const other = baseUrl.replace('127.0.0.1', 'localhost');
    const refused = await mutate('keys.create', { organizationId: org.id, mode: 'test', name: 'strict', permissions: ['renders'] }, cookie, { origin: other });
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe('cross_site_request_refused');
    const port = new URL(baseUrl).port;
    expect(await mutateWithHost(baseUrl, `localhost:${port}`, `http://localhost:${port}`, cookie, 'keys.create', { organizationId: org.id, mode: 'test', name: 'strict', permissions: ['renders'] })).toEqual({
      status: 403,
      code: 'cross_site_request_refused',
    });
  });
});
