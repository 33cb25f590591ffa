// @node-lines same: a backend stand-in's protocol and our retry and refund rules; backend deadlines and their timers run under both lines in test/backends/deadline-gc.test.ts
/**
 * Live renders, decorations and prompt edits through Replicate's predictions protocol: a real
 * Roomtone server (its own database) configured with ENGINE_*=replicate:…, against a local
 * HTTPS server speaking that protocol with a scripted model that returns real images.
 * Polling (PUBLIC_BASE_URL http) and webhooks (PUBLIC_BASE_URL https, behind a TLS front); the
 * polling server's generations through /mcp too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/server/platform/db';
import { generationJobId } from '@/server/capabilities/generations/generation-run-job';
import { startFakeReplicate, type FakeReplicate } from './replicate-server';
import { call, getBytes, prepareBackendTestEnv, startRoomtone, type BackendTestEnv, type RoomtoneServer } from './harness';
import { backendRuns, balance, form, meanDiff, newOrg, outputPixels, redMask, roomImage, type Gen } from './fixtures';

const TOKEN = 'r8_test_token_0123456789';

/** The address MCP clients call from (behind TRUST_PROXY). */
const FROM = '198.51.100.9';

let env: BackendTestEnv;
let fake: FakeReplicate;

beforeAll(async () => {
  env = await prepareBackendTestEnv('replicate');
  fake = await startFakeReplicate(env.certs, TOKEN);
});

afterAll(async () => {
  await fake?.close();
  await env?.close();
});

/** The inputs this test uploaded to the files API (reset() forgets earlier tests'), all deleted by the end of the call. */
function expectInputsDeleted(count: number): void {
  expect([...fake.files.values()].map((f) => f.deleted)).toEqual(Array<boolean>(count).fill(true));
}

const backendEnv = {
  ENGINE_RENDER: 'replicate:roomtone-test/interior-render',
  ENGINE_DECORATION: 'replicate:roomtone-test/decorate:5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa',
  ENGINE_EDIT_PROMPT: 'replicate:roomtone-test/inpaint',
  REPLICATE_API_TOKEN: TOKEN,
  REPLICATE_BASE_URL: 'https://[::1]/v1',
  REPLICATE_WAIT_SECONDS: '1',
  ENGINE_TIMEOUT_MS: '8000',
  ENGINE_RETRIES: '1',
};

/** A client over /mcp of `server`, as an agent connects with a key. */
async function connect(server: RoomtoneServer, key: string): Promise<Client> {
  const client = new Client({ name: 'roomtone-backend-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': FROM } },
  });
  await client.connect(transport);
  return client;
}

async function tool<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: T }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  const first = result.content[0] as { type: string; text: string };
  expect(first.type).toBe('text');
  return { isError: result.isError === true, body: JSON.parse(first.text) as T };
}

