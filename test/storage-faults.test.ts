// @node-lines same: our answers to a failing blob store; the S3 client runs under both lines in src/server/capabilities/storage/s3.test.ts
/**
 * A blob store that fails, through the real creation route of a production server on a
 * database of its own:
 *  - the local store's folder cannot be written: DATA_DIR/blobs is made a regular file, so
 *    every write under it fails with ENOTDIR (mode bits would not do: the tests run as root,
 *    whom they do not stop);
 *  - an S3 bucket (test/s3-server.ts) that answers 500, then one that does not answer at all.
 * While it lasts, a creation answers 503 service_unavailable with Retry-After in the spec's
 * envelope, nothing is created or charged, and /readyz says not_ready with `storage: false`;
 * once the store works again, /readyz is ready and creations are accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { closeDb, db } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';
import { timeoutSignal } from '@/server/platform/deadline';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { form } from './images-support';
import { API_ONLY, freshDatabase, startServer, waitFor, type TestDatabase, type TestProcess } from './server-processes';
import { startLocalS3, type LocalS3 } from './s3-server';

const ip = testIp();
const S3_TIMEOUT_MS = 1_000;
let image: Buffer;

beforeAll(async () => {
  image = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#7d8a70' } }).png().toBuffer();
});

interface Setup {
  database: TestDatabase;
  server: TestProcess;
  org: TestOrg;
}

async function setUp(name: string, env: Record<string, string> = {}): Promise<Setup> {
  const database = await freshDatabase(name);
  const server = await startServer(database.url, { ...API_ONLY, ...env });
  await closeDb();
  setEnv('DATABASE_URL', database.url);
  setEnv('DATA_DIR', database.dataDir);
  const org = await createTestOrg({ tier: 2 });
  return { database, server, org };
}

async function tearDown(setup: Setup | undefined): Promise<void> {
  await setup?.server.stop();
  await closeDb();
  await setup?.database.drop();
}

function upscale(setup: Setup) {
  return api<{ id: string }>('/v1/upscales', { base: setup.server.url, key: setup.org.liveKey, ip, method: 'POST', rawBody: form([['image', image], ['scale', 'x2'], ['background', 'true']]) });
}

async function readyz(setup: Setup): Promise<{ status: number; body: { status: string; checks: Record<string, unknown> } }> {
  const res = await fetch(`${setup.server.url}/readyz`, { signal: timeoutSignal(20_000) });
  return { status: res.status, body: (await res.json()) as never };
}

async function ledger(setup: Setup): Promise<{ balance: number; generations: number }> {
  const org = await db().organization.findUniqueOrThrow({ where: { id: setup.org.id }, select: { balanceCents: true } });
  return { balance: org.balanceCents, generations: await db().generation.count({ where: { organizationId: setup.org.id } }) };
}

/** A creation while the store fails: 503 in the envelope with Retry-After, nothing created or charged. */
async function expectRefused(setup: Setup): Promise<void> {
  const before = await ledger(setup);
  const res = await upscale(setup);
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: { code: 'service_unavailable', message: expect.stringContaining('storage') } });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await ledger(setup)).toEqual(before);
  const ready = await readyz(setup);
  expect(ready.status).toBe(503);
  expect(ready.body).toMatchObject({ status: 'not_ready', checks: { database: true, storage: false } });
}

/** Accepted, and its run ended (so no worker write or refund moves the ledger while the store fails). */
async function acceptedAndDone(setup: Setup): Promise<void> {
  const res = await upscale(setup);
  expect(res.status).toBe(202);
  await waitFor('the generation to succeed', async () => (await db().generation.findUniqueOrThrow({ where: { id: res.body.id }, select: { status: true } })).status === 'succeeded', 120_000);
}

async function expectHealed(setup: Setup): Promise<void> {
  await waitFor('/readyz ready once the store works', async () => (await readyz(setup)).status === 200, 60_000);
  expect((await readyz(setup)).body).toMatchObject({ status: 'ready', checks: { storage: true } });
  const before = await ledger(setup);
  await acceptedAndDone(setup);
  expect((await ledger(setup)).generations).toBe(before.generations + 1);
}

describe('the local blob folder cannot be written', () => {
  let setup: Setup | undefined;
  afterAll(() => tearDown(setup), 120_000);

  it('answers 503 service_unavailable with Retry-After, creates and charges nothing, /readyz storage false; heals when writable again', async () => {
    setup = await setUp('storage_local');
    await acceptedAndDone(setup);
    const blobs = path.join(setup.database.dataDir, 'blobs');
    fs.renameSync(blobs, `${blobs}.aside`);
    fs.writeFileSync(blobs, 'not a folder');
    try {
      await expectRefused(setup);
    } finally {
      fs.rmSync(blobs, { force: true });
      fs.renameSync(`${blobs}.aside`, blobs);
    }
    await expectHealed(setup);
  }, 600_000);
});

describe('the S3 bucket fails', () => {
  let s3: LocalS3;
  let setup: Setup | undefined;
  beforeAll(async () => {
    s3 = await startLocalS3('roomtone-faults');
  });
  afterAll(async () => {
    await tearDown(setup);
    await s3.close();
  }, 120_000);

  it('answers 503 while the bucket answers 500, and while it does not answer at all (bounded by S3_TIMEOUT_MS); heals when it serves again', async () => {
    setup = await setUp('storage_s3', {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_TIMEOUT_MS: String(S3_TIMEOUT_MS),
      AWS_ACCESS_KEY_ID: 'AKIAROOMTONETEST',
      AWS_SECRET_ACCESS_KEY: 'roomtone-test-secret',
    });
    await acceptedAndDone(setup);
    expect([...s3.objects.keys()].some((key) => key.startsWith('inputs/'))).toBe(true);

    s3.fail('error');
    await expectRefused(setup);

    s3.fail('stall');
    const started = Date.now();
    await expectRefused(setup);
    // Two attempts of at most S3_TIMEOUT_MS each, not the stall's length.
    expect(Date.now() - started).toBeLessThan(15_000);

    s3.fail('none');
    await expectHealed(setup);
  }, 600_000);
});
