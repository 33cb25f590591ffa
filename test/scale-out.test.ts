// @node-lines same: our claim and limit rules across two instances; IPC between processes runs under both lines in src/server/capabilities/limits/request-rate.test.ts
/**
 * More than one machine's worth of processes: two independent server instances
 * (own ports, WORKERS_IN_PROCESS=false) and two `roomtone worker` processes on one PostgreSQL.
 * A burst through both instances gives exact quotas and charges and runs each generation once;
 * a worker killed with SIGKILL mid-generation leaves a generation that the sweeper fails and
 * refunds once its bound has passed (the clock is moved, not waited for); reads work on both.
 * The instances are API-only (CONSOLE_ENABLED=false), as instances a balancer sends only API
 * traffic to can be: the console's pages and routes answer 404 there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { form, maskPng } from './images-support';
import { API_ONLY, freshDatabase, startServer, startWorker, waitFor, type TestDatabase, type TestProcess } from './server-processes';
import { closeDb, db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { STALE_STARTED_MS, sweepGenerations } from '@/server/jobs/sweeper';
import { setEnv } from '@/server/platform/config';

const ip = testIp();
let database: TestDatabase;
let servers: TestProcess[] = [];
const workers: TestProcess[] = [];
let image: Buffer;

beforeAll(async () => {
  database = await freshDatabase('scaleout');
  setEnv('DATABASE_URL', database.url); // db(), createTestOrg and the sweeper in this file use it
  setEnv('DATA_DIR', database.dataDir);
  const web = { ...API_ONLY, WORKERS_IN_PROCESS: 'false' };
  // The first start migrates and seeds; the others find it done.
  servers = [await startServer(database.url, web)];
  // Workers log each job step (debug), so the test can tell which one runs what. Heavy
  // generations take 60 s, so a worker can be killed in the middle of one.
  const worker = { LOG_LEVEL: 'debug', WORKER_CONCURRENCY: '2', BUILTIN_ENGINE_MIN_DURATION_MS: '0', BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS: '60000' };
  // Behind one load balancer every instance has the same public base URL (here: the first's).
  [servers[1], workers[0], workers[1]] = await Promise.all([
    startServer(database.url, { ...web, PUBLIC_BASE_URL: servers[0]!.url }),
    startWorker(database.url, worker),
    startWorker(database.url, worker),
  ]);
  image = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 20 } } }).png().toBuffer();
}, 900_000);

afterAll(async () => {
  await Promise.all([...servers, ...workers].map((p) => p?.stop()));
  await closeDb();
  await database?.drop();
});

function upscale(org: TestOrg, server: TestProcess) {
  return api<{ id: string; status: string; error?: { code: string } }>('/v1/upscales', {
    base: server.url,
    key: org.liveKey,
    ip,
    method: 'POST',
    rawBody: form([['image', image], ['scale', 'x2'], ['background', 'true']]),
  });
}

/**
 * The same GET on both instances at once. Output URLs are signed at read time (their expiry is
 * the read's second + the TTL), so two reads that straddle a second differ there by design:
 * read again until both fall in one second, then the bodies must be identical.
 */
async function readOnBoth<T>(pathname: string, org: TestOrg) {
  const expiries = (body: unknown) => JSON.stringify(body).match(/"url_expires_at":\d+/g)?.join() ?? '';
  for (let attempt = 1; ; attempt++) {
    const pair = await Promise.all(servers.map((s) => api<T>(pathname, { base: s.url, key: org.liveKey, ip })));
    if (expiries(pair[0]!.body) === expiries(pair[1]!.body) || attempt === 5) return pair;
  }
}

/** Generation ids whose `start` step this worker ran (its debug log). */
function startedBy(worker: TestProcess): string[] {
  return [...worker.output().matchAll(/"msg":"job step"[^\n]*?"job":"generation-run","generationId":"(gen_[^"]+)"[^\n]*?"step":"start"/g)].map((m) => m[1]!);
}


