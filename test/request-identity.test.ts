// @node-lines same: which forwarded address counts: our rule; raw HTTP parsing runs under both lines in test/hostile-input.test.ts
/**
 * Who is calling, decided at the edge server:
 * - the client IP behind TRUST_PROXY=<hops> proxies is the hops-th X-Forwarded-For entry from
 *   the right, so entries the client wrote itself (on the left) move neither the API's per-IP
 *   limit nor sign-in's, nor get a request inside a key's IP allowlist;
 * - repeated Authorization headers (sent over a raw socket: fetch merges them) are refused as
 *   an ambiguous credential on /v1 and /mcp, never resolved to one of the keys.
 * A server of its own runs on the shared test database with these limits (workers off).
 */
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { db } from '@/server/platform/db';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { startServer, waitFor } from './server-processes';
import type { StartedProcess } from './start-server';
import { api, baseUrl, createTestOrg, testIp, type TestOrg } from './support';
import { envelopeCode, rawRequest, requestText } from './raw-http';

const root = path.resolve(import.meta.dirname, '..');
const LIMITS = { TRUST_PROXY: '2', RATE_LIMIT_PER_IP_PER_MINUTE: '5', SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE: '3', WORKERS_IN_PROCESS: 'false' };
/** The address the two trusted proxies append (the first proxy's). */
const PROXY = '10.20.30.40';

const servers: Record<string, StartedProcess> = {};
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg();
  const databaseUrl = inject('databaseUrl');
  servers['npm start'] = await startServer(databaseUrl, { ...LIMITS, DATA_DIR: path.join(root, '.data', 'test', 'request-identity') });
}, 300_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
});

/** A fresh address for one real client, so no other test (or server) shares its counters. */
function realClient(): string {
  return `198.51.${randomInt(0, 255)}.${randomInt(1, 254)}`;
}

/** X-Forwarded-For as it reaches us: what the client wrote, then what each of the two proxies appended. */
function forwarded(clientWrote: string[], client: string): string {
  return [...clientWrote, client, PROXY].join(', ');
}

async function signInAttempt(base: string, xff: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': xff, origin: base },
    body: new URLSearchParams({ csrfToken, email: `nobody-${randomInt(1e9)}@example.com`, password: 'not the password', callbackUrl: `${base}/` }),
  });
  return res.headers.get('location') ?? '';
}

