// @node-lines same: our scheduling rules on pg-boss; pg-boss's workers run under both lines in test/worker.test.ts
/**
 * Fair scheduling against a server of its own: one organization's flood of heavy generations is
 * held on its slots by an engine hold (BUILTIN_ENGINE_HOLDS_DIR), so it keeps every heavy slot
 * as long as the test says. Another organization's cheap generations must start and end while
 * the flood holds them (their own queue and slots), and its heavy ones take the next heavy slots
 * that free up (round-robin across organizations), not after the flood. What is asserted is
 * order, read from the generations' own started timestamps, so it holds on a loaded machine;
 * how many seconds the queues wait is the benchmark's (bench/sections/scheduling.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { form, maskPng } from './images-support';
import { API_ONLY, freshDatabase, startServer, waitFor, type TestDatabase, type TestProcess } from './server-processes';
import { closeDb, db } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';

const ip = testIp();
let database: TestDatabase;
let server: TestProcess;
let image: Buffer;
let mask: Buffer;
let holds: string;

/** Hold each run of this organization until it has lasted `ms` (engine/emulated-timing.ts). */
function holdFor(org: TestOrg, ms: number): void {
  fs.writeFileSync(path.join(holds, org.id), String(ms));
}

beforeAll(async () => {
  database = await freshDatabase('fair');
  setEnv('DATABASE_URL', database.url); // db() and createTestOrg in this file use it
  setEnv('DATA_DIR', database.dataDir);
  holds = path.join(database.dataDir, 'engine-holds');
  fs.mkdirSync(holds, { recursive: true });
  server = await startServer(database.url, {
    ...API_ONLY,
    WORKER_CONCURRENCY: '2',
    WORKER_LIGHT_CONCURRENCY: '5',
    BUILTIN_ENGINE_HOLDS_DIR: holds,
  });
  image = await sharp({ create: { width: 512, height: 384, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 20 } } }).png().toBuffer();
  mask = await maskPng(512, 384, [{ x: 200, y: 150, w: 64, h: 64, color: '#FF0000' }]);
});

afterAll(async () => {
  await server?.stop();
  await closeDb();
  await database?.drop();
});

/** A mask-mode edit: `remove` is heavy (PatchMatch), `modify` by colour is light. */
async function submitEdit(org: TestOrg, action: 'remove' | 'modify'): Promise<string> {
  const layer = action === 'remove' ? { mask_color: '#FF0000', action } : { mask_color: '#FF0000', action, color: '#6B8E7F' };
  const body = form([
    ['image', image],
    ['mask', mask],
    ['mode', 'mask'],
    ['quality', '1k'],
    ['layers', JSON.stringify([layer])],
    ['background', 'true'],
  ]);
  const res = await api<{ id: string }>('/v1/edits', { base: server.url, key: org.testKey, ip, method: 'POST', rawBody: body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.id;
}

async function rows(ids: string[]) {
  return db().generation.findMany({ where: { id: { in: ids } }, select: { id: true, createdAt: true, startedAt: true, completedAt: true, status: true } });
}


describe('fair scheduling: one organization floods heavy work, another submits after it', () => {
  it('the other organization’s cheap generations start and end while the flood holds the heavy slots, its heavy ones at the next free heavy slot; the flood’s remaining jobs cancel before starting', async () => {
    const a = await createTestOrg({ name: 'Flooding org' });
    const b = await createTestOrg({ name: 'Second org' });
    // A's runs stay on their heavy slots until the test shortens the hold.
    holdFor(a, 600_000);
    const flood: string[] = [];
    for (let i = 0; i < 40; i++) flood.push(await submitEdit(a, 'remove'));
    // The flood holds both heavy slots before B arrives.
    await waitFor('the flood to occupy the heavy slots', async () => (await rows(flood)).filter((g) => g.startedAt).length >= 2);

    const cheap: string[] = [];
    for (let i = 0; i < 5; i++) cheap.push(await submitEdit(b, 'modify'));
    const heavy = [await submitEdit(b, 'remove'), await submitEdit(b, 'remove')];

    // B's cheap generations run in their own queue and slots: all of them end while A's first
    // two still hold the heavy slots and A's 38 others wait (in FIFO order they would wait for
    // the whole flood).
    const cheapDone = await waitFor('B’s cheap generations to end', async () => {
      const r = await rows(cheap);
      return r.every((g) => g.status !== 'in_progress') && r;
    });
    expect(cheapDone.map((g) => g.status)).toEqual(Array(5).fill('succeeded'));
    const floodAtThatTime = await rows(flood);
    expect(floodAtThatTime.filter((g) => g.startedAt).length).toBe(2);
    expect(floodAtThatTime.filter((g) => g.status === 'in_progress').length).toBe(40);

    // Heavy rounds of a few seconds from now on: B's heavy jobs take the next heavy slots that
    // free up. Each ranks with A's jobs of the same rank in the heavy queue (B's own light jobs,
    // waiting in the other queue, do not count): at most 2 of A's jobs (one per rank ahead of
    // it, ties going to the older job) start while it waits, not A's 30-odd.
    holdFor(a, 3_000);
    const heavyStarted = await waitFor('B’s heavy generations to start', async () => {
      const r = await rows(heavy);
      return r.every((g) => g.startedAt) && r;
    }, 240_000);
    holdFor(a, 600_000); // the rest of the flood waits again, to be canceled
    const floodNow = await rows(flood);
    for (const g of heavyStarted) {
      const overtaking = floodNow.filter((f) => f.startedAt && f.startedAt > g.createdAt && f.startedAt < g.startedAt!).length;
      expect(overtaking, `A's jobs started while B's heavy ${g.id} waited`).toBeLessThanOrEqual(2);
    }

    // Cancel before start still works for jobs waiting in the new queues.
    const waiting = floodNow.filter((g) => !g.startedAt).map((g) => g.id);
    expect(waiting.length).toBeGreaterThan(30);
    for (const id of waiting.slice(0, 5)) {
      const res = await api<{ status: string }>(`/v1/generations/${id}/cancel`, { base: server.url, key: a.testKey, ip, method: 'POST' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('canceled');
    }
    const canceled = await rows(waiting.slice(0, 5));
    expect(canceled.every((g) => g.status === 'canceled' && g.startedAt === null)).toBe(true);
  }, 420_000);
});
