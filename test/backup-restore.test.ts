// @node-lines same: PostgreSQL's own dump and restore and our archive of it; the archive's tar code runs under both lines in src/server/tools/backup/tar.test.ts
/**
 * `roomtone backup` of a running zero-setup service (embedded PostgreSQL, local
 * blobs, secrets generated under DATA_DIR) with generations in flight, `roomtone restore` into
 * a fresh DATA_DIR, then a service started there: a key from before works, a generation from
 * before reads with its output, balance and ledger match, the generations that were in flight
 * end (once charged), and the webhook endpoint signs with its secret from before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { freePort } from '@/server/platform/ports';
import { startProcess, TEST_NODE_FLAGS, type StartedProcess } from './start-server';
import { startReceivers, type Receivers } from './webhook-receiver';
import { API_ONLY, freshDatabase, waitFor, type TestDatabase } from './server-processes';
import { startLocalS3, type LocalS3 } from './s3-server';

const root = path.resolve(import.meta.dirname, '..');
/** What a zero-setup operator's shell does not set (the test run's own database and secret). */
const NOT_INHERITED = ['DATABASE_URL', 'APP_SECRET', 'AUTH_SECRET', 'ROOMTONE_EMBEDDED_DATABASE', 'BUILTIN_ENGINE_HOLDS_DIR'];
const SETTINGS = { SKIP_BUILD: '1', NODE_ENV: 'production' as const, UPSCALE_METHOD: 'lanczos3', DEV_ALLOW_LOOPBACK_URLS: 'true', LOG_LEVEL: 'warn' };
/** The services run API only: the backup and its restore are reached through the API and the CLI. */
const SERVICE_SETTINGS = { ...SETTINGS, ...API_ONLY };

const made: string[] = [];
const processes: StartedProcess[] = [];
const databases: TestDatabase[] = [];
const buckets: LocalS3[] = [];
let receivers: Receivers | undefined;

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
  await receivers?.close();
  await Promise.all(buckets.map((b) => b.close()));
  await Promise.all(databases.map((d) => d.drop()));
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function operatorEnv(dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...SETTINGS, DATA_DIR: dataDir };
  for (const name of NOT_INHERITED) delete env[name];
  return { ...env, ...extra };
}

/** `npx roomtone …` as an operator runs it beside the service. */
function roomtone(dataDir: string, args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, 'bin/roomtone.mjs'), ...args], { cwd: root, env: operatorEnv(dataDir, extra), timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

async function service(name: string, dataDir: string, env: Record<string, string> = {}): Promise<StartedProcess> {
  const started = await startProcess({ name, port: await freePort(), processes: 1, nodeFlags: TEST_NODE_FLAGS, echoEnv: 'TEST_SERVER_LOGS', unsetEnv: NOT_INHERITED, env: { ...SERVICE_SETTINGS, DATA_DIR: dataDir, ...env } });
  processes.push(started);
  return started;
}

/** A database: a connection string, or the embedded cluster under a DATA_DIR (its connection record). */
async function query<T>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
  let client: pg.Client;
  if (/^postgres(ql)?:/.test(database)) client = new pg.Client({ connectionString: database });
  else {
    const record = JSON.parse(fs.readFileSync(path.join(database, 'postgres.json'), 'utf8')) as { port: number; user: string; password: string; database: string };
    client = new pg.Client({ host: '127.0.0.1', port: record.port, user: record.user, password: record.password, database: record.database });
  }
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

interface ApiGeneration {
  id: string;
  status: string;
  output: { url: string; url_expires_at: number; content_type: string; width: number; height: number }[];
  cost: { amount: number; amount_refunded: number };
}

async function api<T>(server: StartedProcess, key: string, route: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${route}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });
  return { status: res.status, body: (await res.json()) as T };
}

async function upscale(server: StartedProcess, key: string, image: Buffer): Promise<string> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'room.png');
  form.append('scale', 'x2');
  form.append('background', 'true');
  const res = await api<{ id: string }>(server, key, '/v1/upscales', { method: 'POST', body: form });
  expect(res.status).toBe(202);
  return res.body.id;
}

const ended = (g: ApiGeneration) => g.status !== 'in_progress';

