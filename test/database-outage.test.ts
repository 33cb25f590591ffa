// @node-lines same: our recovery from PostgreSQL's faults; the database client runs under both lines in every integration file of that pass
/**
 * A database outage, whole: a production server (web process with its job workers) on a
 * PostgreSQL cluster of this file's own, generations queued behind a busy worker slot, then the
 * cluster stopped. While it is down, /v1 answers 503 service_unavailable with Retry-After in the
 * spec's envelope (never 500), /healthz stays 200 and /readyz says not_ready. The cluster is
 * started again on the same port: the service heals by itself (/readyz ready, reads 200) and
 * the queued generations finish. Nothing is charged for what was refused meanwhile, and the
 * request log shows the refused requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@/server/platform/embedded-postgres';
import { migrateDatabase } from '@/server/tools/migrations/migrate-database';
import { closeDb, db } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { form } from './images-support';
import { API_ONLY, startServer, waitFor, type TestProcess } from './server-processes';

const ip = testIp();
const dataDir = path.resolve(import.meta.dirname, '..', '.data', `test-outage-${process.pid}`);
const database = `roomtone_outage_${process.pid}`;
let cluster: EmbeddedDatabase;
let port: number;
let server: TestProcess;
let org: TestOrg;
let image: Buffer;

beforeAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  cluster = await startEmbeddedPostgres(dataDir, { fast: true, database });
  port = Number(new URL(cluster.url).port);
  await migrateDatabase(cluster.url);
  setEnv('DATABASE_URL', cluster.url); // createTestOrg and the reads below use it
  // One light slot and upscales that take at least 2 s: the later ones wait in the queue.
  server = await startServer(cluster.url, { ...API_ONLY, WORKER_LIGHT_CONCURRENCY: '1', BUILTIN_ENGINE_MIN_DURATION_MS: '2000' });
  setEnv('DATA_DIR', path.resolve(import.meta.dirname, '..', '.data', 'test-databases', database));
  org = await createTestOrg({ tier: 2 });
  image = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#8a7f70' } }).png().toBuffer();
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await closeDb();
  await cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(path.resolve(import.meta.dirname, '..', '.data', 'test-databases', database), { recursive: true, force: true });
}, 120_000);

function upscale() {
  return api<{ id: string; status: string }>('/v1/upscales', { base: server.url, key: org.liveKey, ip, method: 'POST', rawBody: form([['image', image], ['scale', 'x2'], ['background', 'true']]) });
}

async function balance(): Promise<number> {
  return (await db().organization.findUniqueOrThrow({ where: { id: org.id }, select: { balanceCents: true } })).balanceCents;
}

describe('a database outage', () => {
  it('is 503 service_unavailable with Retry-After while it lasts; /healthz alive, /readyz failing; the service heals and queued generations finish', async () => {
    const queued: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await upscale();
      expect(res.status).toBe(202);
      queued.push(res.body.id);
    }
    const before = await balance();
    expect((await api(`/v1/generations/${queued[0]}`, { base: server.url, key: org.liveKey, ip })).status).toBe(200);

    await closeDb(); // this process's pool would only hold dead connections
    await cluster.stop();

    const refused = [
      await api(`/v1/generations/${queued[0]}`, { base: server.url, key: org.liveKey, ip }),
      await api('/v1/generations?limit=5', { base: server.url, key: org.liveKey, ip }),
      await api('/v1/styles', { base: server.url, key: org.liveKey, ip }),
      await upscale(),
      await api(`/v1/generations/${queued[3]}/cancel`, { base: server.url, key: org.liveKey, ip, method: 'POST' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: { code: 'service_unavailable' } });
      expect(Object.keys((res.body as { error: object }).error).sort()).toEqual(['code', 'message']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.headers.get('request-id')).toMatch(/^req_/);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ status: 'not_ready', checks: { database: false } });
    expect(server.alive()).toBe(true);

    cluster = await startEmbeddedPostgres(dataDir, { fast: true, database, port });
    await waitFor('/readyz to say ready again', async () => (await fetch(`${server.url}/readyz`)).status === 200, 120_000);
    const read = await api<{ id: string }>(`/v1/generations/${queued[0]}`, { base: server.url, key: org.liveKey, ip });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(queued[0]);

    // The generations queued before the outage run to the end once the database is back.
    await waitFor(
      'the queued generations to succeed',
      async () => (await db().generation.findMany({ where: { id: { in: queued } }, select: { status: true } })).every((g) => g.status === 'succeeded'),
      240_000,
    );
    // The upscale refused during the outage created nothing and charged nothing.
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(queued.length);
    expect(await balance()).toBe(before);
    // The request log kept the lines of the outage and wrote them once the database was back.
    await waitFor('the outage in the request log', async () => (await db().requestLog.count({ where: { ip, status: 503, errorCode: 'service_unavailable' } })) >= refused.length, 30_000);
    // And new work is taken again.
    const after = await upscale();
    expect(after.status).toBe(202);
  }, 600_000);
});