describe('two server instances and two workers on one PostgreSQL', () => {
  it('a burst through both instances: the tier’s quota exactly, one charge per generation, each generation run once, readable on both', async () => {
    const credit = 10_000;
    const org = await createTestOrg({ tier: 1, credit, name: 'Burst org' }); // tier 1: 10 generations a minute
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => upscale(org, servers[i % 2]!)));
    const accepted = results.filter((r) => r.status === 202).map((r) => r.body.id);
    const refused = results.filter((r) => r.status !== 202);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(6);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.error?.code).toBe('generation_rate_limit_exceeded');
    }

    const ended = await waitFor('the burst to end', async () => {
      const rows = await db().generation.findMany({ where: { organizationId: org.id }, select: { id: true, status: true, attempts: true } });
      return rows.every((g) => g.status !== 'in_progress') && rows;
    });
    expect(ended).toHaveLength(10);
    // No duplicate work: every generation started exactly once, by exactly one worker.
    for (const g of ended) expect(g, g.id).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [first, second] = workers.map(startedBy);
    expect(first!.filter((id) => second!.includes(id))).toEqual([]);
    expect([...first!, ...second!].filter((id) => accepted.includes(id)).sort()).toEqual([...accepted].sort());

    // Exact charges: ten charges of 10 cents, no refund, the balance moved by exactly that.
    const ledger = await db().balanceTransaction.findMany({ where: { organizationId: org.id, type: { in: ['charge', 'refund'] } } });
    expect(ledger.filter((t) => t.type === 'refund')).toEqual([]);
    expect(ledger.map((t) => t.generationId).sort()).toEqual([...accepted].sort());
    expect(ledger.every((t) => t.amount === -10)).toBe(true);
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(credit - 100);

    // Reads are served by both instances, identically.
    for (const id of accepted) {
      const [one, two] = await readOnBoth<{ status: string; output: unknown }>(`/v1/generations/${id}`, org);
      expect(one!.status).toBe(200);
      expect(two!.status).toBe(200);
      expect(one!.body.status).toBe('succeeded');
      expect(two!.body).toEqual(one!.body);
    }
    // Output files are signed once and served by either instance (shared blob store).
    const { output } = (await api<{ output: { url: string }[] }>(`/v1/generations/${accepted[0]}`, { base: servers[0]!.url, key: org.liveKey, ip })).body;
    const file = new URL(output[0]!.url);
    const bytes = await Promise.all(servers.map(async (s) => {
      const res = await fetch(`${s.url}${file.pathname}${file.search}`);
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    }));
    expect((await sharp(bytes[0]!).metadata()).width).toBe(320);
    expect(bytes[1]!.equals(bytes[0]!)).toBe(true);
    const [listOne, listTwo] = await readOnBoth<{ data: { id: string }[] }>('/v1/generations?limit=20', org);
    expect(listOne!.body.data.map((g) => g.id).sort()).toEqual([...accepted].sort());
    expect(listTwo!.body).toEqual(listOne!.body);
  });

  it('kill -9 of the worker running a generation: the sweeper fails and refunds it once its bound has passed', async () => {
    const credit = 1_000;
    const org = await createTestOrg({ tier: 1, credit, name: 'Killed worker org' });
    const mask = await maskPng(160, 120, [{ x: 40, y: 30, w: 40, h: 30, color: '#FF0000' }]);
    const res = await api<{ id: string; cost: { amount: number } }>('/v1/edits', {
      base: servers[1]!.url,
      key: org.liveKey,
      ip,
      method: 'POST',
      rawBody: form([['image', image], ['mask', mask], ['mode', 'mask'], ['quality', '1k'], ['layers', JSON.stringify([{ mask_color: '#FF0000', action: 'remove' }])], ['background', 'true']]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.id;
    const cost = res.body.cost.amount;
    expect(cost).toBeGreaterThan(0);
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(credit - cost);

    const running = await waitFor('a worker to start the generation', async () => workers.find((w) => startedBy(w).includes(id)));
    const survivor = workers.find((w) => w !== running)!;
    await running.kill();
    expect((await db().generation.findUniqueOrThrow({ where: { id } })).status).toBe('in_progress');

    // Before the bound the sweeper leaves it alone (its worker might still be alive)...
    expect(await sweepGenerations()).toMatchObject({ failed: 0 });
    expect((await db().generation.findUniqueOrThrow({ where: { id } })).status).toBe('in_progress');
    // ...after it, the generation is failed with a full refund.
    clock.set(new Date(Date.now() + STALE_STARTED_MS + 60_000));
    try {
      expect(await sweepGenerations()).toMatchObject({ failed: 1 });
    } finally {
      clock.reset();
    }
    const row = await db().generation.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'failed', errorCode: 'generation_failed', amountRefunded: cost });
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(credit);
    const ledger = await db().balanceTransaction.findMany({ where: { generationId: id }, select: { type: true, amount: true } });
    expect(ledger.sort((x, y) => x.type.localeCompare(y.type))).toEqual([{ type: 'charge', amount: -cost }, { type: 'refund', amount: cost }]);
    // Both instances read the final state; the surviving worker and both instances keep working.
    for (const s of servers) {
      const read = await api<{ status: string; error: { code: string } }>(`/v1/generations/${id}`, { base: s.url, key: org.liveKey, ip });
      expect(read.body).toMatchObject({ status: 'failed', error: { code: 'generation_failed' } });
    }
    expect(survivor.alive()).toBe(true);
    const after = await upscale(org, servers[0]!);
    expect(after.status).toBe(202);
    await waitFor('the surviving worker to run a new generation', async () => (await db().generation.findUniqueOrThrow({ where: { id: after.body.id } })).status === 'succeeded');
  });

  it('API-only instances: the console (pages, sign-in, tRPC) and the API reference page answer 404 route_not_found; the API, its OpenAPI document and health answer', async () => {
    const org = await createTestOrg({ tier: 1, name: 'API-only org' });
    for (const s of servers) {
      expect(s.output()).toMatch(/Roomtone is up: [^\n]*API only: no console \(CONSOLE_ENABLED=false\)/);
      for (const [method, pathname] of [['GET', '/'], ['GET', '/sign-in'], ['GET', '/docs'], ['GET', '/api/auth/session'], ['GET', '/api/trpc/me'], ['POST', '/api/trpc/keys.create']] as const) {
        const res = await fetch(`${s.url}${pathname}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
        expect({ method, pathname, status: res.status }).toEqual({ method, pathname, status: 404 });
        expect(res.headers.get('request-id')).toMatch(/^req_/);
        expect(await res.json()).toEqual({ error: { code: 'route_not_found', message: expect.stringContaining('CONSOLE_ENABLED=false') } });
      }
      expect((await api('/v1/styles', { base: s.url, key: org.testKey, ip })).status).toBe(200);
      expect((await fetch(`${s.url}/v1/openapi.json`)).status).toBe(200);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    }
  });

  // The per-organization request limit (tier 1: 120 a minute) is counted in PostgreSQL
  // (RATE_LIMIT_STORE=auto picks it with an external DATABASE_URL), so both instances share it.
  it('request limits hold across instances: 130 reads over both → exactly 10 refused', async () => {
    const org = await createTestOrg({ tier: 1, name: 'Rate org' });
    const results = await Promise.all(Array.from({ length: 130 }, (_, i) => api('/v1/styles', { base: servers[i % 2]!.url, key: org.testKey, ip })));
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
  });
});
