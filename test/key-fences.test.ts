// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
/**
 * Key fences, through the real routes: a key's IP allowlist on /v1 and
 * /mcp, judged on the client IP behind the trusted proxy hop (the shared test server runs with
 * TRUST_PROXY=true, one hop) and applied at once after an edit, however warm the key cache; a
 * key's own request rate; a key's monthly spend cap (402, nothing charged); the console's edit
 * (owners and admins, limits below the organization's, audited) and its list (last use and IP);
 * an open event stream fenced off its address.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Roomtone, { PermissionDeniedError } from '@roomtone/sdk';
import { db } from '@/server/platform/db';
import { PERMISSIONS } from '@/shared/keys/permissions';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { priceFor, tierOf } from '@/server/capabilities/billing/pricing';
import { api, baseUrl, createTestOrg, testIp, type TestOrg } from './support';
import { createMember, mutate, query, signedIn } from './console-support';
import { expectError, noiseImage, serve, type ApiGeneration } from './images-support';
import { waitFor } from './server-processes';

const INSIDE = '192.0.2.10';
const OUTSIDE = '198.51.100.9';

interface Fences {
  allowedIps: string[];
  requestsPerMinute: number | null;
  monthlySpendCapCents: number | null;
}

const NO_FENCES: Fences = { allowedIps: [], requestsPerMinute: null, monthlySpendCapCents: null };

async function ownerOf(org: TestOrg): Promise<string> {
  const owner = await createMember(org.id, 'owner');
  return signedIn(owner.email);
}

async function setFences(org: TestOrg, cookie: string, mode: 'test' | 'live', keyId: string, fences: Partial<Fences>) {
  return mutate<Fences & { id: string }>('keys.fences', { organizationId: org.id, mode, keyId, ...NO_FENCES, ...fences }, cookie);
}

async function logLine(requestId: string) {
  return waitFor(`request log line ${requestId}`, () => db().requestLog.findUnique({ where: { id: requestId } }), 20_000);
}

async function mcpPost(key: string, forwardedFor: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify(body),
  });
}

async function mcpClient(key: string, forwardedFor: string): Promise<Client> {
  const client = new Client({ name: 'roomtone-fences-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': forwardedFor } } }));
  return client;
}

describe('a key with an IP allowlist', () => {
  it('/v1: a request from outside answers 403 api_key_ip_not_allowed naming the key id (never the secret), is logged under the key, and the edit applies at once', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    // Warm the key cache of the serving processes on both read paths first.
    for (let i = 0; i < 4; i++) {
      expect((await api('/v1/styles', { key: org.testKey, ip: OUTSIDE })).status).toBe(200);
      expect((await api('/v1/generations', { key: org.testKey, ip: OUTSIDE })).status).toBe(200);
    }
    const set = await setFences(org, cookie, 'test', org.keyIds.test, { allowedIps: ['192.0.2.0/24', '2001:db8::/32'] });
    expect(set.error).toBeNull();
    expect(set.data.allowedIps).toEqual(['192.0.2.0/24', '2001:db8::/32']);

    for (const path of ['/v1/styles', '/v1/generations', '/v1/generations/gen_doesnotexist']) {
      const res = await api<{ error: { code: string; message: string } }>(path, { key: org.testKey, ip: OUTSIDE });
      expectError(res, 403, 'api_key_ip_not_allowed');
      expect(res.body.error.message).toContain(org.keyIds.test);
      expect(res.body.error.message).toContain(OUTSIDE);
      expect(res.body.error.message).not.toContain(org.testKey);
      expect(res.body.error.message).not.toContain(org.testKey.slice(8));
      const line = await logLine(res.headers.get('request-id')!);
      expect(line).toMatchObject({ organizationId: org.id, apiKeyId: org.keyIds.test, status: 403, errorCode: 'api_key_ip_not_allowed', ip: OUTSIDE });
    }
    expect((await api('/v1/styles', { key: org.testKey, ip: INSIDE })).status).toBe(200);
    expect((await api('/v1/generations', { key: org.testKey, ip: '2001:db8:7::1' })).status).toBe(200);

    // Cleared: from anywhere again, at once.
    expect((await setFences(org, cookie, 'test', org.keyIds.test, {})).error).toBeNull();
    expect((await api('/v1/generations', { key: org.testKey, ip: OUTSIDE })).status).toBe(200);
  });

  it('behind the trusted proxy hop: judged on the address the proxy saw, never on entries the client wrote to the left', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    expect((await setFences(org, cookie, 'test', org.keyIds.test, { allowedIps: [INSIDE] })).error).toBeNull();
    // TRUST_PROXY=true (one hop): the right-most X-Forwarded-For entry is the client.
    const forged = await api('/v1/styles', { key: org.testKey, headers: { 'x-forwarded-for': `${INSIDE}, ${OUTSIDE}` } });
    expectError(forged, 403, 'api_key_ip_not_allowed');
    expect((await logLine(forged.headers.get('request-id')!)).ip).toBe(OUTSIDE);
    const proxied = await api('/v1/styles', { key: org.testKey, headers: { 'x-forwarded-for': `${OUTSIDE}, ${INSIDE}` } });
    expect(proxied.status).toBe(200);
    expect((await mcpPost(org.testKey, `${INSIDE}, ${OUTSIDE}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(403);
    expect((await mcpPost(org.testKey, `${OUTSIDE}, ${INSIDE}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
  });

  it('/mcp: the official client connects from inside only; from outside every message answers 403 with the code, logged under the key', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const before = await mcpClient(org.testKey, OUTSIDE);
    expect((await before.listTools()).tools.length).toBeGreaterThan(0);
    await before.close();

    expect((await setFences(org, cookie, 'test', org.keyIds.test, { allowedIps: ['192.0.2.0/24'] })).error).toBeNull();
    await expect(mcpClient(org.testKey, OUTSIDE)).rejects.toThrow(/403|api_key_ip_not_allowed/);
    const res = await mcpPost(org.testKey, OUTSIDE, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_styles', arguments: {} } });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('api_key_ip_not_allowed');
    expect(body.error.message).toContain(org.keyIds.test);
    expect(body.error.message).not.toContain(org.testKey);
    const line = await logLine(res.headers.get('request-id')!);
    expect(line).toMatchObject({ organizationId: org.id, apiKeyId: org.keyIds.test, path: '/mcp', status: 403, errorCode: 'api_key_ip_not_allowed' });

    const inside = await mcpClient(org.testKey, INSIDE);
    const styles = await inside.callTool({ name: 'list_styles', arguments: {} });
    expect(styles.isError).not.toBe(true);
    await inside.close();
  });
});

describe("a key's own request rate", () => {
  it('counts the key alone: past its limit 429 rate_limit_exceeded with its headers; the organization\'s other keys go on', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const other = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
    const ip = testIp();
    expect((await setFences(org, cookie, 'test', org.keyIds.test, { requestsPerMinute: 3 })).error).toBeNull();
    for (let i = 0; i < 3; i++) {
      const ok = await api('/v1/styles', { key: org.testKey, ip });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit-requests')).toBe('3');
      expect(ok.headers.get('x-ratelimit-remaining-requests')).toBe(String(2 - i));
    }
    const refused = await api<{ error: { message: string } }>('/v1/styles', { key: org.testKey, ip });
    expectError(refused, 429, 'rate_limit_exceeded');
    expect(refused.body.error.message).toContain('this API key (3/min)');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // MCP counts on the same window.
    expect((await mcpPost(org.testKey, ip, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(429);
    const sibling = await api('/v1/styles', { key: other.secret, ip });
    expect(sibling.status).toBe(200);
    expect(sibling.headers.get('x-ratelimit-limit-requests')).toBe(String(tierOf(9).requestsPerMinute));
  });
});

describe("a key's monthly spend cap", () => {
  it('live: a creation that would pass it answers 402 api_key_spend_cap_reached and charges nothing; other keys and a raised cap go on', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const cookie = await ownerOf(org);
    const image = serve(await noiseImage(320, 240), 'jpg');
    const price = priceFor('upscale', { scale: 'x2' }, 9).amount;
    expect((await setFences(org, cookie, 'live', org.keyIds.live, { monthlySpendCapCents: price + 5 })).error).toBeNull();
    const ip = testIp();
    const first = await api<ApiGeneration>('/v1/upscales', { key: org.liveKey, ip, body: { image, scale: 'x2', background: true } });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.cost.amount).toBe(price);
    const balanceAfterFirst = (await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents;
    expect(balanceAfterFirst).toBe(1_000 - price);

    const refused = await api<{ error: { message: string } }>('/v1/upscales', { key: org.liveKey, ip, body: { image, scale: 'x2', background: true } });
    expectError(refused, 402, 'api_key_spend_cap_reached');
    expect(refused.body.error.message).toContain(org.keyIds.live);
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(balanceAfterFirst);
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'charge' } })).toBe(1);

    // Over MCP too, with the same code.
    const client = await mcpClient(org.liveKey, ip);
    const viaMcp = await client.callTool({ name: 'create_upscale', arguments: { image, scale: 'x2' } }, undefined, { timeout: 60_000 });
    expect(viaMcp.isError).toBe(true);
    expect(JSON.parse((viaMcp.content as { text: string }[])[0]!.text)).toMatchObject({ error: { code: 'api_key_spend_cap_reached' } });
    await client.close();
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(balanceAfterFirst);

    // Another live key of the organization is not fenced by it.
    const other = await createApiKey(db(), { organizationId: org.id, mode: 'live' });
    expect((await api('/v1/upscales', { key: other.secret, ip, body: { image, scale: 'x2', background: true } })).status).toBe(202);
    // Raised: the next creation passes.
    expect((await setFences(org, cookie, 'live', org.keyIds.live, { monthlySpendCapCents: price * 2 })).error).toBeNull();
    expect((await api('/v1/upscales', { key: org.liveKey, ip, body: { image, scale: 'x2', background: true } })).status).toBe(202);
  });
});

describe('editing fences from the console', () => {
  it('owners and admins only; limits below the organization\'s; addresses checked; audited with before and after', async () => {
    const org = await createTestOrg({ tier: 1 });
    const ownerCookie = await ownerOf(org);
    const developer = await createMember(org.id, 'developer');
    const devCookie = await signedIn(developer.email);
    const own = await mutate<{ id: string }>('keys.create', { organizationId: org.id, mode: 'test', name: 'dev', permissions: [...PERMISSIONS] }, devCookie);
    const denied = await setFences(org, devCookie, 'test', own.data.id, { requestsPerMinute: 10 });
    expect(denied.error?.code).toBe('permission_denied');

    const tier = tierOf(1);
    expect((await setFences(org, ownerCookie, 'test', org.keyIds.test, { requestsPerMinute: tier.requestsPerMinute })).error).toMatchObject({ code: 'parameter_invalid', param: 'requestsPerMinute' });
    expect((await setFences(org, ownerCookie, 'test', org.keyIds.test, { monthlySpendCapCents: tier.monthlyLimitCents })).error).toMatchObject({ code: 'parameter_invalid', param: 'monthlySpendCapCents' });
    expect((await setFences(org, ownerCookie, 'test', org.keyIds.test, { allowedIps: ['192.0.2.1', 'not-an-ip'] })).error).toMatchObject({ code: 'parameter_invalid', param: 'allowedIps[1]' });
    const tooMany = Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`);
    expect((await setFences(org, ownerCookie, 'test', org.keyIds.test, { allowedIps: tooMany })).error?.code).toBe('parameter_invalid');
    // Another organization's key is not found.
    const foreign = await createTestOrg();
    expect((await setFences(org, ownerCookie, 'test', foreign.keyIds.test, { requestsPerMinute: 5 })).error?.code).toBe('resource_not_found');
    expect(await db().auditEvent.count({ where: { organizationId: org.id, action: 'api_key.fences_updated' } })).toBe(0);

    const saved = await setFences(org, ownerCookie, 'test', org.keyIds.test, { allowedIps: ['192.0.2.7', '2001:DB8::/48'], requestsPerMinute: 60, monthlySpendCapCents: 2_500 });
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({ allowedIps: ['192.0.2.7/32', '2001:db8::/48'], requestsPerMinute: 60, monthlySpendCapCents: 2_500 });
    const audit = await db().auditEvent.findMany({ where: { organizationId: org.id, action: 'api_key.fences_updated' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetType: 'api_key', targetId: org.keyIds.test, mode: 'test' });
    expect(audit[0]!.details).toMatchObject({
      from: { allowed_ips: [], requests_per_minute: null, monthly_spend_cap_cents: null },
      to: { allowed_ips: ['192.0.2.7/32', '2001:db8::/48'], requests_per_minute: 60, monthly_spend_cap_cents: 2_500 },
    });
    // Saving the same fences again records nothing new.
    await setFences(org, ownerCookie, 'test', org.keyIds.test, { allowedIps: ['192.0.2.7/32', '2001:db8::/48'], requestsPerMinute: 60, monthlySpendCapCents: 2_500 });
    expect(await db().auditEvent.count({ where: { organizationId: org.id, action: 'api_key.fences_updated' } })).toBe(1);
  });

  it('the key list shows each key\'s last use with its IP, and its fences', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const ip = testIp();
    expect((await api('/v1/styles', { key: org.testKey, ip })).status).toBe(200);
    await setFences(org, cookie, 'test', org.keyIds.test, { allowedIps: [ip], requestsPerMinute: 100 });
    const listed = await waitFor('the last use to be written', async () => {
      const page = await query<{ data: { id: string; last_used_at: number | null; last_used_ip: string | null; allowed_ips: string[]; requests_per_minute: number | null; monthly_spend_cap_cents: number | null; can_fence: boolean }[] }>(
        'keys.list',
        { organizationId: org.id, mode: 'test' },
        cookie,
      );
      const row = page.data.data.find((k) => k.id === org.keyIds.test);
      return row?.last_used_ip ? row : null;
    }, 20_000);
    expect(listed).toMatchObject({ last_used_ip: ip, allowed_ips: [`${ip}/32`], requests_per_minute: 100, monthly_spend_cap_cents: null, can_fence: true });
    expect(listed.last_used_at).toBeGreaterThan(0);
  });
});

describe('an open event stream', () => {
  it('ends at its next keep-alive once an edit fences its address off (the SDK raises PermissionDeniedError)', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const ip = testIp();
    const sdk = new Roomtone({
      apiKey: org.testKey,
      baseUrl,
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': ip } }),
    });
    let opened!: () => void;
    const ready = new Promise<void>((resolve) => (opened = resolve));
    const ended = (async () => {
      try {
        for await (const event of sdk.webhooks.listen({ onReady: () => opened() })) void event;
        return null;
      } catch (error) {
        return error;
      }
    })();
    await Promise.race([ready, ended.then((error) => Promise.reject(error ?? new Error('the stream ended before it was ready')))]);
    expect((await setFences(org, cookie, 'test', org.keyIds.test, { allowedIps: ['192.0.2.0/24'] })).error).toBeNull();
    const error = await ended;
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'api_key_ip_not_allowed' });
  }, 60_000);
});
