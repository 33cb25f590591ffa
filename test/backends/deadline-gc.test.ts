/**
 * ENGINE_TIMEOUT_MS fires on every Node line, also when garbage is collected while a backend
 * call hangs: the server collects all garbage every 200 to 750 ms (gc-pressure.mjs). On Node 20 a
 * deadline built as AbortSignal.any([AbortSignal.timeout(ms), …]) lost its timeout to the GC
 * and never fired: the generation stayed in progress, the prediction ran on, the ComfyUI
 * prompt held its GPU queue. Each backend's "never answers" case must end failed
 * (generation_failed) within the deadline plus a bound, refunded once, its upstream work
 * canceled. CI runs this file under Node 20 and Node 24 (it declares no Node-line exemption: scripts/node-lines.mjs).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { startFakeReplicate, type FakeReplicate } from './replicate-server';
import { startFakeComfy, type FakeComfy } from './comfyui-server';
import { startFakeOpenAI, type FakeOpenAI } from './openai-server';
import { call, prepareBackendTestEnv, startRoomtone, type BackendTestEnv, type RoomtoneServer } from './harness';
import { backendRuns, balance, form, newOrg, roomImage, type Gen } from './fixtures';

const TOKEN = 'r8_test_token_gc';
const KEY = 'sk-test-gc';
const TIMEOUT_MS = 4_000;
/** What the give-up may take beyond the deadline on a loaded machine: a cancel call, the refund transaction. */
const BOUND_MS = 10_000;

let env: BackendTestEnv;
let replicate: FakeReplicate;
let comfy: FakeComfy;
let openai: FakeOpenAI;
let server: RoomtoneServer;
let image: Buffer;

beforeAll(async () => {
  env = await prepareBackendTestEnv('deadline_gc');
  replicate = await startFakeReplicate(env.certs, TOKEN);
  comfy = await startFakeComfy(env.certs);
  openai = await startFakeOpenAI(env.certs, KEY);
  image = await roomImage();
  server = await startRoomtone(
    env,
    {
      ENGINE_RENDER: 'replicate:roomtone-test/interior-render',
      ENGINE_DECORATION: 'comfyui:img2img',
      ENGINE_EDIT_PROMPT: 'openai:gpt-image-1',
      REPLICATE_API_TOKEN: TOKEN,
      REPLICATE_BASE_URL: 'https://[::1]/v1',
      REPLICATE_WAIT_SECONDS: '1',
      COMFYUI_URL: comfy.url,
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: openai.url,
      ENGINE_TIMEOUT_MS: String(TIMEOUT_MS),
      ENGINE_RETRIES: '0',
    },
    { nodeFlags: ['--expose-gc', '--import', path.join(import.meta.dirname, 'gc-pressure.mjs')] },
  );
  // A first generation warms the server up (job pick-up, engine modules) under the GC pressure:
  // on a loaded machine that took minutes, which is not what the deadline cases measure.
  const org = await newOrg();
  const warm = await call<Gen>(server, env.certs.caPem, '/v1/renders', { key: org.live, body: form({ image, quality: '1k' }) });
  expect(warm.body.status, JSON.stringify(warm.body)).toBe('succeeded');
}, 400_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([replicate?.close(), comfy?.close(), openai?.close()]);
  await env?.close();
});

/** Starts a background generation whose backend never answers; resolves when the backend has the call (its wall time). */
async function hangingGeneration(route: string, fields: Record<string, string | Buffer>, arrived: () => number | undefined): Promise<{ org: Awaited<ReturnType<typeof newOrg>>; id: string; at: number }> {
  const org = await newOrg();
  const res = await call<Gen>(server, env.certs.caPem, route, { key: org.live, body: form({ image, quality: '1k', background: 'true', ...fields }) });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  // Pick-up and upload are slow on a loaded machine with a GC every 200 ms: not the deadline's time.
  const until = Date.now() + 120_000;
  while (arrived() === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const at = arrived();
  expect(at, 'the backend never got the call').toBeDefined();
  return { org, id: res.body.id, at: at! };
}

/** Reads the generation until it ends or the deadline plus the bound has passed (from the backend's receipt of the call). */
async function endOf(org: { live: string }, id: string, from: number): Promise<{ gen: Gen; endedAfterMs: number }> {
  for (;;) {
    const res = await call<Gen>(server, env.certs.caPem, `/v1/generations/${id}`, { key: org.live });
    if (res.body.status !== 'in_progress' || Date.now() - from > TIMEOUT_MS + BOUND_MS) return { gen: res.body, endedAfterMs: Date.now() - from };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function expectFailedAndRefundedOnce(org: { id: string; live: string }, id: string, from: number): Promise<void> {
  const { gen, endedAfterMs } = await endOf(org, id, from);
  expect(gen.status, `still ${gen.status} ${endedAfterMs} ms after the backend got the call (deadline ${TIMEOUT_MS} ms)`).toBe('failed');
  expect(gen.error).toMatchObject({ code: 'generation_failed' });
  expect(endedAfterMs).toBeLessThanOrEqual(TIMEOUT_MS + BOUND_MS);
  expect(gen.cost.amount_refunded).toBe(gen.cost.amount);
  expect(await balance(org.id)).toBe(10_000);
  const refunds = await db().balanceTransaction.findMany({ where: { generationId: id, type: 'refund' } });
  expect(refunds).toHaveLength(1);
  expect((await backendRuns(id)).map((r) => r.outcome)).toEqual(['timeout']);
}

describe('backend deadlines under garbage collection', () => {
  it('Replicate: a prediction that never ends is canceled at the deadline; the generation fails, refunded once', async () => {
    replicate.reset();
    replicate.script('hang');
    const { org, id, at } = await hangingGeneration('/v1/renders', {}, () => (replicate.predictions[0] ? Date.parse(replicate.predictions[0].created_at) : undefined));
    await expectFailedAndRefundedOnce(org, id, at);
    expect(replicate.predictions[0]).toMatchObject({ canceledByClient: true, status: 'canceled' });
  }, 240_000);

  it('ComfyUI: a prompt that never ends is removed from the queue and interrupted at the deadline, its history deleted once it stops', async () => {
    comfy.reset();
    comfy.script('hang');
    const { org, id, at } = await hangingGeneration('/v1/decorations', { style: 'japandi' }, () => (comfy.prompts[0] ? comfy.promptRequests[0] : undefined));
    await expectFailedAndRefundedOnce(org, id, at);
    expect(comfy.prompts[0]).toMatchObject({ queueDeleted: true, interrupted: true });
    // The interrupted run writes its history when it stops (1.5 s later here): deleted then.
    const until = Date.now() + 30_000;
    while (!comfy.prompts[0]!.historyDeleted && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(comfy.prompts[0]!.historyDeleted).toBe(true);
  }, 240_000);

  it('OpenAI: an images.edit call that never answers is aborted at the deadline', async () => {
    openai.reset();
    openai.script('hang');
    const { org, id, at } = await hangingGeneration('/v1/edits', { mode: 'prompt', prompt: 'Warmer light' }, () => openai.edits[0]?.receivedWall);
    await expectFailedAndRefundedOnce(org, id, at);
    expect(openai.edits[0]).toMatchObject({ abandoned: true });
  }, 240_000);
});