describe.each(['npm start'])('under %s', (name) => {
  const base = () => servers[name]!.url;

  it('TRUST_PROXY=2: the API per-IP limit follows the client two hops back; left-most entries the client writes cannot move it', async () => {
    const client = realClient();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // A different forged left-most entry each time: were it believed, no counter would fill.
      const res = await api(`/v1/styles`, { base: base(), headers: { 'x-forwarded-for': forwarded([`203.0.113.${i + 1}`], client) } });
      statuses.push(res.status);
      if (i === 5) expect(res.body).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Forging the proxies' part too (more entries) still lands on the same client.
    const forged = await api(`/v1/styles`, { base: base(), headers: { 'x-forwarded-for': forwarded(['203.0.113.99', '203.0.113.98'], client) } });
    expect(forged.status).toBe(429);
    // Another client behind the same proxies has its own counter.
    const other = await api(`/v1/styles`, { base: base(), headers: { 'x-forwarded-for': forwarded(['203.0.113.1'], realClient()) } });
    expect(other.status).toBe(401);
  });

  it("TRUST_PROXY=2: a key's IP allowlist judges the same client two hops back, on /v1 and /mcp; entries the client writes cannot get it in", async () => {
    const allowed = realClient();
    const key = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
    await db().apiKey.update({ where: { id: key.id }, data: { allowedIps: [`${allowed}/32`] } });
    const v1 = (xff: string) => api<{ error?: { code: string } }>('/v1/styles', { base: base(), key: key.secret, headers: { 'x-forwarded-for': xff } });
    const mcp = (xff: string) =>
      fetch(`${base()}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': xff },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const outsider = realClient();
    // The allowed address written by the client, left of the real one: refused.
    const forged = await v1(forwarded([allowed], outsider));
    expect(forged.status).toBe(403);
    expect(forged.body.error?.code).toBe('api_key_ip_not_allowed');
    expect((await mcp(forwarded([allowed], outsider))).status).toBe(403);
    // The allowed client, whatever it writes on the left: admitted.
    expect((await v1(forwarded(['203.0.113.7'], allowed))).status).toBe(200);
    expect((await mcp(forwarded(['203.0.113.7'], allowed))).status).toBe(200);
  });

  it('TRUST_PROXY=2: the sign-in per-IP limit follows the same client', async () => {
    const client = realClient();
    const locations: string[] = [];
    for (let i = 0; i < 4; i++) locations.push(await signInAttempt(base(), forwarded([`203.0.113.${i + 1}`], client)));
    expect(locations.slice(0, 3).every((l) => !l.includes('too_many_attempts')), locations.join('\n')).toBe(true);
    expect(locations[3]).toContain('code=too_many_attempts');
    expect(await signInAttempt(base(), forwarded(['203.0.113.50'], realClient()))).not.toContain('too_many_attempts');
  });

  it('two Authorization headers (test key then live key, or any two values) are refused with 401 in the envelope, on /v1 and /mcp', async () => {
    const host = new URL(base()).host;
    const send = (method: string, target: string, authorizations: string[], body = '', extra: Array<[string, string]> = []) =>
      rawRequest(
        base(),
        requestText(
          `${method} ${target} HTTP/1.1`,
          [['Host', host], ...authorizations.map((a) => ['Authorization', a] as [string, string]), ['X-Forwarded-For', forwarded([], realClient())], ...extra, ['Connection', 'close']],
          body,
        ),
      );
    const one = await send('GET', '/v1/styles', [`Bearer ${org.testKey}`]);
    expect(one?.status).toBe(200);

    for (const pair of [
      [`Bearer ${org.testKey}`, `Bearer ${org.liveKey}`],
      [`Bearer ${org.liveKey}`, `Bearer ${org.testKey}`],
      [`Bearer ${org.testKey}`, `Bearer ${org.testKey}`],
      [`Bearer ${org.testKey}`, 'Basic dXNlcjpwYXNz'],
    ]) {
      const res = await send('GET', '/v1/styles', pair);
      expect(res?.status, JSON.stringify(pair)).toBe(401);
      expect(JSON.parse(res!.body)).toMatchObject({ error: { code: 'api_key_invalid', param: 'authorization', message: expect.stringContaining('More than one credential') } });
    }
    // The same on a creation, so nothing can be charged to either key.
    const creation = await send('POST', '/v1/upscales', [`Bearer ${org.liveKey}`, `Bearer ${org.testKey}`], JSON.stringify({ image: 'https://example.com/a.jpg', scale: 'x2' }), [
      ['Content-Type', 'application/json'],
    ]);
    expect(creation?.status).toBe(401);
    expect(envelopeCode(creation!)).toBe('api_key_invalid');
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(0);

    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const mcpHeaders: Array<[string, string]> = [
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json, text/event-stream'],
    ];
    const mcpOne = await send('POST', '/mcp', [`Bearer ${org.testKey}`], initialize, mcpHeaders);
    expect(mcpOne?.status).toBe(200);
    const mcpTwo = await send('POST', '/mcp', [`Bearer ${org.testKey}`, `Bearer ${org.liveKey}`], initialize, mcpHeaders);
    expect(mcpTwo?.status).toBe(401);
    expect(JSON.parse(mcpTwo!.body)).toMatchObject({ error: { code: 'api_key_invalid', param: 'authorization' } });
  });
});

describe('TRUST_PROXY=true is one hop (the shared test server)', () => {
  it('the request log records the right-most X-Forwarded-For entry, not a forged left-most one', async () => {
    const client = testIp();
    const res = await api('/v1/styles', { key: org.testKey, headers: { 'x-forwarded-for': `6.6.6.6, ${client}` }, base: baseUrl });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('request-id')!;
    const row = await waitFor('the request log line', () => db().requestLog.findUnique({ where: { id: requestId } }), 10_000);
    expect(row.ip).toBe(client);
  });
});
