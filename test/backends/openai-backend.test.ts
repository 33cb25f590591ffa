// @node-lines same: a backend stand-in's protocol and our retry and refund rules; backend deadlines and their timers run under both lines in test/backends/deadline-gc.test.ts
/**
 * Prompt-mode edits (and renders) through OpenAI's images.edit: a real Roomtone server with
 * ENGINE_EDIT_PROMPT=openai:<model>, against a local HTTPS server speaking that API. The API
 * makes only three sizes: the input is letterboxed in and cropped back out, so the framing
 * and the output size are the request's; DALL·E 2 makes only squares (decorations here).
 * Renders have no backend here (partial configuration): live ones keep answering 503
 * mode_unavailable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { db } from '@/server/platform/db';
import { startFakeOpenAI, type FakeOpenAI } from './openai-server';
import { call, prepareBackendTestEnv, startRoomtone, type BackendTestEnv, type RoomtoneServer } from './harness';
import { backendRuns, balance, form, meanDiff, newOrg, outputPixels, redMask, roomImage, type Gen } from './fixtures';

const KEY = 'sk-test-roomtone';
let env: BackendTestEnv;
let openai: FakeOpenAI;
let server: RoomtoneServer;
let image: Buffer;

beforeAll(async () => {
  env = await prepareBackendTestEnv('openai');
  openai = await startFakeOpenAI(env.certs, KEY);
  image = await roomImage();
  server = await startRoomtone(env, {
    ENGINE_EDIT_PROMPT: 'openai:gpt-image-1',
    ENGINE_DECORATION: 'openai:dall-e-2',
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: openai.url,
    ENGINE_TIMEOUT_MS: '15000', // headroom for a loaded machine (a cold 2k edit took 5 s in CI)
    ENGINE_RETRIES: '1',
  });
});

afterAll(async () => {
  await server?.stop();
  await openai?.close();
  await env?.close();
});

const create = (key: string, route: string, fields: Record<string, string | Buffer>) => call<Gen>(server, env.certs.caPem, route, { key, body: form(fields) });

describe('OpenAI images backend', () => {
  it('a prompt edit without mask: letterboxed into 1536×1024, cropped back, at the quality size', async () => {
    openai.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '2k', prompt: 'Paint the walls sage green' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 2048, height: 1536, content_type: 'image/webp' });
    expect(await balance(org.id)).toBe(10_000 - 25);
    // Operator data stays out of the public object.
    expect(JSON.stringify(res.body)).not.toMatch(/openai|gpt-image|backend/i);
    expect(openai.edits).toEqual([expect.objectContaining({ model: 'gpt-image-1', size: '1536x1024', mask: null, outputFormat: 'jpeg', image: { width: 1536, height: 1024, format: 'jpeg' } })]);
    expect(openai.edits[0]!.prompt).toContain('Paint the walls sage green');
    // The synchronous API has no job id; the time is the call's, as Roomtone saw it.
    expect(await backendRuns(res.body.id)).toEqual([
      expect.objectContaining({ backend: 'openai', model: 'gpt-image-1', operation: 'edit_prompt', attempt: 1, outcome: 'succeeded', remoteId: null, costMicroUsd: null, error: null }),
    ]);
    const out = await outputPixels(env, res.body);
    const inverted = await sharp(image).resize(2048, 1536, { fit: 'fill' }).negate().raw().toBuffer();
    // Framing kept: the answer's pixels line up with the input's (no letterbox left, no shift).
    expect(meanDiff(out.data, inverted, out.width, [8, 8, 2040, 1528])).toBeLessThan(6);
  });

  it('slow success: an answer that takes seconds (within ENGINE_TIMEOUT_MS) is waited for, not abandoned', async () => {
    openai.reset();
    openai.script('slow');
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Warmer light' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768, content_type: 'image/webp' });
    expect(res.body.cost).toMatchObject({ amount: 15, amount_refunded: 0 });
    expect(await balance(org.id)).toBe(10_000 - 15);
    expect(JSON.stringify(res.body)).not.toMatch(/openai|gpt-image|backend/i);
    expect(openai.edits).toEqual([expect.objectContaining({ behaviour: 'slow', abandoned: false })]);
    const runs = await backendRuns(res.body.id);
    expect(runs).toEqual([expect.objectContaining({ backend: 'openai', model: 'gpt-image-1', operation: 'edit_prompt', attempt: 1, outcome: 'succeeded' })]);
    // The fake holds its answer 2.5 s: the recorded call time includes that wait.
    expect(runs[0]!.backendMs).toBeGreaterThanOrEqual(2_500);
    expect(runs[0]!.wallMs).toBeGreaterThanOrEqual(runs[0]!.backendMs!);
  });

  it('a masked edit: the mask is transparent where painted (and opaque on the letterbox); outside it the input is kept', async () => {
    openai.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mask: await redMask(800, 0, 1600, 600), mode: 'prompt', quality: '1k', prompt: 'Add a large abstract painting' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    const mask = openai.edits[0]!.mask!;
    // A quarter of the 1365×1024 placed image, out of the 1536×1024 canvas.
    expect(mask.transparent / (1536 * 1024)).toBeGreaterThan(0.2);
    expect(mask.transparent / (1536 * 1024)).toBeLessThan(0.23);
    const out = await outputPixels(env, res.body);
    const original = await sharp(image).resize(1024, 768, { fit: 'fill' }).raw().toBuffer();
    expect(meanDiff(out.data, original, out.width, [0, 0, 500, 768])).toBeLessThan(3);
    expect(meanDiff(out.data, original, out.width, [0, 400, 1024, 768])).toBeLessThan(3);
  });

  it('a portrait edit goes to the portrait size', async () => {
    openai.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image: await sharp(image).resize(900, 1200, { fit: 'fill' }).jpeg().toBuffer(), mode: 'prompt', quality: '1k', prompt: 'Warmer light' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 768, height: 1024 });
    expect(openai.edits[0]!.size).toBe('1024x1536');
  });

  it('DALL·E 2 (squares only): a 4:3 decoration is letterboxed into a 1024 square PNG with its mask (the whole picture may change), and cropped back', async () => {
    openai.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/decorations', { image, quality: '1k', style: 'japandi', categories: JSON.stringify(['plants']) });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(openai.refusals).toEqual([]);
    expect(openai.edits).toEqual([expect.objectContaining({ model: 'dall-e-2', size: '1024x1024', outputFormat: null, image: { width: 1024, height: 1024, format: 'png' } })]);
    // Transparent over the placed 1024×768 picture, opaque on the letterbox bands.
    expect(openai.edits[0]!.mask).toEqual({ width: 1024, height: 1024, transparent: 1024 * 768 });
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768, content_type: 'image/webp' });
    const out = await outputPixels(env, res.body);
    const inverted = await sharp(image).resize(1024, 768, { fit: 'fill' }).negate().raw().toBuffer();
    expect(meanDiff(out.data, inverted, out.width, [4, 4, 1020, 764])).toBeLessThan(6);
  });

  it('a throttled call (429, Retry-After: 2) is made again after 2 s, not 1 s', async () => {
    openai.reset();
    openai.throttle('2', 1);
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Warmer light' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(openai.requests).toHaveLength(2);
    expect(openai.requests[1]! - openai.requests[0]!).toBeGreaterThanOrEqual(2_000);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'transient'], [2, 'succeeded']]);
  });

  it('a 500 is retried once, then failed and refunded', async () => {
    openai.reset();
    openai.script('fail', 'fail');
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Brighter' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.cost).toMatchObject({ amount: 15, amount_refunded: 15 });
    expect(await balance(org.id)).toBe(10_000);
    expect(openai.edits).toHaveLength(2);
    expect((await backendRuns(res.body.id)).map((r) => [r.backend, r.attempt, r.outcome])).toEqual([['openai', 1, 'transient'], ['openai', 2, 'transient']]);
  });

  it('moderation_blocked is content_policy_violation, refunded, not retried', async () => {
    openai.reset();
    openai.script('refuse');
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Add a painting' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'content_policy_violation' });
    expect(res.body.cost).toMatchObject({ amount: 15, amount_refunded: 15 });
    expect(await balance(org.id)).toBe(10_000);
    expect(openai.edits).toHaveLength(1);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'refused']]);
  });

  it('an answer of another size than asked fails (refunded), never stretched', async () => {
    openai.reset();
    openai.script('wrong-size');
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Warmer light' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.output).toEqual([]);
    expect(await balance(org.id)).toBe(10_000);
  });

  it('no answer within ENGINE_TIMEOUT_MS: failed, refunded, the request aborted', async () => {
    openai.reset();
    openai.script('hang');
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Warmer light' });
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(await balance(org.id)).toBe(10_000);
    expect(res.body.status).toBe('failed');
    expect(openai.edits).toHaveLength(1);
    expect(openai.edits[0]!.abandoned).toBe(true);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'timeout']]);
  });

  it('partial configuration: a live render (no ENGINE_RENDER) answers 503 mode_unavailable, nothing charged or created', async () => {
    openai.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k', style: 'japandi' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: { code: 'mode_unavailable', message: 'This render is temporarily unavailable: no generative model backend is configured. Nothing was charged.' },
    });
    expect(await balance(org.id)).toBe(10_000);
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(0);
    expect(openai.edits).toHaveLength(0);
    // Test mode still answers the deterministic preview for it, free.
    const preview = await create(org.test, '/v1/renders', { image, quality: '1k', style: 'japandi' });
    expect(preview.body.status, JSON.stringify(preview.body)).toBe('succeeded');
    expect(preview.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    expect(openai.edits).toHaveLength(0);
    expect(await balance(org.id)).toBe(10_000);
  });
});
