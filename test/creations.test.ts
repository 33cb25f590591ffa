// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { api, createTestOrg, expectErrorShape, holdGenerations, rendered, testIp, type ApiResult } from './support';
import { waitFor } from './server-processes';
import { waitForEnd as waitForGenerationEnd } from './images-support';
import { db, transaction } from '@/server/platform/db';
import { grantCredit, ledgerSum } from '@/server/capabilities/billing/ledger';
import { expireLots } from '@/server/capabilities/billing/expire-lots';
import { setAutoRecharge } from '@/server/capabilities/billing/auto-recharge';
import { approveCreditPurchase } from '@/server/capabilities/billing/credit-purchases';
import { priceFor, QUALITY_PRICES, tierOf } from '@/server/capabilities/billing/pricing';
import { checkLoad } from '@/server/capabilities/creations/admission';
import { newId } from '@/server/platform/ids';

const ip = testIp();
const origin = inject('imageOrigin');
const wwwDir = inject('wwwDir');
const blobsDir = path.resolve(import.meta.dirname, '..', '.data', 'test', 'blobs');

type Generation = {
  id: string;
  status: string;
  type: string;
  cancelable: boolean;
  livemode: boolean;
  input: Record<string, unknown>;
  output: { url: string; width: number; height: number; content_type: string }[];
  cost: { amount: number; amount_refunded: number; discount_percent: number };
  error: { code: string; message: string } | null;
  metadata: Record<string, string>;
  completed_at: number | null;
};