/** create_upload, then the PUT an agent makes: the file id stands for the image. */
async function uploaded(client: Client, bytes: Buffer): Promise<string> {
  const upload = await tool<{ id: string; upload_url: string }>(client, 'create_upload');
  expect(upload.isError, JSON.stringify(upload.body)).toBe(false);
  const res = await fetch(upload.body.upload_url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': FROM } });
  expect(res.status, await res.clone().text()).toBe(200);
  return upload.body.id;
}

describe('Replicate backend, polling (PUBLIC_BASE_URL is http)', () => {
  let server: RoomtoneServer;
  let image: Buffer;
  beforeAll(async () => {
    image = await roomImage();
    server = await startRoomtone(env, backendEnv);
  });
  afterAll(async () => server?.stop());

  const create = (key: string, route: string, fields: Record<string, string | Buffer>) => call<Gen>(server, env.certs.caPem, route, { key, body: form(fields) });

  it('a live render succeeds at the quality size, charged, with the prompt built from the request; inputs deleted at the backend', async () => {
    fake.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '2k', style: 'scandinavian' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 2048, height: 1536, content_type: 'image/webp' });
    expect(res.body.cost).toMatchObject({ amount: 30, amount_refunded: 0 });
    expect(await balance(org.id)).toBe(10_000 - 30);
    // Operator data stays out of the public object.
    expect(JSON.stringify(res.body)).not.toMatch(/replicate|interior-render/);
    const [p] = fake.predictions;
    expect(fake.predictions).toHaveLength(1);
    expect(p!.model).toBe('roomtone-test/interior-render');
    expect(p!.input).toMatchObject({ width: 2048, height: 1536, output_format: 'webp', output_quality: 85, negative_prompt: expect.stringContaining('watermark') });
    expect(p!.input.prompt).toContain('Photorealistic render');
    expect(p!.input.prompt).toContain('Scandinavian style (Light, airy rooms');
    expect(p!.input.prompt).toContain('never crop, rotate, mirror or extend');
    expect(p!.input).not.toHaveProperty('mask');
    expectInputsDeleted(1);
    // The model's image (inverted input), not the input.
    const out = await outputPixels(env, res.body);
    const input = await sharp(image).resize(2048, 1536, { fit: 'fill' }).negate().raw().toBuffer();
    expect(meanDiff(out.data, input, out.width, [0, 0, 2048, 1536])).toBeLessThan(4);
    // The model answered a plain WebP of exactly the size: stored as it came, not re-encoded.
    const stored = await getBytes(res.body.output[0]!.url, env.certs.caPem);
    expect(stored.body.equals(fake.outputs.get(String(p!.output).split('/').pop()!)!)).toBe(true);
    const runs = await backendRuns(res.body.id);
    expect(runs).toEqual([expect.objectContaining({ backend: 'replicate', model: 'roomtone-test/interior-render', operation: 'render', outcome: 'succeeded', attempt: 1, remoteId: p!.id, backendMs: 150 })]);
    // It waited in the remote class's queue (generations/schedule.ts), holding no CPU slot.
    const jobs = await db().$queryRaw<{ name: string }[]>`select name from pgboss.job where id = ${generationJobId(res.body.id)}::uuid`;
    expect(jobs).toEqual([{ name: 'generation.remote' }]);
  });

  it('slow success past the sync wait: followed by polling until it succeeds', async () => {
    fake.reset();
    fake.script('slow');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    expect(fake.predictions[0]!.webhook).toBeNull();
    expect(fake.predictions[0]!.reads).toBeGreaterThanOrEqual(2);
  });

  it('a decoration by version carries style and accessory categories', async () => {
    fake.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/decorations', { image, quality: '1k', style: 'japandi', categories: JSON.stringify(['plants', 'wall_art']) });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    const p = fake.predictions[0]!;
    expect(p.version).toBe(backendEnv.ENGINE_DECORATION.split(':')[2]);
    expect(p.input.prompt).toContain('Japandi style');
    expect(p.input.prompt).toContain('adding plants, wall art');
    expect(p.input).toMatchObject({ width: 1024, height: 768, output_format: 'webp', output_quality: 85 });
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768, content_type: 'image/webp' });
  });

  it('a masked prompt edit: the mask is sent, and pixels outside it are the input\'s', async () => {
    fake.reset();
    const org = await newOrg();
    const mask = await redMask(400, 300, 1200, 900);
    const res = await create(org.live, '/v1/edits', { image, mask, mode: 'prompt', quality: '2k', prompt: 'Make the sofa dark green velvet' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.cost).toMatchObject({ amount: 25, amount_refunded: 0 });
    const p = fake.predictions[0]!;
    expect(String(p.input.mask)).toMatch(/\/v1\/files\//);
    expectInputsDeleted(2);
    expect(p.input.prompt).toContain('Make the sofa dark green velvet');
    expect(p.input.prompt).toContain('Change only the masked area');
    const out = await outputPixels(env, res.body);
    expect([out.width, out.height]).toEqual([2048, 1536]);
    const original = await sharp(image).resize(2048, 1536, { fit: 'fill' }).raw().toBuffer();
    const inverted = await sharp(image).resize(2048, 1536, { fit: 'fill' }).negate().raw().toBuffer();
    // Mask (400..1200, 300..900) at 1.28× → (512..1536, 384..1152); stay clear of the edge.
    expect(meanDiff(out.data, original, out.width, [0, 0, 2048, 360])).toBeLessThan(3);
    expect(meanDiff(out.data, original, out.width, [1560, 0, 2048, 1536])).toBeLessThan(3);
    expect(meanDiff(out.data, inverted, out.width, [540, 410, 1510, 1130])).toBeLessThan(4);
  });

  it('a transient failure is retried (ENGINE_RETRIES=1), then the generation fails and is refunded; each attempt\'s input file deleted', async () => {
    fake.reset();
    fake.script('fail', 'fail');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '2k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.cost).toMatchObject({ amount: 30, amount_refunded: 30 });
    expect(await balance(org.id)).toBe(10_000);
    expect(fake.predictions).toHaveLength(2);
    const runs = await backendRuns(res.body.id);
    expect(runs.map((r) => [r.attempt, r.outcome])).toEqual([[1, 'transient'], [2, 'transient']]);
    // Each attempt uploaded its input; a failed prediction's input is deleted too.
    expectInputsDeleted(2);
  });

  it('a failure then a success: the retry succeeds, nothing refunded', async () => {
    fake.reset();
    fake.script('fail', 'ok');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('succeeded');
    expect(fake.predictions).toHaveLength(2);
    expect(await balance(org.id)).toBe(10_000 - 20);
  });

  it('a content refusal: content_policy_violation, refunded, not retried; input file deleted', async () => {
    fake.reset();
    fake.script('nsfw');
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Replace the painting with a poster' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'content_policy_violation' });
    expect(res.body.cost.amount_refunded).toBe(res.body.cost.amount);
    expect(await balance(org.id)).toBe(10_000);
    expect(fake.predictions).toHaveLength(1);
    expectInputsDeleted(1);
  });

  it('an answer of the wrong aspect is a failed generation, refunded, never a distorted image', async () => {
    fake.reset();
    fake.script('wrong-size');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.output).toEqual([]);
    expect(await balance(org.id)).toBe(10_000);
    expect(fake.predictions).toHaveLength(1);
  });

  it('a backend that does not answer in time (ENGINE_TIMEOUT_MS): failed, refunded, the prediction canceled and its input file deleted', async () => {
    fake.reset();
    fake.script('hang');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(await balance(org.id)).toBe(10_000);
    expect(fake.predictions).toHaveLength(1);
    expect(fake.predictions[0]!).toMatchObject({ canceledByClient: true, status: 'canceled' });
    expectInputsDeleted(1);
    const runs = await backendRuns(res.body.id);
    expect(runs.map((r) => r.outcome)).toEqual(['timeout']);
  });

  it('a throttled create (429, Retry-After: 2) is tried again after 2 s, once: one layer of retries, no client retries in between', async () => {
    fake.reset();
    fake.throttle('2', 1);
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    // One create per attempt: the Replicate client's own retries (five, no sleep) are off.
    expect(fake.createRequests).toHaveLength(2);
    expect(fake.createRequests[1]! - fake.createRequests[0]!).toBeGreaterThanOrEqual(2_000);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'transient'], [2, 'succeeded']]);
    expect(await balance(org.id)).toBe(10_000 - 20);
  });

  it('Retry-After as an HTTP date is honoured too', async () => {
    fake.reset();
    // Whole seconds: at least 2 s from now.
    fake.throttle(new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_000).toUTCString(), 1);
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(fake.createRequests).toHaveLength(2);
    expect(fake.createRequests[1]! - fake.createRequests[0]!).toBeGreaterThanOrEqual(1_900);
  });

  it('a Retry-After beyond the deadline (ENGINE_TIMEOUT_MS) gives up at once: failed, refunded, no second create', async () => {
    fake.reset();
    fake.throttle('60', 5);
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(await balance(org.id)).toBe(10_000);
    expect(fake.createRequests).toHaveLength(1);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'transient']]);
  });

  it('progress: a slow prediction\'s log percentages show in the generation while it runs (GET and list), then 1', async () => {
    fake.reset();
    fake.script('slow');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k', background: 'true' });
    expect(res.status).toBe(202);
    expect(res.body.progress).toBe(0);
    const seen: number[] = [];
    let listed: number | null | undefined;
    for (let gen = res.body; gen.status === 'in_progress'; ) {
      await new Promise((r) => setTimeout(r, 150));
      gen = (await call<Gen>(server, env.certs.caPem, `/v1/generations/${res.body.id}`, { key: org.live })).body;
      if (typeof gen.progress === 'number' && gen.status === 'in_progress') seen.push(gen.progress);
      if (gen.status === 'in_progress' && listed === undefined && typeof gen.progress === 'number' && gen.progress > 0.05) {
        const list = await call<{ data: Gen[] }>(server, env.certs.caPem, '/v1/generations?status=in_progress', { key: org.live });
        listed = list.body.data.find((g) => g.id === res.body.id)?.progress as number | null;
      }
      if (gen.status !== 'in_progress') expect(gen).toMatchObject({ status: 'succeeded', progress: 1 });
    }
    // The model's own steps (the generating share, 0.05 to 0.9), not only the stage edges.
    expect(seen.some((p) => p > 0.06 && p < 0.89), JSON.stringify(seen)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(typeof listed).toBe('number');
  });

  it('test mode keeps the deterministic preview by default (ENGINE_TEST_MODE=preview): no prediction, nothing charged', async () => {
    fake.reset();
    const org = await newOrg();
    const res = await create(org.test, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    expect(fake.predictions).toHaveLength(0);
    expect(await balance(org.id)).toBe(10_000);
  });

  it('operations without a backend keep today\'s behaviour: a live upscale runs on the CPU', async () => {
    fake.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/upscales', { image: await sharp(image).resize(160, 120).png().toBuffer(), scale: 'x2' });
    expect(res.body.status).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 320, height: 240 });
    expect(fake.predictions).toHaveLength(0);
  });

  // The same server through /mcp (the official MCP SDK client): the behaviour of /v1 above — the
  // quality's size, the model's pixels, the price, a failure or refusal refunded in full, pixels
  // outside a prompt edit's mask the input's. Images arrive as create_upload files, the way an
  // agent without a public URL sends them.
  describe('generations through MCP', () => {
    it('create_render in live mode: succeeded at the quality size with the model’s pixels, charged the /v1 price', async () => {
      fake.reset();
      const org = await newOrg();
      const client = await connect(server, org.live);
      const res = await tool<Gen>(client, 'create_render', { image: await uploaded(client, image), quality: '2k', style: 'scandinavian' });
      expect(res.isError, JSON.stringify(res.body)).toBe(false);
      expect(res.body.status).toBe('succeeded');
      expect(res.body.output[0]).toMatchObject({ width: 2048, height: 1536, content_type: 'image/webp' });
      expect(res.body.cost).toMatchObject({ amount: 30, amount_refunded: 0 });
      expect(await balance(org.id)).toBe(10_000 - 30);
      expect(JSON.stringify(res.body)).not.toMatch(/replicate|interior-render/);
      expect(fake.predictions).toHaveLength(1);
      const p = fake.predictions[0]!;
      expect(p.model).toBe('roomtone-test/interior-render');
      expect(p.input.prompt).toContain('Scandinavian style');
      const out = await outputPixels(env, res.body);
      const inverted = await sharp(image).resize(2048, 1536, { fit: 'fill' }).negate().raw().toBuffer();
      expect(meanDiff(out.data, inverted, out.width, [0, 0, 2048, 1536])).toBeLessThan(4);
      const runs = await backendRuns(res.body.id);
      expect(runs).toEqual([expect.objectContaining({ backend: 'replicate', operation: 'render', outcome: 'succeeded', remoteId: p.id })]);
      await client.close();
    }, 120_000);

    it('get_generation carries progress: the model\'s percentage while it runs (the sentence says it), 1 at the end', async () => {
      fake.reset();
      fake.script('slow');
      const org = await newOrg();
      const client = await connect(server, org.live);
      // Started in the background through /v1 (MCP's tools always wait), then read through MCP.
      const form = new FormData();
      form.set('image', new Blob([new Uint8Array(image)]), 'room.jpg');
      form.set('quality', '1k');
      form.set('background', 'true');
      const started = await fetch(`${server.baseUrl}/v1/renders`, { method: 'POST', body: form, headers: { authorization: `Bearer ${org.live}`, 'x-forwarded-for': FROM } });
      const { id } = (await started.json()) as { id: string };
      let during: { progress: unknown; sentence: string } | null = null;
      for (let i = 0; i < 200 && during === null; i++) {
        const result = (await client.callTool({ name: 'get_generation', arguments: { id, wait_seconds: 0 } })) as CallToolResult;
        const [body, sentence] = result.content as Array<{ type: 'text'; text: string }>;
        const gen = JSON.parse(body!.text) as Gen;
        if (gen.status !== 'in_progress') break;
        if (typeof gen.progress === 'number' && gen.progress > 0.06 && gen.progress < 0.89) during = { progress: gen.progress, sentence: sentence!.text };
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(during, 'no progress seen while it ran').not.toBeNull();
      expect(during!.sentence).toContain(`(${Math.round((during!.progress as number) * 100)} % done)`);
      const end = await tool<Gen>(client, 'get_generation', { id });
      expect(end.body).toMatchObject({ status: 'succeeded', progress: 1 });
      await client.close();
    }, 120_000);

    it('create_decoration and a masked create_edit in prompt mode succeed; pixels outside the mask are the input’s', async () => {
      fake.reset();
      const org = await newOrg();
      const client = await connect(server, org.live);
      const decoration = await tool<Gen>(client, 'create_decoration', { image: await uploaded(client, image), quality: '1k', style: 'japandi', categories: ['plants', 'wall_art'] });
      expect(decoration.isError, JSON.stringify(decoration.body)).toBe(false);
      expect(decoration.body.status).toBe('succeeded');
      expect(decoration.body.output[0]).toMatchObject({ width: 1024, height: 768 });
      expect(fake.predictions[0]!.version).toBe(backendEnv.ENGINE_DECORATION.split(':')[2]);

      const mask = await redMask(400, 300, 1200, 900);
      const edit = await tool<Gen>(client, 'create_edit', { image: await uploaded(client, image), mask: await uploaded(client, mask), mode: 'prompt', quality: '2k', prompt: 'Make the sofa dark green velvet' });
      expect(edit.isError, JSON.stringify(edit.body)).toBe(false);
      expect(edit.body.status).toBe('succeeded');
      expect(edit.body.cost).toMatchObject({ amount: 25, amount_refunded: 0 });
      expect(fake.predictions[1]!.input.prompt).toContain('Change only the masked area');
      const out = await outputPixels(env, edit.body);
      const original = await sharp(image).resize(2048, 1536, { fit: 'fill' }).raw().toBuffer();
      const inverted = await sharp(image).resize(2048, 1536, { fit: 'fill' }).negate().raw().toBuffer();
      expect(meanDiff(out.data, original, out.width, [0, 0, 2048, 360])).toBeLessThan(3);
      expect(meanDiff(out.data, original, out.width, [1560, 0, 2048, 1536])).toBeLessThan(3);
      expect(meanDiff(out.data, inverted, out.width, [540, 410, 1510, 1130])).toBeLessThan(4);
      const decorationCost = decoration.body.cost.amount;
      expect(await balance(org.id)).toBe(10_000 - decorationCost - 25);
      await client.close();
    }, 120_000);

    it('a backend that keeps failing: the tool answers the failed generation (generation_failed), refunded in full, as /v1 does', async () => {
      fake.reset();
      fake.script('fail', 'fail');
      const org = await newOrg();
      const client = await connect(server, org.live);
      const res = await tool<Gen>(client, 'create_render', { image: await uploaded(client, image), quality: '2k' });
      expect(res.body.status, JSON.stringify(res.body)).toBe('failed');
      expect(res.body.error).toMatchObject({ code: 'generation_failed' });
      expect(res.body.cost).toMatchObject({ amount: 30, amount_refunded: 30 });
      expect(await balance(org.id)).toBe(10_000);
      expect(fake.predictions).toHaveLength(2); // ENGINE_RETRIES=1
      const read = await tool<Gen>(client, 'get_generation', { id: res.body.id, wait_seconds: 0 });
      expect(read.body).toMatchObject({ id: res.body.id, status: 'failed', error: { code: 'generation_failed' } });
      await client.close();
    }, 120_000);

    it('a content refusal by the backend: content_policy_violation, refunded, not retried', async () => {
      fake.reset();
      fake.script('nsfw');
      const org = await newOrg();
      const client = await connect(server, org.live);
      const res = await tool<Gen>(client, 'create_edit', { image: await uploaded(client, image), mode: 'prompt', quality: '1k', prompt: 'Replace the painting with a poster' });
      expect(res.body.status, JSON.stringify(res.body)).toBe('failed');
      expect(res.body.error).toMatchObject({ code: 'content_policy_violation' });
      expect(res.body.cost.amount_refunded).toBe(res.body.cost.amount);
      expect(await balance(org.id)).toBe(10_000);
      expect(fake.predictions).toHaveLength(1);
      await client.close();
    }, 120_000);

    it('test mode answers the deterministic preview by default (ENGINE_TEST_MODE=preview), as the instructions say: no prediction, nothing charged', async () => {
      fake.reset();
      const org = await newOrg();
      const client = await connect(server, org.test);
      // The instructions say so, though every generative operation has a backend here.
      expect(client.getInstructions()).toContain(
        'Test keys cost nothing (mask edits and upscales are real; create_render, create_decoration and create_edit in prompt mode give a deterministic preview, not a generated image); live keys are charged.',
      );
      const res = await tool<Gen>(client, 'create_render', { image: await uploaded(client, image), quality: '1k' });
      expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
      expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768 });
      expect(fake.predictions).toHaveLength(0);
      expect(await balance(org.id)).toBe(10_000);
      await client.close();
    }, 120_000);
  });
});

