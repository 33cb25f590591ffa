// @node-lines same: a backend stand-in's protocol and our retry and refund rules; backend deadlines and their timers run under both lines in test/backends/deadline-gc.test.ts
/**
 * Live renders, decorations and prompt edits through ComfyUI's HTTP API: a real Roomtone server
 * (its own database) configured with ENGINE_*=comfyui:<workflow>, against a local HTTPS server
 * speaking that API, which "executes" the submitted workflow on real images. ComfyUI has no
 * webhooks: completion is read from its history endpoint (polling with backoff).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startFakeComfy, type FakeComfy } from './comfyui-server';
import { call, prepareBackendTestEnv, startRoomtone, type BackendTestEnv, type RoomtoneServer } from './harness';
import { backendRuns, balance, form, meanDiff, newOrg, outputPixels, redMask, roomImage, type Gen } from './fixtures';

let env: BackendTestEnv;
let comfy: FakeComfy;
let server: RoomtoneServer;
let image: Buffer;

beforeAll(async () => {
  env = await prepareBackendTestEnv('comfyui');
  comfy = await startFakeComfy(env.certs);
  image = await roomImage();
  server = await startRoomtone(env, {
    ENGINE_RENDER: 'comfyui:img2img',
    ENGINE_DECORATION: 'comfyui:img2img',
    ENGINE_EDIT_PROMPT: 'comfyui:inpaint',
    COMFYUI_URL: comfy.url,
    ENGINE_TIMEOUT_MS: '8000',
    ENGINE_RETRIES: '1',
  });
});

afterAll(async () => {
  await server?.stop();
  await comfy?.close();
  await env?.close();
});

const create = (key: string, route: string, fields: Record<string, string | Buffer>) => call<Gen>(server, env.certs.caPem, route, { key, body: form(fields) });
const node = (workflow: Record<string, { class_type: string; inputs: Record<string, unknown> }>, type: string) => Object.values(workflow).filter((n) => n.class_type === type);

describe('ComfyUI backend', () => {
  it('a live render runs the img2img workflow with the request injected, at the quality size; history deleted after', async () => {
    comfy.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '2k', style: 'industrial' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 2048, height: 1536, content_type: 'image/webp' });
    expect(await balance(org.id)).toBe(10_000 - 30);
    // Operator data stays out of the public object.
    expect(JSON.stringify(res.body)).not.toMatch(/comfyui|img2img|backend/i);
    const [p] = comfy.prompts;
    expect(comfy.prompts).toHaveLength(1);
    const [positive, negative] = node(p!.workflow, 'CLIPTextEncode');
    expect(positive!.inputs.text).toContain('Photorealistic render');
    expect(negative!.inputs.text).toContain('watermark');
    expect(node(p!.workflow, 'ImageScale')[0]!.inputs).toMatchObject({ width: 2048, height: 1536 });
    expect(typeof node(p!.workflow, 'KSampler')[0]!.inputs.seed).toBe('number');
    expect(comfy.uploads.has(String(node(p!.workflow, 'LoadImage')[0]!.inputs.image))).toBe(true);
    expect(p!.historyDeleted).toBe(true);
    const out = await outputPixels(env, res.body);
    const inverted = await sharp(image).resize(2048, 1536, { fit: 'fill' }).negate().raw().toBuffer();
    expect(meanDiff(out.data, inverted, out.width, [0, 0, 2048, 1536])).toBeLessThan(4);
    const runs = await backendRuns(res.body.id);
    expect(runs).toEqual([expect.objectContaining({ backend: 'comfyui', model: 'img2img', outcome: 'succeeded', remoteId: p!.id })]);
  });

  it('a slow run is followed through the history endpoint until it ends', async () => {
    comfy.reset();
    comfy.script('slow');
    const org = await newOrg();
    const res = await create(org.live, '/v1/decorations', { image, quality: '1k', style: 'scandinavian', categories: JSON.stringify(['rugs']) });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    expect(comfy.prompts[0]!.polls).toBeGreaterThanOrEqual(3);
    expect(await backendRuns(res.body.id)).toEqual([expect.objectContaining({ backend: 'comfyui', model: 'img2img', operation: 'decoration', attempt: 1, outcome: 'succeeded', remoteId: comfy.prompts[0]!.id })]);
    expect(node(comfy.prompts[0]!.workflow, 'CLIPTextEncode')[0]!.inputs.text).toContain('adding rugs');
  });

  it('a masked prompt edit uses the inpaint workflow with the mask; pixels outside it are the input\'s', async () => {
    comfy.reset();
    const org = await newOrg();
    const mask = await redMask(0, 600, 800, 1200);
    const res = await create(org.live, '/v1/edits', { image, mask, mode: 'prompt', quality: '1k', prompt: 'Put a round jute rug here' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    const p = comfy.prompts[0]!;
    const maskName = String(node(p.workflow, 'LoadImageMask')[0]!.inputs.image);
    const sentMask = await sharp(comfy.uploads.get(maskName)!).raw().toBuffer({ resolveWithObject: true });
    expect([sentMask.info.width, sentMask.info.height]).toEqual([1024, 768]);
    const out = await outputPixels(env, res.body);
    expect([out.width, out.height]).toEqual([1024, 768]);
    const original = await sharp(image).resize(1024, 768, { fit: 'fill' }).raw().toBuffer();
    const inverted = await sharp(image).resize(1024, 768, { fit: 'fill' }).negate().raw().toBuffer();
    // Mask (0..800, 600..1200) at 0.64× → (0..512, 384..768).
    expect(meanDiff(out.data, original, out.width, [0, 0, 1024, 370])).toBeLessThan(3);
    expect(meanDiff(out.data, original, out.width, [530, 0, 1024, 768])).toBeLessThan(3);
    expect(meanDiff(out.data, inverted, out.width, [0, 400, 500, 768])).toBeLessThan(4);
  });

  it('an unmasked prompt edit runs the inpaint workflow\'s unmasked variant (no mask node left without its image), at the quality size', async () => {
    comfy.reset();
    const org = await newOrg();
    const res = await create(org.live, '/v1/edits', { image, mode: 'prompt', quality: '1k', prompt: 'Paint the walls sage green' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(comfy.refused).toEqual([]);
    const p = comfy.prompts[0]!;
    expect(node(p.workflow, 'LoadImageMask')).toEqual([]);
    expect(node(p.workflow, 'KSampler')[0]!.inputs).toMatchObject({ denoise: 0.6 });
    expect(node(p.workflow, 'CLIPTextEncode')[0]!.inputs.text).toContain('Paint the walls sage green');
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    const out = await outputPixels(env, res.body);
    const inverted = await sharp(image).resize(1024, 768, { fit: 'fill' }).negate().raw().toBuffer();
    expect(meanDiff(out.data, inverted, out.width, [0, 0, 1024, 768])).toBeLessThan(4);
  });

  it('a throttled submission (429, Retry-After: 2) is submitted again after 2 s, not 1 s', async () => {
    comfy.reset();
    comfy.throttle('2', 1);
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status, JSON.stringify(res.body)).toBe('succeeded');
    expect(comfy.promptRequests).toHaveLength(2);
    expect(comfy.promptRequests[1]! - comfy.promptRequests[0]!).toBeGreaterThanOrEqual(2_000);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'transient'], [2, 'succeeded']]);
  });

  it('progress: the sampler\'s steps (websocket progress messages) show in the generation while it runs, then 1', async () => {
    comfy.reset();
    comfy.script('slow');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k', background: 'true' });
    expect(res.status).toBe(202);
    const seen: number[] = [];
    for (let gen = res.body; gen.status === 'in_progress'; ) {
      await new Promise((r) => setTimeout(r, 150));
      gen = (await call<Gen>(server, env.certs.caPem, `/v1/generations/${res.body.id}`, { key: org.live })).body;
      if (gen.status === 'in_progress' && typeof gen.progress === 'number') seen.push(gen.progress);
      if (gen.status !== 'in_progress') expect(gen).toMatchObject({ status: 'succeeded', progress: 1 });
    }
    expect(comfy.prompts[0]!.progressSent.length).toBe(20);
    expect(seen.some((p) => p > 0.06 && p < 0.89), JSON.stringify(seen)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('an execution error is retried once, then failed and refunded', async () => {
    comfy.reset();
    comfy.script('fail', 'fail');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.cost.amount_refunded).toBe(20);
    expect(await balance(org.id)).toBe(10_000);
    expect(comfy.prompts).toHaveLength(2);
  });

  it('a safety-checker refusal is content_policy_violation, refunded, not retried', async () => {
    comfy.reset();
    comfy.script('refuse');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'content_policy_violation' });
    expect(res.body.cost).toMatchObject({ amount: 20, amount_refunded: 20 });
    expect(await balance(org.id)).toBe(10_000);
    expect(comfy.prompts).toHaveLength(1);
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome])).toEqual([[1, 'refused']]);
  });

  it('an output of the wrong aspect fails the generation (refunded)', async () => {
    comfy.reset();
    comfy.script('wrong-size');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.output).toEqual([]);
    expect(res.body.cost).toMatchObject({ amount: 20, amount_refunded: 20 });
    expect(await balance(org.id)).toBe(10_000);
    // Not retried: the model answered, wrongly.
    expect(comfy.prompts).toHaveLength(1);
  });

  it('a run past ENGINE_TIMEOUT_MS fails (refunded), is removed from the queue and interrupted, and its history deleted once it has stopped', async () => {
    comfy.reset();
    comfy.script('hang');
    const org = await newOrg();
    const res = await create(org.live, '/v1/renders', { image, quality: '1k' });
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toMatchObject({ code: 'generation_failed' });
    expect(res.body.cost).toMatchObject({ amount: 20, amount_refunded: 20 });
    expect(await balance(org.id)).toBe(10_000);
    expect(comfy.prompts).toHaveLength(1);
    expect(comfy.prompts[0]!).toMatchObject({ queueDeleted: true, interrupted: true });
    expect((await backendRuns(res.body.id)).map((r) => [r.attempt, r.outcome, r.remoteId])).toEqual([[1, 'timeout', comfy.prompts[0]!.id]]);
    // The interrupted run writes its history entry (with the prompt) only when it stops, 1.5 s
    // after the interrupt: a delete sent with the interrupt finds nothing. Deleted after it stops.
    const until = Date.now() + 30_000;
    while (!comfy.prompts[0]!.historyDeleted && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(comfy.prompts[0]!.stoppedAt).not.toBeNull();
    expect(comfy.prompts[0]!.historyDeleted).toBe(true);
  });
});
