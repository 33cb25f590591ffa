// @worker-process shared: the MCP SDK client and requests to the shared server; it starts no server or process, sets no environment, and lifts the holds it places
/**
 * The MCP endpoint through the official SDK client (Client + StreamableHTTPClientTransport)
 * against the real server: tools, rules, errors, idempotency across doors, shared quota,
 * uploads end to end, permissions, the creation wait and get_generation waking at the end.
 * The deletion of unused uploads an hour on is test/retention.test.ts's (a run an hour ahead
 * would delete other files' uploads on the shared database).
 */
import { describe, it, expect, beforeAll, beforeEach } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/server/platform/db';
import { api, baseUrl, createKey, createTestOrg, holdGenerations, testIp, type TestOrg } from './support';
import { restoreServedFiles, serve, solidImage, type ApiGeneration } from './images-support';
import { insertGeneration } from './fixtures';

const ip = testIp();

async function connect(key: string, from = ip): Promise<Client> {
  const client = new Client({ name: 'roomtone-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': from } },
  });
  await client.connect(transport);
  return client;
}

interface ToolAnswer<T = Record<string, unknown>> {
  isError: boolean;
  body: T;
  texts: string[];
  links: ResourceLink[];
}

async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer<T>> {
  return answerOf<T>((await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult);
}

/** Text items, then resource links (outputs): never an image. */
function answerOf<T>(result: CallToolResult): ToolAnswer<T> {
  for (const item of result.content) expect(['text', 'resource_link']).toContain(item.type);
  const texts = result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
  const links = result.content.filter((c): c is ResourceLink => c.type === 'resource_link');
  return { isError: result.isError === true, body: JSON.parse(texts[0] ?? 'null') as T, texts, links };
}

function expectToolError(answer: ToolAnswer<unknown>, code: string, param?: string): void {
  expect(answer.isError, JSON.stringify(answer.body)).toBe(true);
  const body = answer.body as { error: { code: string; message: string; param?: string } };
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  if (param === undefined) expect(body.error.param).toBeUndefined();
  else expect(body.error.param).toBe(param);
}

async function rawPost(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': ip, ...headers },
    body,
  });
}

async function logLines(organizationId: string, pathName: string): Promise<{ status: number; errorCode: string | null }[]> {
  for (let i = 0; i < 20; i++) {
    const rows = await db().requestLog.findMany({ where: { organizationId, path: pathName }, orderBy: { seq: 'asc' } });
    if (rows.length > 0) return rows;
    await new Promise((r) => setTimeout(r, 150));
  }
  return [];
}

async function balanceOf(organizationId: string): Promise<number> {
  return (await db().organization.findUniqueOrThrow({ where: { id: organizationId } })).balanceCents;
}

let org: TestOrg;
let smallPng: string;

beforeAll(async () => {
  org = await createTestOrg();
  smallPng = serve(await solidImage(64, 48), 'png');
});
beforeEach(() => restoreServedFiles());

