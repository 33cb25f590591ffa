// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * GET /v1/prices: the calling key's organization's prices, tier discount
 * applied, equal to the `cost.amount` of the creations that follow (test and live), through
 * /v1, the SDK's `client.prices.list()` and the MCP tool descriptions.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Roomtone from '@roomtone/sdk';
import { db } from '@/server/platform/db';
import { priceFor, tierOf } from '@/server/capabilities/billing/pricing';
import { api, baseUrl, createKey, createTestOrg, testIp } from './support';
import { expectError, noiseImage, serve, type ApiGeneration } from './images-support';

const ip = testIp();

interface PriceLine {
  object: 'price';
  type: 'render' | 'edit' | 'decoration' | 'upscale';
  quality: '1k' | '2k' | '4k' | '8k' | null;
  scale: 'x2' | 'x4' | null;
  amount: number;
  list_amount: number;
  discount_percent: number;
  currency: 'eur';
  unit: 'cents';
}

function priceOf(lines: PriceLine[], type: PriceLine['type'], setting: string): PriceLine {
  const line = lines.find((l) => l.type === type && (l.quality === setting || l.scale === setting));
  if (!line) throw new Error(`no price for ${type} ${setting}`);
  return line;
}

describe('GET /v1/prices', () => {
  it('lists every type at every quality or scale with the tier discount; the creations that follow cost exactly that', async () => {
    const org = await createTestOrg({ tier: 2, credit: 1_000 });
    const res = await api<{ object: string; data: PriceLine[]; has_more: boolean }>('/v1/prices', { key: org.testKey, ip });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    const lines = res.body.data;
    expect(lines).toHaveLength(3 * 4 + 2);
    const discount = tierOf(2).discountPercent;
    expect(discount).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatchObject({ object: 'price', discount_percent: discount, currency: 'eur', unit: 'cents' });
      expect(line.amount).toBe(Math.round((line.list_amount * (100 - discount)) / 100));
      expect(line.amount).toBeLessThan(line.list_amount);
    }
    // A live key sees the same prices (test mode charges nothing, but quotes what live charges).
    expect((await api<{ data: PriceLine[] }>('/v1/prices', { key: org.liveKey, ip })).body.data).toEqual(lines);

    // Test mode: each creation's cost.amount is the listed amount (the 4k and 8k previews are
    // big images; their lines come from the same function as the ones checked here).
    const image = serve(await noiseImage(320, 240), 'jpg');
    const creations: [string, PriceLine['type'], string, Record<string, unknown>][] = [
      ['/v1/renders', 'render', '1k', { quality: '1k' }],
      ['/v1/renders', 'render', '2k', { quality: '2k' }],
      ['/v1/edits', 'edit', '1k', { quality: '1k', mode: 'prompt', prompt: 'Paint the walls sage green' }],
      ['/v1/edits', 'edit', '2k', { quality: '2k', mode: 'prompt', prompt: 'Paint the walls sage green' }],
      ['/v1/decorations', 'decoration', '1k', { quality: '1k', style: 'japandi' }],
      ['/v1/decorations', 'decoration', '2k', { quality: '2k', style: 'japandi' }],
      ['/v1/upscales', 'upscale', 'x2', { scale: 'x2' }],
      ['/v1/upscales', 'upscale', 'x4', { scale: 'x4' }],
    ];
    for (const [route, type, setting, body] of creations) {
      const created = await api<ApiGeneration>(route, { key: org.testKey, ip, body: { image, ...body, background: true } });
      expect(created.status, `${route} ${JSON.stringify(created.body)}`).toBe(202);
      expect(created.body.cost.amount, `${type} ${setting}`).toBe(priceOf(lines, type, setting).amount);
    }
    for (const quality of ['4k', '8k'] as const) {
      for (const type of ['render', 'edit', 'decoration'] as const) expect(priceOf(lines, type, quality).amount).toBe(priceFor(type, { quality }, 2).amount);
    }

    // Live: charged exactly the listed amount.
    for (const scale of ['x2', 'x4'] as const) {
      const before = (await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents;
      const created = await api<ApiGeneration>('/v1/upscales', { key: org.liveKey, ip, body: { image, scale, background: true } });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      expect(created.body.cost.amount).toBe(priceOf(lines, 'upscale', scale).amount);
      expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(before - priceOf(lines, 'upscale', scale).amount);
    }
  });

  it('follows the organization\'s tier; needs a creation permission', async () => {
    const starter = await createTestOrg({ tier: 1 });
    const scale = await createTestOrg({ tier: 3 });
    const a = (await api<{ data: PriceLine[] }>('/v1/prices', { key: starter.testKey, ip })).body.data;
    const b = (await api<{ data: PriceLine[] }>('/v1/prices', { key: scale.testKey, ip })).body.data;
    expect(priceOf(a, 'render', '8k')).toMatchObject({ amount: priceFor('render', { quality: '8k' }, 1).amount, discount_percent: 0 });
    expect(priceOf(b, 'render', '8k')).toMatchObject({ amount: priceFor('render', { quality: '8k' }, 3).amount, discount_percent: 20 });
    const readOnly = await createKey(starter.id, 'test', ['generations_read']);
    expectError(await api('/v1/prices', { key: readOnly, ip }), 403, 'permission_denied');
    const upscalesOnly = await createKey(starter.id, 'test', ['upscales']);
    expect((await api('/v1/prices', { key: upscalesOnly, ip })).status).toBe(200);
    expectError(await api('/v1/prices', { ip }), 401, 'api_key_missing');
  });

  it('the SDK\'s client.prices.list() and the MCP creation tools\' descriptions give the same amounts', async () => {
    const org = await createTestOrg({ tier: 2 });
    const lines = (await api<{ data: PriceLine[] }>('/v1/prices', { key: org.testKey, ip })).body.data;
    const client = new Roomtone({
      apiKey: org.testKey,
      baseUrl,
      maxRetries: 0,
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': ip } }),
    });
    const viaSdk = await client.prices.list();
    expect(viaSdk.data).toEqual(lines);

    const mcp = new Client({ name: 'roomtone-prices-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip } } }));
    const tools = (await mcp.listTools()).tools;
    await mcp.close();
    const description = (name: string) => tools.find((t) => t.name === name)?.description ?? '';
    for (const [tool, type, settings] of [
      ['create_render', 'render', ['1k', '2k', '4k', '8k']],
      ['create_edit', 'edit', ['1k', '2k', '4k', '8k']],
      ['create_decoration', 'decoration', ['1k', '2k', '4k', '8k']],
      ['create_upscale', 'upscale', ['x2', 'x4']],
    ] as const) {
      const expected = settings.map((s) => `${s} ${priceOf(lines, type, s).amount}`).join(', ');
      expect(description(tool)).toContain(`(tier discount 10% applied): ${expected} (`);
    }
    expect(description('list_styles')).not.toContain('Price per image');
  });
});