async function outputBytes(generation: ApiGeneration): Promise<Buffer> {
  const res = await fetch(generation.output[0]!.url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The organization's balance and ledger as stored (the rows a restore must bring back exactly). */
async function money(database: string, organizationId: string) {
  const [org] = await query<{ balanceCents: number }>(database, 'select "balanceCents" from "Organization" where id = $1', [organizationId]);
  const ledger = await query<{ row: string }>(database, 'select row_to_json(t)::text as row from "BalanceTransaction" t where "organizationId" = $1 order by "createdAt", id', [organizationId]);
  return { balance: org!.balanceCents, ledger: ledger.map((r) => r.row) };
}

describe('backup and restore', () => {
  it('backs up a running service with generations in flight; a restore into a fresh DATA_DIR brings everything back', async () => {
    receivers = await startReceivers();
    const before = tempDir('roomtone-backup-a-');
    const holds = tempDir('roomtone-backup-holds-');
    const a = await service('service A', before, { BUILTIN_ENGINE_HOLDS_DIR: holds });
    const organizationId = /organization\s+(org_\S+)/.exec(a.output())![1]!;
    const liveKey = /live key\s+(rt_live_\S+)/.exec(a.output())![1]!;

    const created = await roomtone(before, ['webhooks', 'create', '--org', organizationId, '--mode', 'live', '--url', receivers.url('restored'), '--events', 'generation.succeeded', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout) as { id: string; secret: string };

    const room = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#8a7f70' } }).png().toBuffer();
    const done = await upscale(a, liveKey, room);
    const finished = await waitFor('the first generation', async () => {
      const g = (await api<ApiGeneration>(a, liveKey, `/v1/generations/${done}`)).body;
      return ended(g) ? g : null;
    });
    expect(finished.status).toBe('succeeded');
    const doneBytes = await outputBytes(finished);

    // The organization's next runs hold after their engine work: in flight at the backup.
    fs.writeFileSync(path.join(holds, organizationId), String(10 * 60_000));
    const inFlight = [await upscale(a, liveKey, room), await upscale(a, liveKey, room)];
    await waitFor('the runs to start', async () => {
      const rows = await query<{ n: number }>(before, 'select count(*)::int as n from "Generation" where id = any($1) and "startedAt" is not null', [inFlight]);
      return rows[0]!.n === inFlight.length;
    });

    const file = path.join(tempDir('roomtone-backup-file-'), 'roomtone.tar.gz');
    const backup = await roomtone(before, ['backup', file, '--json']);
    expect(backup.code, backup.stderr).toBe(0);
    const backedUp = JSON.parse(backup.stdout) as { tables: Record<string, number>; blobs: number; missing_blobs: string[]; secrets_included: boolean };
    expect(backedUp.secrets_included).toBe(true);
    expect(backedUp.missing_blobs).toEqual([]);
    // The first generation's input and output, and the held runs' inputs.
    expect(backedUp.blobs).toBe(2 + inFlight.length);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // The archive is a secret: never written over an existing file; without its secrets (or with
    // another APP_SECRET) a restore is refused before it touches anything.
    const overwrite = await roomtone(before, ['backup', file, '--json']);
    expect(overwrite.code).toBe(1);
    expect(JSON.parse(overwrite.stdout)).toMatchObject({ error: { code: 'parameter_invalid', param: 'file' } });
    const bare = path.join(path.dirname(file), 'without-secrets.tar.gz');
    const bareBackup = await roomtone(before, ['backup', bare, '--without-secrets', '--json']);
    expect(bareBackup.code, bareBackup.stderr).toBe(0);
    expect(JSON.parse(bareBackup.stdout)).toMatchObject({ secrets_included: false });
    const elsewhere = tempDir('roomtone-backup-refused-');
    const noSecret = await roomtone(elsewhere, ['restore', bare, '--json']);
    expect(noSecret.code).toBe(1);
    expect(JSON.parse(noSecret.stdout)).toMatchObject({ error: { code: 'parameter_invalid', param: 'file', message: expect.stringContaining('without its secrets') } });
    const otherSecret = await roomtone(elsewhere, ['restore', file, '--json'], { APP_SECRET: 'another-app-secret-0123456789abcdefghijkl' });
    expect(otherSecret.code).toBe(1);
    expect(JSON.parse(otherSecret.stdout)).toMatchObject({ error: { code: 'parameter_invalid', param: 'file', message: expect.stringContaining('APP_SECRET in the environment differs') } });
    expect(fs.readdirSync(elsewhere)).toEqual([]);

    const moneyBefore = await money(before, organizationId);
    expect(moneyBefore.ledger.length).toBeGreaterThanOrEqual(4); // the seeded credit and three charges
    const inFlightAtBackup = await query<{ id: string }>(before, 'select id from "Generation" where id = any($1) and status = \'in_progress\'', [inFlight]);
    expect(inFlightAtBackup).toHaveLength(inFlight.length);
    // Service A lets its runs end and stops; its deliveries from now on fail (A is gone for good).
    receivers.set('restored', () => ({ status: 503 }));
    fs.rmSync(path.join(holds, organizationId));
    expect(await a.stop()).toBe(0);
    receivers.set('restored', () => ({ status: 200 }));

    const after = tempDir('roomtone-backup-b-');
    const restore = await roomtone(after, ['restore', file, '--json']);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = JSON.parse(restore.stdout) as { tables: Record<string, number>; blobs: number; requeued: number };
    expect(restored.tables).toEqual(backedUp.tables);
    expect(restored.blobs).toBe(backedUp.blobs);
    expect(restored.requeued).toBe(inFlight.length);
    expect(fs.readFileSync(path.join(after, 'app-secret'), 'utf8')).toBe(fs.readFileSync(path.join(before, 'app-secret'), 'utf8'));
    expect(fs.statSync(path.join(after, 'app-secret')).mode & 0o777).toBe(0o600);

    // A second restore into the same (now used) place is refused, nothing changed.
    const again = await roomtone(after, ['restore', file, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'parameter_invalid', param: 'file' } });

    const restartedAt = performance.now();
    const b = await service('service B', after);
    expect(b.output()).not.toContain('live key'); // not a first run: no demo organization
    expect((await api<{ data: unknown[] }>(b, liveKey, '/v1/generations')).status).toBe(200);
    const read = await api<ApiGeneration>(b, liveKey, `/v1/generations/${done}`);
    expect(read.status).toBe(200);
    const { output: outputBefore, ...restBefore } = finished;
    const { output: outputAfter, ...restAfter } = read.body;
    expect(restAfter).toEqual(restBefore);
    expect(outputAfter.map(({ url: _u, url_expires_at: _e, ...o }) => o)).toEqual(outputBefore.map(({ url: _u, url_expires_at: _e, ...o }) => o));
    expect((await outputBytes(read.body)).equals(doneBytes)).toBe(true);
    expect(await money(after, organizationId)).toEqual(moneyBefore);

    // What was in flight ends on the restored service, charged once, its events signed with the endpoint's secret from before.
    for (const id of inFlight) {
      const g = await waitFor(`generation ${id} to end`, async () => {
        const current = (await api<ApiGeneration>(b, liveKey, `/v1/generations/${id}`)).body;
        return ended(current) ? current : null;
      });
      expect(g.status).toBe('succeeded');
      expect(g.output).toHaveLength(1);
    }
    expect(await money(after, organizationId)).toEqual(moneyBefore);
    const fromB = await waitFor('the restored service to deliver', async () => {
      const arrived = receivers!.received('restored').filter((r) => r.at > restartedAt);
      const ids = new Set(arrived.map((r) => (new Webhook(endpoint.secret).verify(r.body, r.headers) as { data: { object: { id: string } } }).data.object.id));
      return inFlight.every((id) => ids.has(id)) ? ids : null;
    }, 60_000);
    expect([...fromB].every((id) => [done, ...inFlight].includes(id))).toBe(true);
    expect(await b.stop()).toBe(0);
  }, 420_000);
  it('with an external PostgreSQL and S3: a backup of the running service restores into an empty database and another bucket', async () => {
    const [source, target] = [await freshDatabase('backup_source'), await freshDatabase('backup_target')];
    databases.push(source, target);
    const [bucketA, bucketB] = [await startLocalS3('roomtone-a'), await startLocalS3('roomtone-b')];
    buckets.push(bucketA, bucketB);
    const environment = (database: TestDatabase, bucket: LocalS3) => ({
      DATABASE_URL: database.url,
      APP_SECRET: process.env.APP_SECRET!,
      SEED_DEMO: 'false',
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket.bucket,
      S3_ENDPOINT: bucket.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'AKIAROOMTONETEST',
      AWS_SECRET_ACCESS_KEY: 'roomtone-test-secret',
    });
    const before = environment(source, bucketA);
    const a = await service('service A (external)', source.dataDir, before);
    const org = await roomtone(source.dataDir, ['org', 'create', '--name', 'Backed up', '--credit', '5000', '--json'], before);
    expect(org.code, org.stderr).toBe(0);
    const organizationId = (JSON.parse(org.stdout) as { id: string }).id;
    const key = await roomtone(source.dataDir, ['keys', 'create', '--org', organizationId, '--mode', 'live', '--json'], before);
    expect(key.code, key.stderr).toBe(0);
    const liveKey = (JSON.parse(key.stdout) as { secret: string }).secret;
    const room = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#6b8e7f' } }).png().toBuffer();
    const id = await upscale(a, liveKey, room);
    const finished = await waitFor('the generation', async () => {
      const g = (await api<ApiGeneration>(a, liveKey, `/v1/generations/${id}`)).body;
      return ended(g) ? g : null;
    });
    expect(finished.status).toBe('succeeded');
    const bytes = await outputBytes(finished);

    const file = path.join(tempDir('roomtone-backup-s3-'), 'roomtone.tar.gz');
    const backup = await roomtone(source.dataDir, ['backup', file, '--json'], before);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ blobs: 2, missing_blobs: [] });
    const moneyBefore = await money(source.url, organizationId);
    expect(await a.stop()).toBe(0);

    const after = environment(target, bucketB);
    const restore = await roomtone(target.dataDir, ['restore', file, '--json'], after);
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ blobs: 2, requeued: 0 });
    expect([...bucketB.objects.keys()].sort()).toEqual([...bucketA.objects.keys()].sort());
    const outputKey = [...bucketB.objects.keys()].find((k) => k.startsWith('outputs/'))!;
    expect(bucketB.objects.get(outputKey)!.contentType).toBe(bucketA.objects.get(outputKey)!.contentType);

    const b = await service('service B (external)', target.dataDir, after);
    const read = await api<ApiGeneration>(b, liveKey, `/v1/generations/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('succeeded');
    expect(read.body.output[0]!.url.startsWith(bucketB.endpoint)).toBe(true);
    expect((await outputBytes(read.body)).equals(bytes)).toBe(true);
    expect(await money(target.url, organizationId)).toEqual(moneyBefore);
    expect(await b.stop()).toBe(0);
  }, 420_000);
});