describe('Replicate backend, webhooks (PUBLIC_BASE_URL is https)', () => {
  let server: RoomtoneServer;
  let image: Buffer;
  beforeAll(async () => {
    image = await roomImage();
    server = await startRoomtone(env, { ...backendEnv, ENGINE_TEST_MODE: 'backend', ENGINE_UPSCALE: 'replicate:someone/community-upscaler' }, { httpsFront: true });
  });
  afterAll(async () => server?.stop());

  it('a slow prediction is finished by Replicate\'s webhook, not by polling', async () => {
    fake.reset();
    fake.script('slow');
    const org = await newOrg();
    const res = await call<Gen>(server, env.certs.caPem, '/v1/renders', { key: org.live, body: form({ image, quality: '1k' }) });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    const p = fake.predictions[0]!;
    expect(p.webhook).toMatch(new RegExp(`^${server.baseUrl.replace(/[.]/g, '\\.')}/hooks/replicate/${res.body.id}\\.`));
    expect(p.webhookStatus).toBe(204);
    // One read after the webhook woke the worker (the safety poll is 15 s away).
    expect(p.reads).toBe(1);
  });

  it('test mode calls the backend when ENGINE_TEST_MODE=backend (real images, free for the customer)', async () => {
    fake.reset();
    const org = await newOrg();
    const res = await call<Gen>(server, env.certs.caPem, '/v1/renders', { key: org.test, body: form({ image, quality: '1k' }) });
    expect(res.body.status).toBe('succeeded');
    expect(fake.predictions).toHaveLength(1);
    expect(await balance(org.id)).toBe(10_000);
  });

  it('a community model by name (only official models run by name): failed, refunded, not retried; the operator is told to pin a version', async () => {
    fake.reset();
    const org = await newOrg();
    const res = await call<Gen>(server, env.certs.caPem, '/v1/upscales', { key: org.live, body: form({ image: await sharp(image).resize(160, 120).png().toBuffer(), scale: 'x2' }) });
    expect(res.body.status, JSON.stringify(res.body)).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.cost.amount_refunded).toBe(res.body.cost.amount);
    expect(await balance(org.id)).toBe(10_000);
    expect(fake.createRequests).toHaveLength(1);
    expect(fake.predictions).toHaveLength(0);
    const [run] = await backendRuns(res.body.id);
    expect(run).toMatchObject({ outcome: 'failed', error: expect.stringContaining('runs only its official models by name') });
    expect(run!.error).toContain('replicate:someone/community-upscaler:<64-hex version id>');
    expect(server.output()).toContain('ENGINE_UPSCALE: Replicate runs only its official models by name');
  });

  it('a webhook call with a forged token is refused with 404', async () => {
    const res = await call(server, env.certs.caPem, '/hooks/replicate/gen_abc.forged', { key: 'x', body: { id: 'pred1', status: 'succeeded' } });
    expect(res.status).toBe(404);
  });

  // Last: it stops this server (nothing starts after it that could pick the job up again).
  it('a server that stops mid-prediction cancels it; the generation stays in progress for the job\'s retry, still charged once; its input file deleted', async () => {
    fake.reset();
    fake.script('hang');
    const org = await newOrg();
    const res = await call<Gen>(server, env.certs.caPem, '/v1/renders', { key: org.live, body: form({ image, quality: '1k', background: 'true' }) });
    expect(res.status).toBe(202);
    const deadline = Date.now() + 30_000;
    while (fake.predictions.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(fake.predictions).toHaveLength(1);
    await server.stop();
    expect(fake.predictions[0]!).toMatchObject({ canceledByClient: true, status: 'canceled' });
    expectInputsDeleted(1);
    const row = await db().generation.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.status).toBe('in_progress');
    expect(await balance(org.id)).toBe(10_000 - 20);
  });
});