/** A room photo served by the loopback HTTPS server; returns its URL. */
async function servedImage(name: string, width = 320, height = 240): Promise<string> {
  const file = path.join(wwwDir, name);
  if (!fs.existsSync(file)) {
    const noise = Buffer.alloc(width * height * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + (i % width) * 31) % 256;
    await sharp(noise, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toFile(file);
  }
  return `${origin}/${name}`;
}

/** images-support's waitForEnd, failing if the generation has not ended within `timeoutMs`. */
async function waitForEnd(key: string, id: string, timeoutMs = 60_000): Promise<Generation> {
  const generation = await waitForGenerationEnd<Generation>(id, key, ip, timeoutMs);
  if (generation.status === 'in_progress') throw new Error(`${id} still in progress`);
  return generation;
}

async function balanceOf(orgId: string): Promise<number> {
  return (await db().organization.findUniqueOrThrow({ where: { id: orgId } })).balanceCents;
}

function upscale(key: string, image: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<ApiResult<Generation>> {
  return api<Generation>('/v1/upscales', { key, ip, body: { image, scale: 'x2', ...extra }, headers });
}

describe('creations: happy paths', () => {
  it('upscale, synchronous: 200 with the succeeded generation, output twice the size, quota headers', async () => {
    const org = await createTestOrg({ tier: 2 });
    const image = await servedImage('room-320.jpg');
    const res = await upscale(org.testKey, image, { metadata: { project: 'loft' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'generation', type: 'upscale', status: 'succeeded', livemode: false, input: { scale: 'x2', quality: null }, metadata: { project: 'loft' }, error: null });
    const price = priceFor('upscale', { scale: 'x2' }, 2);
    expect(res.body.cost).toMatchObject({ amount: price.amount, discount_percent: 10, amount_refunded: 0 });
    expect(res.body.output).toHaveLength(1);
    expect(res.body.output[0]).toMatchObject({ width: 640, height: 480, content_type: 'image/webp' });
    const image2 = await fetch(res.body.output[0]!.url);
    expect(image2.status).toBe(200);
    const meta = await sharp(Buffer.from(await image2.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 640, 480]);
    const tier = tierOf(2);
    expect(res.headers.get('x-ratelimit-limit-generations-minute')).toBe(String(tier.generationsPerMinute));
    expect(res.headers.get('x-ratelimit-remaining-generations-minute')).toBe(String(tier.generationsPerMinute - 1));
    expect(res.headers.get('x-ratelimit-limit-generations-hour')).toBe(String(tier.generationsPerHour));
    expect(res.headers.get('x-ratelimit-remaining-generations-hour')).toBe(String(tier.generationsPerHour - 1));
    // Test mode: nothing charged.
    expect(await db().balanceTransaction.count({ where: { generationId: res.body.id } })).toBe(0);
  });

  it('background: true answers 202 at once with the in-progress generation, which then succeeds', async () => {
    const org = await createTestOrg();
    const res = await upscale(org.testKey, await servedImage('room-320.jpg'), { background: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'in_progress', completed_at: null, output: [] });
    const done = await waitForEnd(org.testKey, res.body.id);
    expect(done.status).toBe('succeeded');
  });

  it.each([
    ['/v1/renders', { quality: '1k' }, 'render'],
    ['/v1/decorations', { quality: '1k', style: 'japandi', categories: ['plants', 'rugs'] }, 'decoration'],
    ['/v1/edits', { quality: '1k', mode: 'prompt', prompt: 'Paint the walls sage green' }, 'edit'],
  ])('%s in test mode: a deterministic preview of the quality size', async (route, body, type) => {
    const org = await createTestOrg();
    const image = await servedImage('room-640.jpg', 640, 480);
    const res = await api<Generation>(route, { key: org.testKey, ip, body: { image, ...body } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type, status: 'succeeded' });
    expect(res.body.output[0]).toMatchObject({ width: 1024, height: 768 });
    expect(res.body.cost.amount).toBe(QUALITY_PRICES[type as 'render']['1k']);
    const again = await api<Generation>(route, { key: org.testKey, ip, body: { image, ...body } });
    const [a, b] = await Promise.all([fetch(res.body.output[0]!.url), fetch(again.body.output[0]!.url)]);
    expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
  });

  it('live mode: render, decoration and prompt edits answer 503 mode_unavailable and charge nothing', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const image = await servedImage('room-320.jpg');
    for (const [route, body] of [
      ['/v1/renders', { quality: '2k' }],
      ['/v1/decorations', { quality: '2k', style: 'industrial' }],
      ['/v1/edits', { quality: '2k', mode: 'prompt', prompt: 'Add a reading lamp' }],
    ] as const) {
      const res = await api(route, { key: org.liveKey, ip, body: { image, ...body } });
      expect(res.status).toBe(503);
      expectErrorShape(res.body);
      expect(res.body.error.code).toBe('mode_unavailable');
    }
    expect(await balanceOf(org.id)).toBe(1_000);
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('live upscale: charged at acceptance through the ledger; cost fixed with the tier discount', async () => {
    const org = await createTestOrg({ tier: 3, credit: 1_000 });
    const res = await upscale(org.liveKey, await servedImage('room-320.jpg'), { scale: 'x4' });
    expect(res.status).toBe(200);
    const price = priceFor('upscale', { scale: 'x4' }, 3);
    expect(res.body).toMatchObject({ livemode: true, status: 'succeeded', cost: { amount: price.amount, discount_percent: 20, amount_refunded: 0 } });
    expect(res.body.output[0]).toMatchObject({ width: 1280, height: 960 });
    expect(await balanceOf(org.id)).toBe(1_000 - price.amount);
    expect(await ledgerSum(db(), org.id)).toBe(1_000 - price.amount);
  });
});

describe('creations: admission refusals (nothing created, nothing charged)', () => {
  it('402 insufficient_balance', async () => {
    const org = await createTestOrg({ credit: 5 });
    const res = await upscale(org.liveKey, await servedImage('room-320.jpg'));
    expect(res.status).toBe(402);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('insufficient_balance');
    expect(await balanceOf(org.id)).toBe(5);
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('402 monthly_limit_reached', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    await db().organization.update({ where: { id: org.id }, data: { monthlyLimitCents: 15 } });
    const image = await servedImage('room-320.jpg');
    expect((await upscale(org.liveKey, image, { background: true })).status).toBe(202);
    const res = await upscale(org.liveKey, image);
    expect(res.status).toBe(402);
    expect((res.body as unknown as { error: { code: string } }).error.code).toBe('monthly_limit_reached');
    expect(await balanceOf(org.id)).toBe(990);
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it('429 generation_rate_limit_exceeded past the tier quota, per mode, with Retry-After; remaining counts down', async () => {
    const org = await createTestOrg({ tier: 1 }); // 10 generations a minute
    const image = await servedImage('room-320.jpg');
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await upscale(org.testKey, image, { background: true });
      expect(res.status).toBe(202);
      remaining.push(res.headers.get('x-ratelimit-remaining-generations-minute') ?? '');
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const over = await upscale(org.testKey, image, { background: true });
    expect(over.status).toBe(429);
    expectErrorShape(over.body);
    expect(over.body.error.code).toBe('generation_rate_limit_exceeded');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await db().generation.count({ where: { organizationId: org.id, mode: 'test' } })).toBe(10);
    // Live mode has its own quota.
    await transaction(async (tx) => {
      const { grantCredit } = await import('@/server/capabilities/billing/ledger');
      await grantCredit(tx, org.id, 100);
    });
    expect((await upscale(org.liveKey, image, { background: true })).status).toBe(202);
  });

  it('503 overloaded for live render/edit/decoration when the queue is beyond its depth (upscales and test mode pass)', async () => {
    const org = await createTestOrg();
    const caller = { organizationId: org.id, mode: 'live' as const, permissions: new Set<never>(), tier: 9, apiKeyId: null };
    // Fill the queue inside a transaction that is rolled back: no one else ever sees it.
    await expect(
      db().$transaction(async (tx) => {
        await tx.generation.createMany({
          data: Array.from({ length: 200 }, () => ({ id: newId('gen'), organizationId: org.id, mode: 'live' as const, type: 'edit' as const, channel: 'v1' as const, input: {}, costAmount: 0 })),
        });
        await expect(checkLoad(tx, caller, 'upscale')).resolves.toBeUndefined();
        await expect(checkLoad(tx, { ...caller, mode: 'test' }, 'edit')).resolves.toBeUndefined();
        const refused = await checkLoad(tx, caller, 'edit').catch((e: unknown) => e);
        expect(rendered(refused)).toMatchObject({ status: 503, code: 'overloaded' });
        const retryAfter = Number(rendered(refused).headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(30);
        expect(retryAfter).toBeLessThanOrEqual(300);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
  });
});

describe('idempotency', () => {
  it('the same key returns the same generation with no second charge', async () => {
    const org = await createTestOrg({ credit: 500 });
    const image = await servedImage('room-320.jpg');
    const headers = { 'idempotency-key': `order-${newId('req')}` };
    const first = await upscale(org.liveKey, image, { background: true }, headers);
    const second = await upscale(org.liveKey, image, { background: true }, headers);
    expect(first.status).toBe(202);
    expect(second.body.id).toBe(first.body.id);
    // A replay counts nothing: it shows the quota as the original left it (tier 9: 100,000/min).
    expect(first.headers.get('x-ratelimit-remaining-generations-minute')).toBe('99999');
    expect(second.headers.get('x-ratelimit-remaining-generations-minute')).toBe('99999');
    await waitForEnd(org.liveKey, first.body.id);
    expect(await balanceOf(org.id)).toBe(490);
  });

  it('20 concurrent identical requests: one generation, one charge', async () => {
    const org = await createTestOrg({ credit: 500 });
    const image = await servedImage('room-320.jpg');
    const headers = { 'idempotency-key': `burst-${newId('req')}` };
    const results = await Promise.all(Array.from({ length: 20 }, () => upscale(org.liveKey, image, { background: true }, headers)));
    expect(results.map((r) => r.status).every((s) => s === 202 || s === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'charge' } })).toBe(1);
    expect(await balanceOf(org.id)).toBe(490);
  });

  it('a different request with the same key is refused (409 idempotency_key_mismatch); keys are validated', async () => {
    const org = await createTestOrg();
    const image = await servedImage('room-320.jpg');
    const headers = { 'idempotency-key': `k-${newId('req')}` };
    expect((await upscale(org.testKey, image, { background: true }, headers)).status).toBe(202);
    const other = await upscale(org.testKey, image, { background: true, scale: 'x4' }, headers);
    expect(other.status).toBe(409);
    expectErrorShape(other.body);
    expect(other.body.error.code).toBe('idempotency_key_mismatch');
    const long = await upscale(org.testKey, image, { background: true }, { 'idempotency-key': 'k'.repeat(256) });
    expect(long.status).toBe(400);
    expect((long.body as unknown as { error: { code: string; param: string } }).error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
  });

  it('a key used on MCP answers 409 idempotency_key_reused on /v1', async () => {
    const org = await createTestOrg();
    const key = `mcp-${newId('req')}`;
    const gen = await db().generation.create({
      data: { id: newId('gen'), organizationId: org.id, mode: 'test', type: 'upscale', channel: 'mcp', input: { scale: 'x2', quality: null }, costAmount: 10 },
    });
    await db().idempotencyRecord.create({ data: { organizationId: org.id, mode: 'test', key, channel: 'mcp', requestHash: 'x', generationId: gen.id } });
    const res = await upscale(org.testKey, await servedImage('room-320.jpg'), { background: true }, { 'idempotency-key': key });
    expect(res.status).toBe(409);
    expect((res.body as unknown as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
  });
});

/**
 * Background generations of a held organization on both light worker slots (upscales are light),
 * started: the next generation waits unstarted until the returned function lifts the hold,
 * whatever other files queue meanwhile.
 */
async function occupyWorkers(org: { id: string; testKey: string }, image: string): Promise<() => void> {
  const release = holdGenerations(org.id);
  const blockers = await Promise.all([0, 1].map(() => upscale(org.testKey, image, { background: true })));
  const ids = blockers.map((b) => b.body.id);
  await waitFor('both blockers to start', async () => (await db().generation.count({ where: { id: { in: ids }, startedAt: { not: null } } })) === 2);
  return release;
}

/** pg-boss's record of the generation's job once the worker has finished with it. */
async function jobFinished(generationId: string): Promise<boolean> {
  const rows = await db().$queryRawUnsafe<{ state: string }[]>(`select state from pgboss.job where data->>'generationId' = $1`, generationId);
  return rows.length > 0 && rows.every((r) => r.state === 'completed');
}

describe('states: cancel, failure, refunds', () => {
  it('cancel before start: 200 canceled, refunded; the job then does nothing', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const image = await servedImage('room-320.jpg');
    const release = await occupyWorkers(org, image);
    const gen = await upscale(org.liveKey, image, { background: true });
    expect(gen.status).toBe(202);
    expect(gen.body.cancelable).toBe(true);
    const canceled = await api<Generation>(`/v1/generations/${gen.body.id}/cancel`, { key: org.liveKey, ip, method: 'POST' });
    release();
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', cancelable: false, cost: { amount: 10, amount_refunded: 10 } });
    expect(await balanceOf(org.id)).toBe(1_000);
    await waitFor('the canceled generation\'s job to be done', () => jobFinished(gen.body.id));
    const later = await api<Generation>(`/v1/generations/${gen.body.id}`, { key: org.liveKey, ip });
    expect(later.body.status).toBe('canceled');
    expect(later.body.output).toEqual([]);
    expect(await ledgerSum(db(), org.id)).toBe(1_000);
  });

  it('cancel after start: 409 generation_not_cancelable, and it still succeeds', async () => {
    const org = await createTestOrg();
    const release = holdGenerations(org.id);
    const gen = await upscale(org.testKey, await servedImage('room-320.jpg'), { background: true });
    await waitFor('the generation to start', async () => (await db().generation.findUniqueOrThrow({ where: { id: gen.body.id } })).startedAt);
    const res = await api(`/v1/generations/${gen.body.id}/cancel`, { key: org.testKey, ip, method: 'POST' });
    release();
    expect(res.status).toBe(409);
    expect((res.body as { error: { code: string } }).error.code).toBe('generation_not_cancelable');
    expect((await waitForEnd(org.testKey, gen.body.id)).status).toBe('succeeded');
  });

  it('a failed generation: status failed, error generation_failed, refunded in full (amount_refunded = amount)', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const image = await servedImage('room-320.jpg');
    const release = await occupyWorkers(org, image);
    const gen = await upscale(org.liveKey, image, { background: true });
    // Its stored input disappears before a worker gets to it: the generation cannot be made.
    fs.rmSync(path.join(blobsDir, 'inputs', gen.body.id), { recursive: true, force: true });
    release();
    const done = await waitForEnd(org.liveKey, gen.body.id);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'generation_failed' }, cost: { amount: 10, amount_refunded: 10 }, output: [] });
    expect(await balanceOf(org.id)).toBe(1_000);
    const rows = await db().balanceTransaction.findMany({ where: { generationId: gen.body.id }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['charge', -10],
      ['refund', 10],
    ]);
  });

  it('ledger invariant: after a random mix of successes, failures, cancels, auto-recharges and a credit expiry, balance = Σ ledger = Σ credit lots', async () => {
    const org = await createTestOrg({ credit: 2_000 });
    // 300 of the credit expires in a day (charges take it first); the first charge asks for a recharge.
    const expiresAt = new Date(Date.now() + 24 * 3600_000);
    await transaction((tx) => grantCredit(tx, org.id, 300, 'Expiring credit', expiresAt));
    await setAutoRecharge(org.id, { enabled: true, threshold: 2_295, amount: 100 });
    const image = await servedImage('room-320.jpg');
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ids: string[] = [];
    // Held while the mix is made, so the cancels and lost inputs meet generations still queued.
    const release = holdGenerations(org.id);
    for (let i = 0; i < 12; i++) {
      const gen = await upscale(org.liveKey, image, { background: true, scale: random() < 0.5 ? 'x2' : 'x4' });
      expect(gen.status).toBe(202);
      ids.push(gen.body.id);
      const roll = random();
      if (roll < 0.3) await api(`/v1/generations/${gen.body.id}/cancel`, { key: org.liveKey, ip, method: 'POST' });
      else if (roll < 0.5) fs.rmSync(path.join(blobsDir, 'inputs', gen.body.id), { recursive: true, force: true });
    }
    release();
    const ended = await Promise.all(ids.map((id) => waitForEnd(org.liveKey, id, 120_000)));
    const statuses = new Set(ended.map((g) => g.status));
    expect(statuses.has('succeeded')).toBe(true);
    const kept = ended.filter((g) => g.status === 'succeeded').reduce((sum, g) => sum + g.cost.amount, 0);
    for (const g of ended) expect(g.cost.amount_refunded).toBe(g.status === 'succeeded' ? 0 : g.cost.amount);
    const deadline = Date.now() + 30_000;
    while ((await db().autoRechargeAttempt.count({ where: { organizationId: org.id, status: 'pending' } })) > 0) {
      if (Date.now() > deadline) throw new Error('auto-recharge still pending');
      await new Promise((r) => setTimeout(r, 200));
    }
    // The test server's provider is manual: each recharge is a request, credited when the operator approves it.
    const requests = await db().creditPurchase.findMany({ where: { organizationId: org.id, status: 'pending', autoRechargeAttemptId: { not: null } } });
    expect(requests.length).toBeGreaterThanOrEqual(1);
    for (const request of requests) expect((await approveCreditPurchase(request.id)).credited).toBe(true);
    await expireLots(new Date(expiresAt.getTime() + 60_000), org.id);
    const byType = await db().balanceTransaction.groupBy({ by: ['type'], where: { organizationId: org.id }, _sum: { amount: true } });
    const sum = (type: string) => byType.find((t) => t.type === type)?._sum.amount ?? 0;
    const approved = requests.reduce((total, r) => total + r.amount, 0);
    expect(approved).toBeGreaterThanOrEqual(100);
    // Every kept charge (at most 12 × 20 cents) came from the lot that expired first.
    expect(sum('expiry')).toBe(-(300 - kept));
    const balance = await balanceOf(org.id);
    expect(sum('credit')).toBe(2_300 + approved);
    expect(balance).toBe(2_300 - kept + approved + sum('recharge') + sum('expiry'));
    expect(await ledgerSum(db(), org.id)).toBe(balance);
    const lots = await db().creditLot.aggregate({ where: { organizationId: org.id }, _sum: { remaining: true } });
    expect(lots._sum.remaining).toBe(balance);
  });
});
