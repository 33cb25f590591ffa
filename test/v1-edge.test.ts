// @node-lines same: our /v1 authentication, browser refusal, envelopes and rate limits; raw HTTP runs under both lines in test/hostile-input.test.ts, request bodies read off the socket in src/server/doors/http/request-body.test.ts and test/mcp.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it } from 'vitest';
import { api, baseUrl, createTestOrg, expectErrorShape, testIp } from './support';
import { db } from '@/server/platform/db';
import { revokeApiKey } from '@/server/capabilities/keys/keys';
import { waitFor } from './server-processes';

const ip = testIp();

describe('/v1 edge: authentication', () => {
  it('401 api_key_missing without Authorization, with request-id and the envelope', async () => {
    const res = await api('/v1/styles', { ip });
    expect(res.status).toBe(401);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('api_key_missing');
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });

  it.each([
    ['Bearer rt_test_short', 'malformed'],
    ['Bearer sk_test_0123456789012345678901234567890123456789', 'foreign prefix'],
    ['Basic dXNlcjpwYXNz', 'other scheme'],
    [`Bearer rt_test_${'A'.repeat(40)}`, 'unknown'],
  ])('401 api_key_invalid for %s (%s)', async (authorization) => {
    const res = await api('/v1/styles', { ip, headers: { authorization } });
    expect(res.status).toBe(401);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('api_key_invalid');
  });

  it('401 api_key_invalid once the key is revoked', async () => {
    const org = await createTestOrg();
    expect((await api('/v1/styles', { key: org.testKey, ip })).status).toBe(200);
    await revokeApiKey(db(), org.keyIds.test);
    // The server's key cache drops the key when the revocation's notice reaches it (pg_notify at
    // commit, delivered within milliseconds; src/server/capabilities/keys/cache.ts): wait that long, no longer.
    const res = await waitFor('the revoked key refused', async () => {
      const answer = await api('/v1/styles', { key: org.testKey, ip });
      return answer.status === 200 ? null : answer;
    }, 5_000);
    expect(res.status).toBe(401);
    expect((res.body as { error: { code: string } }).error.code).toBe('api_key_invalid');
  });

  it('stores keys only as hashes', async () => {
    const org = await createTestOrg();
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } });
    expect(JSON.stringify(row)).not.toContain(org.testKey);
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('/v1 edge: browsers are refused', () => {
  it('403 browser_request_refused for any request with Origin, without CORS headers', async () => {
    const org = await createTestOrg();
    const res = await api('/v1/styles', { key: org.testKey, ip, headers: { origin: 'https://example.com' } });
    expect(res.status).toBe(403);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('browser_request_refused');
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
  });

  it('403 for an OPTIONS preflight', async () => {
    const res = await api('/v1/generations', {
      method: 'OPTIONS',
      ip,
      headers: { 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect((res.body as { error: { code: string } }).error.code).toBe('browser_request_refused');
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('/v1 edge: errors and bodies', () => {
  it('404 in the envelope for an unknown route', async () => {
    const org = await createTestOrg();
    for (const path of ['/v1/nothing-here', '/v1', '/v1/generations/gen_abc/refund']) {
      const res = await api(path, { key: org.testKey, ip });
      expect(res.status).toBe(404);
      expectErrorShape(res.body);
      expect(res.headers.get('request-id')).toMatch(/^req_/);
    }
  });

  it('400 parameter_invalid for malformed JSON', async () => {
    const org = await createTestOrg();
    const res = await api('/v1/generations/gen_abc123/cancel', {
      key: org.testKey,
      ip,
      method: 'POST',
      rawBody: '{"not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('parameter_invalid');
  });

  it('413 request_too_large for a JSON body over 64 KB, counted while reading (no Content-Length)', async () => {
    const org = await createTestOrg();
    const big = JSON.stringify({ padding: 'x'.repeat(70 * 1024) });
    // A streamed body has no Content-Length: the limit must be enforced on bytes received.
    const stream = new ReadableStream({
      start(controller) {
        const bytes = new TextEncoder().encode(big);
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const res = await fetch(`${baseUrl}/v1/generations/gen_abc123/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.testKey}`, 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string } };
    expect(body.error.code).toBe('request_too_large');
  });

  it('a JSON body of exactly 64 KB is read (and then validated)', async () => {
    const org = await createTestOrg();
    const prefix = '{"padding":"';
    const suffix = '"}';
    const body = prefix + 'x'.repeat(64 * 1024 - prefix.length - suffix.length) + suffix;
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    const res = await api('/v1/generations/gen_abc123/cancel', { key: org.testKey, ip, method: 'POST', rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect((res.body as { error: { param: string } }).error.param).toBe('padding');
  });
});

describe('/v1 edge: request rate limits', () => {
  it('per organization: the tier limit, shared by test and live keys, with x-ratelimit headers and Retry-After', async () => {
    const org = await createTestOrg({ tier: 1 }); // Starter: 120 requests/min
    const first = await api('/v1/styles', { key: org.testKey, ip });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('120');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('119');
    expect(first.headers.get('x-ratelimit-reset-requests')).toMatch(/^([1-9]|[1-5]\d|60)s$/);
    // Use the rest of the window half with the live key: the organization's budget is shared.
    // 119 parallel requests open many connections, spread over the server's two web
    // processes: the count is exact only because their counters are one (held by the primary).
    const results = await Promise.all(
      Array.from({ length: 119 }, (_, i) => api('/v1/styles', { key: i % 2 ? org.testKey : org.liveKey, ip: testIp() })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const over = await api('/v1/styles', { key: org.liveKey, ip });
    expect(over.status).toBe(429);
    expectErrorShape(over.body);
    expect(over.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    // Another organization is unaffected.
    const other = await createTestOrg({ tier: 1 });
    expect((await api('/v1/styles', { key: other.testKey, ip })).status).toBe(200);
  });

  it('per IP: 600 requests a minute counted before the key check (leased by the web processes: never more, a slice early at most)', async () => {
    const lonelyIp = testIp();
    const statuses: number[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const results = await Promise.all(Array.from({ length: 100 }, () => api('/v1/styles', { ip: lonelyIp })));
      statuses.push(...results.map((r) => r.status));
    }
    // A web process may still hold part of its last slice (1 % of the limit) while the other is
    // refused (docs/operations.md, "Limits").
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(600 - 7);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // More connections reach every web process: what they held is spent, then all is refused.
    const more = await Promise.all(Array.from({ length: 40 }, () => api('/v1/styles', { ip: lonelyIp })));
    statuses.push(...more.map((r) => r.status));
    expect(statuses.filter((s) => s === 401)).toHaveLength(600);
    const over = more.find((r) => r.status === 429);
    expect((over?.body as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect(Number(over?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Even a valid key is refused from that IP now.
    const org = await createTestOrg();
    expect((await api('/v1/styles', { key: org.testKey, ip: lonelyIp })).status).toBe(429);
  });
});

describe('/v1 edge: request log', () => {
  it('records every request with its key, mode, status, error code and request-id', async () => {
    const org = await createTestOrg();
    const ok = await api('/v1/styles', { key: org.liveKey, ip });
    const bad = await api('/v1/generations?limit=0', { key: org.testKey, ip });
    await new Promise((r) => setTimeout(r, 600)); // the log is written in batches every 250 ms
    const okRow = await db().requestLog.findUnique({ where: { id: ok.headers.get('request-id')! } });
    expect(okRow).toMatchObject({ organizationId: org.id, apiKeyId: org.keyIds.live, mode: 'live', method: 'GET', path: '/v1/styles', status: 200, errorCode: null, ip });
    expect(okRow!.durationMs).toBeGreaterThanOrEqual(0);
    const badRow = await db().requestLog.findUnique({ where: { id: bad.headers.get('request-id')! } });
    expect(badRow).toMatchObject({ organizationId: org.id, mode: 'test', status: 400, errorCode: 'parameter_invalid', path: '/v1/generations' });
  });
});
