// @node-lines same: a backend stand-in's protocol and our retry and refund rules; backend deadlines and their timers run under both lines in test/backends/deadline-gc.test.ts
/**
 * Live generations through /mcp with a generative backend configured: the official MCP SDK
 * client against a real Roomtone server (its own database) with ENGINE_*=replicate:…, and the
 * local Replicate protocol server. The same behaviour as /v1 (replicate-backend.test.ts): the
 * quality's size, the model's pixels, the price; a failure or refusal refunded in full; pixels
 * outside a prompt edit's mask are the input's. Images arrive as create_upload files, the way an
 * agent without a public URL sends them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFakeReplicate, type FakeReplicate } from './replicate-server';
import { prepareBackendTestEnv, startRoomtone, type BackendTestEnv, type RoomtoneServer } from './harness';
import { backendRuns, balance, meanDiff, newOrg, outputPixels, redMask, roomImage, type Gen } from './fixtures';

const TOKEN = 'r8_test_token_mcp_0123456789';
const FROM = '198.51.100.9';

let env: BackendTestEnv;
let fake: FakeReplicate;
let server: RoomtoneServer;
let image: Buffer;

beforeAll(async () => {
  env = await prepareBackendTestEnv('mcpbackend');
  fake = await startFakeReplicate(env.certs, TOKEN);
  image = await roomImage();
  server = await startRoomtone(env, {
    ENGINE_RENDER: 'replicate:roomtone-test/interior-render',
    ENGINE_DECORATION: 'replicate:roomtone-test/decorate',
    ENGINE_EDIT_PROMPT: 'replicate:roomtone-test/inpaint',
    REPLICATE_API_TOKEN: TOKEN,
    REPLICATE_BASE_URL: 'https://[::1]/v1',
    REPLICATE_WAIT_SECONDS: '1',
    ENGINE_TIMEOUT_MS: '8000',
    ENGINE_RETRIES: '1',
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await env?.close();
});

async function connect(key: string): Promise<Client> {
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

describe('generations through MCP with a backend configured (Replicate protocol)', () => {
  it('create_render in live mode: succeeded at the quality size with the model’s pixels, charged the /v1 price', async () => {
    fake.reset();
    const org = await newOrg();
    const client = await connect(org.live);
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
    const client = await connect(org.live);
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
    const client = await connect(org.live);
    const decoration = await tool<Gen>(client, 'create_decoration', { image: await uploaded(client, image), quality: '1k', style: 'japandi', categories: ['plants', 'wall_art'] });
    expect(decoration.isError, JSON.stringify(decoration.body)).toBe(false);
    expect(decoration.body.status).toBe('succeeded');
    expect(decoration.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    expect(fake.predictions[0]!.model).toBe('roomtone-test/decorate');

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
    const client = await connect(org.live);
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
    const client = await connect(org.live);
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
    const client = await connect(org.test);
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