describe('the door', () => {
  it('lists exactly the nine tools with strict JSON Schemas and no background', async () => {
    const client = await connect(org.testKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['create_decoration', 'create_edit', 'create_render', 'create_upload', 'create_upscale', 'get_generation', 'list_edit_material_categories', 'list_edit_materials', 'list_styles'],
    );
    const edit = tools.find((t) => t.name === 'create_edit')!;
    const props = edit.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>;
    expect(edit.inputSchema.additionalProperties).toBe(false);
    expect(props.background).toBeUndefined();
    expect(props.idempotency_key).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    expect(props.quality?.enum).toEqual(['1k', '2k', '4k', '8k']);
    expect(props.mask?.description).toContain('#CCFF00');
    expect(edit.inputSchema.required).toEqual(expect.arrayContaining(['image', 'mode', 'quality']));
    const get = tools.find((t) => t.name === 'get_generation')!;
    expect((get.inputSchema.properties as Record<string, unknown>).wait_seconds).toMatchObject({ minimum: 0, maximum: 50, default: 50 });
    expect(client.getInstructions()).toContain('OAuth is not supported');
    await client.close();
  });

  it('declares annotations and an outputSchema per tool, and returns structuredContent that the official client validates against it', async () => {
    const client = await connect(org.testKey);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
      expect(tool.annotations, tool.name).toMatchObject({ destructiveHint: false });
      const reads = tool.name === 'get_generation' || tool.name.startsWith('list_');
      expect(tool.annotations, tool.name).toMatchObject(reads ? { readOnlyHint: true, idempotentHint: true, openWorldHint: false } : { readOnlyHint: false, idempotentHint: false });
    }
    expect(tools.find((t) => t.name === 'create_render')!.annotations).toMatchObject({ openWorldHint: true });
    expect(tools.find((t) => t.name === 'get_generation')!.outputSchema!.required).toEqual(expect.arrayContaining(['object', 'id', 'status', 'output', 'cost']));
    // callTool validates structuredContent against the listed outputSchema (it throws otherwise).
    const styles = (await client.callTool({ name: 'list_styles', arguments: {} })) as CallToolResult;
    expect(styles.structuredContent).toEqual(JSON.parse((styles.content[0] as { text: string }).text));
    expect(styles.structuredContent).toMatchObject({ object: 'list', has_more: false });
    const upscale = (await client.callTool({ name: 'create_upscale', arguments: { image: smallPng, scale: 'x2' } }, undefined, { timeout: 120_000 })) as CallToolResult;
    expect(upscale.isError).toBeFalsy();
    expect(upscale.structuredContent).toMatchObject({ object: 'generation', status: 'succeeded' });
    const got = (await client.callTool({ name: 'get_generation', arguments: { id: (upscale.structuredContent as { id: string }).id } })) as CallToolResult;
    expect(got.structuredContent).toEqual(JSON.parse((got.content[0] as { text: string }).text));
    await client.close();
  });

  it('refuses missing and bad keys with 401 and WWW-Authenticate, browsers with 403, GET/DELETE with 405; request-id everywhere; no session id', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const missing = await rawPost(init, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('api_key_missing');
    const bad = await rawPost(init, { authorization: 'Bearer rt_test_nope' });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('api_key_invalid');
    const browser = await rawPost(init, { authorization: `Bearer ${org.testKey}`, origin: 'https://evil.example' });
    expect(browser.status).toBe(403);
    expect(((await browser.json()) as { error: { code: string } }).error.code).toBe('browser_request_refused');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('request-id')).toMatch(/^req_/);
    }
    const ok = await rawPost(init, { authorization: `Bearer ${org.testKey}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('request-id')).toMatch(/^req_/);
    expect(ok.headers.get('mcp-session-id')).toBeNull();
    expect(ok.headers.get('x-ratelimit-limit-requests')).not.toBeNull();
    for (const res of [missing, bad, browser]) expect(res.headers.get('request-id')).toMatch(/^req_/);
  });

  it('refuses a message over 64 KB with 413 request_too_large; malformed JSON-RPC and unknown tools stay JSON-RPC errors', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_styles', arguments: { pad: 'x'.repeat(70_000) } } });
    const res = await rawPost(big, { authorization: `Bearer ${org.testKey}` });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
    const malformed = await rawPost('{"jsonrpc":', { authorization: `Bearer ${org.testKey}` });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const client = await connect(org.testKey);
    await expect(client.callTool({ name: 'create_video', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });
});

describe('request rate', () => {
  it('every MCP message counts in the organization rate shared with /v1 (tier 1: 120/min) → 429 rate_limit_exceeded with Retry-After', async () => {
    const local = await createTestOrg({ tier: 1 });
    const from = testIp();
    for (let i = 0; i < 60; i++) expect((await api('/v1/styles', { key: local.testKey, ip: from })).status).toBe(200);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (let i = 0; i < 60; i++) {
      const res = await rawPost(ping, { authorization: `Bearer ${local.testKey}`, 'x-forwarded-for': from });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const refused = await rawPost(ping, { authorization: `Bearer ${local.testKey}`, 'x-forwarded-for': from });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });
});

describe('creation tools', () => {
  it('create_upscale waits for the end and returns the generation as JSON plus the next step; the request log shows /mcp/create_upscale', async () => {
    // Warm the engine's worker threads first: a cold first generation on a loaded machine can outlast the wait.
    expect((await api('/v1/upscales', { key: org.testKey, ip, body: { image: smallPng, scale: 'x2' } })).status).toBe(200);
    const client = await connect(org.testKey);
    const answer = await call<ApiGeneration>(client, 'create_upscale', { image: smallPng, scale: 'x2', metadata: { job: 'mcp' } });
    expect(answer.isError).toBe(false);
    expect(answer.body).toMatchObject({ object: 'generation', type: 'upscale', status: 'succeeded', livemode: false, metadata: { job: 'mcp' } });
    expect(answer.body.output[0]).toMatchObject({ width: 128, height: 96 });
    expect(answer.texts[1]).toContain('output[0].url');
    expect(answer.texts[1]).toContain('15 minutes');
    // The output as a resource link: the signed URL, its expiry, content type and size.
    const out = answer.body.output[0]!;
    expect(answer.links).toHaveLength(1);
    const image = await fetch(answer.links[0]!.uri);
    expect(image.status).toBe(200);
    const bytes = (await image.arrayBuffer()).byteLength;
    expect(answer.links[0]).toMatchObject({ type: 'resource_link', uri: out.url, mimeType: out.content_type, size: bytes, name: `${answer.body.id}-0.webp`, _meta: { 'roomtone/url_expires_at': out.url_expires_at } });
    expect(answer.links[0]!.description).toContain(new Date(out.url_expires_at * 1000).toISOString());
    const row = await db().generation.findUniqueOrThrow({ where: { id: answer.body.id } });
    expect(row.channel).toBe('mcp');
    const lines = await logLines(org.id, '/mcp/create_upscale');
    expect(lines.some((l) => l.status === 200 && l.errorCode === null)).toBe(true);
    await client.close();
  });

  it('refuses background and any unknown argument as a tool error parameter_invalid naming it (logged with its code)', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    expectToolError(await call(client, 'create_upscale', { image: smallPng, scale: 'x2', background: true }), 'parameter_invalid', 'background');
    expectToolError(await call(client, 'create_render', { image: smallPng, quality: '1k', colour: 'red' }), 'parameter_invalid', 'colour');
    expectToolError(await call(client, 'create_upscale', { image: smallPng, scale: 'x3' }), 'parameter_invalid', 'scale');
    expectToolError(await call(client, 'create_edit', { image: smallPng, mode: 'mask', quality: '1k', prompt: 'x' }), 'parameter_invalid', 'prompt');
    expectToolError(await call(client, 'create_upscale', { image: 'data:image/png;base64,AAAA', scale: 'x2' }), 'parameter_invalid', 'image');
    expectToolError(await call(client, 'create_upscale', { image: smallPng, scale: 'x2', idempotency_key: '' }), 'parameter_invalid', 'idempotency_key');
    const lines = await logLines(local.id, '/mcp/create_upscale');
    expect(lines.map((l) => [l.status, l.errorCode])).toContainEqual([400, 'parameter_invalid']);
    expect(await db().generation.count({ where: { organizationId: local.id } })).toBe(0);
    await client.close();
  });

  it('live mode: the same prices and refusals as /v1 (render without a model: 503 mode_unavailable, nothing charged)', async () => {
    const local = await createTestOrg({ credit: 5000 });
    const client = await connect(local.liveKey);
    const before = await balanceOf(local.id);
    expectToolError(await call(client, 'create_render', { image: smallPng, quality: '1k' }), 'mode_unavailable');
    const upscale = await call<ApiGeneration>(client, 'create_upscale', { image: smallPng, scale: 'x4' });
    expect(upscale.body.cost).toMatchObject({ amount: 20, currency: 'eur' });
    expect(await balanceOf(local.id)).toBe(before - 20);
    await client.close();
  });

  it('idempotency_key: same records as Idempotency-Key; a key first used on the other door is 409 idempotency_key_reused, both ways', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    const first = await call<ApiGeneration>(client, 'create_upscale', { image: smallPng, scale: 'x2', idempotency_key: 'mcp-first' });
    const again = await call<ApiGeneration>(client, 'create_upscale', { image: smallPng, scale: 'x2', idempotency_key: 'mcp-first' });
    expect(again.body.id).toBe(first.body.id);
    expect(await db().generation.count({ where: { organizationId: local.id } })).toBe(1);
    const v1 = await api('/v1/upscales', { key: local.testKey, ip, body: { image: smallPng, scale: 'x2' }, headers: { 'idempotency-key': 'mcp-first' } });
    expect(v1.status).toBe(409);
    expect((v1.body as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
    const v1First = await api('/v1/upscales', { key: local.testKey, ip, body: { image: smallPng, scale: 'x2', background: true }, headers: { 'idempotency-key': 'v1-first' } });
    expect(v1First.status).toBe(202);
    expectToolError(await call(client, 'create_upscale', { image: smallPng, scale: 'x2', idempotency_key: 'v1-first' }), 'idempotency_key_reused');
    await client.close();
  });

  it('shares the generation quota with /v1 (tier 1: 10 a minute)', async () => {
    const local = await createTestOrg({ tier: 1 });
    for (let i = 0; i < 10; i++) await insertGeneration({ organizationId: local.id, mode: 'test', status: 'succeeded' });
    const client = await connect(local.testKey);
    expectToolError(await call(client, 'create_upscale', { image: smallPng, scale: 'x2' }), 'generation_rate_limit_exceeded');
    const v1 = await api('/v1/upscales', { key: local.testKey, ip, body: { image: smallPng, scale: 'x2' } });
    expect((v1.body as { error: { code: string } }).error.code).toBe('generation_rate_limit_exceeded');
    // Live mode has its own quota.
    const live = await connect(local.liveKey);
    expect((await call(live, 'create_upscale', { image: smallPng, scale: 'x2' })).isError).toBe(false);
    await client.close();
    await live.close();
  });

  it('permissions per tool (403 permission_denied)', async () => {
    const local = await createTestOrg();
    const editsOnly = await connect(await createKey(local.id, 'test', ['edits']));
    expectToolError(await call(editsOnly, 'create_upscale', { image: smallPng, scale: 'x2' }), 'permission_denied');
    expectToolError(await call(editsOnly, 'create_render', { image: smallPng, quality: '1k' }), 'permission_denied');
    expectToolError(await call(editsOnly, 'create_decoration', { image: smallPng, quality: '1k', style: 'scandinavian' }), 'permission_denied');
    expectToolError(await call(editsOnly, 'list_styles'), 'permission_denied');
    expectToolError(await call(editsOnly, 'get_generation', { id: 'gen_abc' }), 'permission_denied');
    expect((await call(editsOnly, 'list_edit_material_categories')).isError).toBe(false);
    // The spec gives list_styles to decorations only.
    const rendersOnly = await connect(await createKey(local.id, 'test', ['renders']));
    expectToolError(await call(rendersOnly, 'list_styles'), 'permission_denied');
    const decorationsOnly = await connect(await createKey(local.id, 'test', ['decorations']));
    expect((await call(decorationsOnly, 'list_styles')).isError).toBe(false);
    await decorationsOnly.close();
    expectToolError(await call(rendersOnly, 'list_edit_materials'), 'permission_denied');
    await rendersOnly.close();
    expect((await call(editsOnly, 'create_upload')).isError).toBe(false);
    const readOnly = await connect(await createKey(local.id, 'test', ['generations_read']));
    expectToolError(await call(readOnly, 'create_upload'), 'permission_denied');
    expectToolError(await call(readOnly, 'list_edit_materials'), 'permission_denied');
    await editsOnly.close();
    await readOnly.close();
  });
});

describe('get_generation and the waits', () => {
  it('a creation still running after the configured wait returns in_progress and says to call get_generation, which wakes at the end', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    // Held on its worker slot until released: it cannot end within the 8 s wait.
    const release = holdGenerations(local.id);
    const started = Date.now();
    const created = await call<ApiGeneration>(client, 'create_upscale', { image: serve(await solidImage(64, 48), 'png'), scale: 'x2' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(8000);
    expect(created.body.status).toBe('in_progress');
    expect(created.texts[1]).toContain(`get_generation with id "${created.body.id}"`);
    const now = await call<ApiGeneration>(client, 'get_generation', { id: created.body.id, wait_seconds: 0 });
    expect(now.body.status).toBe('in_progress');
    release();
    const ended = await call<ApiGeneration>(client, 'get_generation', { id: created.body.id, wait_seconds: 50 });
    expect(ended.body.status).toBe('succeeded');
    expect(ended.body.output[0]).toMatchObject({ width: 128, height: 96 });
    expect(ended.texts[1]).toContain('output[0].url');
    await client.close();
  }, 180_000);

  it('wait_seconds out of range, a malformed or foreign id, and a generation ended over 24 hours ago are refused', async () => {
    const client = await connect(org.testKey);
    expectToolError(await call(client, 'get_generation', { id: 'gen_abc', wait_seconds: 51 }), 'parameter_invalid', 'wait_seconds');
    expectToolError(await call(client, 'get_generation', { id: 'gen_abc', wait_seconds: -1 }), 'parameter_invalid', 'wait_seconds');
    // Any id that is not a generation's names no resource (as /v1): 404, not 400.
    expectToolError(await call(client, 'get_generation', { id: 'nope' }), 'resource_not_found', 'id');
    expectToolError(await call(client, 'get_generation', { id: 'gen_abc', extra: 1 }), 'parameter_invalid', 'extra');
    const other = await createTestOrg();
    const foreign = await insertGeneration({ organizationId: other.id, mode: 'test', status: 'succeeded' });
    expectToolError(await call(client, 'get_generation', { id: foreign.id }), 'resource_not_found', 'id');
    const liveOwn = await insertGeneration({ organizationId: org.id, mode: 'live', status: 'succeeded' });
    expectToolError(await call(client, 'get_generation', { id: liveOwn.id }), 'resource_not_found', 'id');
    const old = await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded', createdAt: new Date(Date.now() - 25 * 3600 * 1000) });
    expectToolError(await call(client, 'get_generation', { id: old.id, wait_seconds: 0 }), 'resource_not_found', 'id');
    const v1 = await api(`/v1/generations/${old.id}`, { key: org.testKey, ip });
    expect(v1.status).toBe(200); // still readable on /v1 (13 months)
    await client.close();
  });
});

describe('list tools', () => {
  it('return the /v1 list objects unchanged, with the same pagination arguments and errors', async () => {
    const client = await connect(org.testKey);
    for (const [tool, route] of [
      ['list_styles', '/v1/styles'],
      ['list_edit_material_categories', '/v1/edit-material-categories'],
      ['list_edit_materials', '/v1/edit-materials?limit=3'],
    ] as const) {
      const answer = await call(client, tool, tool === 'list_edit_materials' ? { limit: 3 } : {});
      const v1 = await api(route, { key: org.testKey, ip });
      expect(answer.body).toEqual(v1.body);
    }
    const page = await call<{ data: { id: string }[]; has_more: boolean }>(client, 'list_edit_materials', { limit: 2 });
    expect(page.body.has_more).toBe(true);
    const next = await call<{ data: { id: string }[] }>(client, 'list_edit_materials', { limit: 2, after: page.body.data[1]!.id });
    expect(next.body.data[0]!.id).not.toBe(page.body.data[0]!.id);
    expectToolError(await call(client, 'list_edit_materials', { limit: 0 }), 'parameter_invalid', 'limit');
    expectToolError(await call(client, 'list_edit_materials', { limit: 101 }), 'parameter_invalid', 'limit');
    expectToolError(await call(client, 'list_edit_materials', { after: 'mat_unknown' }), 'parameter_invalid', 'after');
    expectToolError(await call(client, 'list_styles', { limit: 5 }), 'parameter_invalid', 'limit');
    await client.close();
  });
});

describe('uploads', () => {
  async function put(url: string, bytes: Buffer): Promise<Response> {
    return fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': ip } });
  }

  it('create, PUT, use once; reuse, other mode and a refused PUT; a refused request leaves the file available', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    const upload = await call<{ id: string; upload_url: string; upload_url_expires_at: number; max_bytes: number }>(client, 'create_upload');
    expect(upload.body.id).toMatch(/^file_/);
    expect(upload.body.max_bytes).toBe(10 * 1024 * 1024);
    expect(upload.body.upload_url_expires_at).toBeGreaterThan(Date.now() / 1000);

    // Not an image by content: refused at PUT, and the URL stays usable.
    const notImage = await put(upload.body.upload_url, Buffer.from('GIF89a not really an image at all'));
    expect(notImage.status).toBe(415);
    expect(((await notImage.json()) as { error: { code: string } }).error.code).toBe('unsupported_image_type');
    const tooBig = await put(upload.body.upload_url, Buffer.alloc(10 * 1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: { code: string } }).error.code).toBe('image_too_large');
    // 4200 px wide: an x4 upscale would pass 16384 px, refused after the file is read.
    const wide = await solidImage(4200, 60);
    expect((await put(upload.body.upload_url, wide)).status).toBe(200);
    const forged = await put(upload.body.upload_url.replace(/signature=[^&]+/, 'signature=AAAA'), wide);
    expect(forged.status).toBe(403);
    expect((await put(upload.body.upload_url, wide)).status).toBe(404); // single use

    // Another mode of the same organization does not see it.
    const live = await connect(local.liveKey);
    expectToolError(await call(live, 'create_upscale', { image: upload.body.id, scale: 'x2' }), 'resource_not_found', 'image');

    expectToolError(await call(client, 'create_upscale', { image: upload.body.id, scale: 'x4' }), 'image_dimensions_invalid', 'image');
    const used = await call<ApiGeneration>(client, 'create_upscale', { image: upload.body.id, scale: 'x2' });
    expect(used.isError, JSON.stringify(used.body)).toBe(false);
    expect(used.body.status).toBe('succeeded');
    expect(used.body.output[0]).toMatchObject({ width: 8400, height: 120 });
    expectToolError(await call(client, 'create_upscale', { image: upload.body.id, scale: 'x2' }), 'resource_not_found', 'image');
    // /v1 accepts the id too (documented), and it is gone there as well.
    const v1 = await api('/v1/upscales', { key: local.testKey, ip, body: { image: upload.body.id, scale: 'x2' } });
    expect(v1.status).toBe(404);
    expect((v1.body as { error: { param?: string } }).error.param).toBe('image');
    await client.close();
    await live.close();
  }, 120_000);

  it('free but live mode needs a positive balance (402); waiting files are limited to Generations/min × 5 (429)', async () => {
    const broke = await createTestOrg({ credit: 0 });
    const live = await connect(broke.liveKey);
    expectToolError(await call(live, 'create_upload'), 'insufficient_balance');
    const test = await connect(broke.testKey);
    expect((await call(test, 'create_upload')).isError).toBe(false);
    await live.close();
    await test.close();

    const tier1 = await createTestOrg({ tier: 1 });
    const client = await connect(tier1.testKey);
    for (let i = 0; i < 50; i++) expect((await call(client, 'create_upload')).isError).toBe(false);
    expectToolError(await call(client, 'create_upload'), 'rate_limit_exceeded');
    expectToolError(await call(client, 'create_upload', { filename: 'room.jpg' }), 'parameter_invalid', 'filename');
    await client.close();
  }, 60_000);
});