describe('Replicate backend, a stop during the create call', () => {
  it('waits for a create held open by Prefer: wait, then cancels that prediction (its id comes only with the answer)', async () => {
    // A wait longer than pg-boss's graceful stop (10 s): the stop must not end the process
    // inside the create; SIGKILL only after 40 s.
    const server = await startRoomtone(env, { ...backendEnv, REPLICATE_WAIT_SECONDS: '14', ENGINE_TIMEOUT_MS: '60000' }, { stopTimeoutMs: 40_000 });
    try {
      fake.reset();
      fake.script('hang', 'hang'); // ours, and the previous test's generation, retried here
      const org = await newOrg();
      const res = await call<Gen>(server, env.certs.caPem, '/v1/renders', { key: org.live, body: form({ image: await roomImage(), quality: '1k', background: 'true' }) });
      expect(res.status).toBe(202);
      // This generation's prediction: the server also retries the generation the previous test
      // left in progress (same database), which makes one of its own.
      const ours = () => fake.predictions.find((p) => fake.files.get(String(p.input.image).split('/').at(-2)!)?.metadata.roomtone_generation === res.body.id);
      const deadline = Date.now() + 30_000;
      while (!ours() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // The create is now held at the backend for up to 14 s; the server is told to stop inside it.
      const p = ours()!;
      expect(p).toBeDefined();
      await server.stop();
      expect(p).toMatchObject({ canceledByClient: true, status: 'canceled' });
      expect(await backendRuns(res.body.id)).toEqual([expect.objectContaining({ outcome: 'interrupted', remoteId: p.id })]);
      expect(fake.files.get(String(p.input.image).split('/').at(-2)!)?.deleted).toBe(true);
      expect((await db().generation.findUniqueOrThrow({ where: { id: res.body.id } })).status).toBe('in_progress');
      expect(await balance(org.id)).toBe(10_000 - 20);
    } finally {
      await server.stop();
    }
  });
});
