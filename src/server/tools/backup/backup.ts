import fs from 'node:fs';
import path from 'node:path';
import { createHmac, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import { config } from '@/server/platform/config';
import { databaseUrl } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { log } from '@/server/platform/logger';
import { blobStore } from '@/server/capabilities/storage/storage';
import { assertSafeKey } from '@/server/capabilities/storage/blob-store';
import { storedInputImages, storedOutputs } from '@/server/capabilities/generation-object/stored-json';
import { jobs } from '@/server/platform/jobs/client';
import { generationAdmitted } from '@/server/capabilities/generations/generation-run-job';
import { appliedMigrations, dumpTable, loadTable, resetSequences, tablesInLoadOrder, clearTables } from './database-dump';
import { readTar, TarWriter, type TarEntry } from './tar';

/**
 * `roomtone backup` / `roomtone restore`: one .tar.gz holding the database's rows (one
 * snapshot), the blobs those rows name, and the secrets that decrypt what the rows encrypt.
 *
 * Consistency while the service runs: every blob is written before the row naming it commits
 * (creation inputs before the admission transaction, outputs before the generation's
 * `finish` step, an upload's bytes before it can be named by a creation), so once the rows
 * are read in one snapshot, copying the blobs they name afterwards finds each of them. A blob
 * deleted in between (retention of an expired generation, an upload whose bytes are still
 * arriving) is reported as missing and the row kept.
 *
 * Layout: `roomtone-backup.json` (the manifest), `secrets/app-secret` and `secrets/auth-secret`
 * (unless made without them), `database/<table>.jsonl` in insertion order, `blobs/<key>`.
 */
const MANIFEST = 'roomtone-backup.json';
const FORMAT = 'roomtone-backup';
const SECRET_FILES = { 'app-secret': 'APP_SECRET', 'auth-secret': 'AUTH_SECRET' } as const;

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  created_at: z.string(),
  migrations: z.array(z.string()),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int() })),
  blobs: z.number().int(),
  secrets_included: z.boolean(),
  /** HMAC of a constant under APP_SECRET: tells whether the restoring service has the same one. */
  app_secret_fingerprint: z.string(),
});
type Manifest = z.infer<typeof manifestSchema>;

function fingerprint(secret: string): string {
  return createHmac('sha256', secret).update('roomtone-backup').digest('hex').slice(0, 32);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The tables whose rows name blobs. */
const BLOB_TABLES = new Set(['Generation', 'Upload', 'JobStep']);

/** The blob keys a row names (see the consistency note above). */
function blobKeysOf(table: string, row: Record<string, unknown>): string[] {
  if (table === 'Generation') return [...storedOutputs(row.outputs).map((o) => o.key), ...storedInputImages(row.inputImages).map((i) => i.key)];
  if (table === 'Upload') return typeof row.storageKey === 'string' && row.storageKey !== '' ? [row.storageKey] : [];
  // A finished `generate` step of a run not yet ended memoizes the output it stored.
  if (table === 'JobStep') {
    const stored = (row.output as { stored?: unknown } | null)?.stored;
    return Array.isArray(stored) ? stored.flatMap((s) => (typeof (s as { key?: unknown }).key === 'string' ? [(s as { key: string }).key] : [])) : [];
  }
  return [];
}

export interface BackupResult {
  file: string;
  tables: Record<string, number>;
  blobs: number;
  missing_blobs: string[];
  secrets_included: boolean;
}

/** Writes the backup to `file` (which must not exist) from the running service's database and store. */
export async function writeBackup(file: string, options: { withSecrets: boolean }): Promise<BackupResult> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new DomainError('parameter_invalid', `${target} already exists: a backup never overwrites a file.`, { param: 'file' });
  const c = config();
  const appSecret = c.APP_SECRET;
  if (!appSecret) throw new Error('APP_SECRET is not set (the runtime sets it from DATA_DIR).');
  // Table dumps are spooled beside the archive (same disk, not a small /tmp), then appended.
  const spool = fs.mkdtempSync(`${target}.parts-`);
  const keys = new Set<string>();
  const tables: Manifest['tables'] = [];
  let migrations: string[];
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    migrations = await appliedMigrations(client);
    for (const name of await tablesInLoadOrder(client)) {
      const out = fs.createWriteStream(path.join(spool, `${name}.jsonl`));
      const rows = await dumpTable(client, name, async (lines) => {
        if (BLOB_TABLES.has(name)) for (const line of lines) for (const key of blobKeysOf(name, JSON.parse(line) as Record<string, unknown>)) keys.add(key);
        if (!out.write(`${lines.join('\n')}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      });
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      tables.push({ name, rows });
    }
    await client.query('commit');
  } catch (error) {
    fs.rmSync(spool, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }

  const manifest: Manifest = {
    format: FORMAT,
    version: 1,
    created_at: new Date().toISOString(),
    migrations,
    tables,
    blobs: keys.size,
    secrets_included: options.withSecrets,
    app_secret_fingerprint: fingerprint(appSecret),
  };
  const archive = new TarWriter(target);
  const missing: string[] = [];
  try {
    await archive.addBuffer(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    if (options.withSecrets) {
      for (const [name, variable] of Object.entries(SECRET_FILES)) {
        const value = c[variable];
        if (value) await archive.addBuffer(`secrets/${name}`, Buffer.from(value));
      }
    }
    for (const { name } of tables) await archive.addFile(`database/${name}.jsonl`, path.join(spool, `${name}.jsonl`));
    for (const key of [...keys].sort()) {
      const bytes = await blobStore().get(key);
      if (bytes) await archive.addBuffer(`blobs/${key}`, bytes);
      else missing.push(key);
    }
    await archive.finish();
  } catch (error) {
    await archive.abort();
    fs.rmSync(target, { force: true });
    throw error;
  } finally {
    fs.rmSync(spool, { recursive: true, force: true });
  }
  if (missing.length > 0) log.warn('backup: blobs deleted since the snapshot (expired or still uploading)', { missing: missing.length });
  return {
    file: target,
    tables: Object.fromEntries(tables.map((t) => [t.name, t.rows])),
    blobs: keys.size - missing.length,
    missing_blobs: missing,
    secrets_included: options.withSecrets,
  };
}

async function* linesOf(entry: TarEntry): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of entry.body()) {
    const text = rest + chunk.toString('utf8');
    const lines = text.split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest !== '') yield rest;
}

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** What an S3 store serves the object as (the local store does not keep it). */
function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}

function refuse(message: string): never {
  throw new DomainError('parameter_invalid', message, { param: 'file' });
}

/**
 * The secrets the restored service must run with. From the archive: written to DATA_DIR
 * (0600) unless the environment sets them, which must then be the backup's. Without them in
 * the archive, the environment or DATA_DIR must already hold the backup's APP_SECRET.
 */
function installSecrets(manifest: Manifest, secrets: Map<string, string>): void {
  const c = config();
  const dataDir = c.dataDir;
  for (const [name, variable] of Object.entries(SECRET_FILES)) {
    const fromArchive = secrets.get(name);
    const fromEnv = c[variable];
    const file = path.join(dataDir, name);
    const fromFile = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined;
    const current = fromEnv ?? fromFile;
    if (fromArchive === undefined) continue;
    if (current !== undefined) {
      if (!sameText(current, fromArchive)) {
        refuse(`${fromEnv !== undefined ? `${variable} in the environment` : file} differs from the backup's ${variable}: the restored rows would not decrypt. Unset it (the backup's is installed), or set it to the backup's (secrets/${name} in the archive).`);
      }
      continue;
    }
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, fromArchive, { mode: 0o600, flag: 'wx' });
  }
  const appSecret = c.APP_SECRET ?? (fs.existsSync(path.join(dataDir, 'app-secret')) ? fs.readFileSync(path.join(dataDir, 'app-secret'), 'utf8').trim() : undefined);
  if (!appSecret) refuse('This backup was made without its secrets: set APP_SECRET to the value the backed-up service used.');
  if (fingerprint(appSecret) !== manifest.app_secret_fingerprint) {
    refuse('APP_SECRET is not the one the backed-up service used: webhook secrets and two-factor secrets would not decrypt. Set APP_SECRET to that value.');
  }
}

export interface RestoreResult {
  file: string;
  tables: Record<string, number>;
  blobs: number;
  /** Generations in progress at the backup, enqueued again. */
  requeued: number;
}

/**
 * Restores `file` into an empty database (no organization, no user) and the configured blob
 * store, all rows in one transaction. `prepare` readies the runtime (secrets, database,
 * migrations) once the archive's secrets are in place.
 */
export async function restoreBackup(file: string, prepare: () => Promise<void>): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) refuse(`${source} does not exist.`);
  const entries = readTar(source);
  const next = async () => {
    const step = await entries.next();
    return step.done ? null : step.value;
  };
  let first: TarEntry | null;
  try {
    first = await next();
  } catch {
    refuse(`${source} is not a Roomtone backup (not a .tar.gz).`);
  }
  if (first?.name !== MANIFEST) refuse(`${source} is not a Roomtone backup (it does not start with ${MANIFEST}).`);
  const parsed = manifestSchema.safeParse(JSON.parse((await first.bytes()).toString('utf8')));
  if (!parsed.success) refuse(`${source} has a manifest this version cannot read.`);
  const manifest = parsed.data;

  const secrets = new Map<string, string>();
  let entry = await next();
  while (entry?.name.startsWith('secrets/')) {
    secrets.set(entry.name.slice('secrets/'.length), (await entry.bytes()).toString('utf8'));
    entry = await next();
  }
  installSecrets(manifest, secrets);
  await prepare();

  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  const tables: Record<string, number> = {};
  let blobs = 0;
  try {
    const migrations = await appliedMigrations(client);
    if (migrations.join('\n') !== manifest.migrations.join('\n')) {
      refuse(`The backup was made at another database version (${manifest.migrations.at(-1) ?? 'none'}; this version: ${migrations.at(-1) ?? 'none'}). Restore with the Roomtone version that made it, then upgrade.`);
    }
    const { rows } = await client.query<{ used: boolean }>('select exists (select 1 from public."Organization") or exists (select 1 from public."User") as used');
    if (rows[0]!.used) refuse('The database is not empty (it has organizations or users): restore into an empty DATA_DIR or an empty database.');
    const order = manifest.tables.map((t) => t.name);
    const present = await tablesInLoadOrder(client);
    const unknown = order.filter((t) => !present.includes(t));
    if (unknown.length > 0) refuse(`The backup has tables this database lacks: ${unknown.join(', ')}.`);

    await client.query('begin');
    await clearTables(client, present);
    for (const table of manifest.tables) {
      if (entry?.name !== `database/${table.name}.jsonl`) refuse(`${source} is incomplete: database/${table.name}.jsonl is missing or out of order.`);
      const loaded = await loadTable(client, table.name, linesOf(entry));
      if (loaded !== table.rows) refuse(`${source} is damaged: ${table.name} has ${loaded} rows, its manifest says ${table.rows}.`);
      tables[table.name] = loaded;
      entry = await next();
    }
    await resetSequences(client, present);
    // Blobs before the commit: a restore that fails midway leaves the database empty, so it can run again.
    while (entry) {
      if (!entry.name.startsWith('blobs/')) refuse(`${source} has an unexpected entry ${entry.name}.`);
      const key = entry.name.slice('blobs/'.length);
      assertSafeKey(key);
      await blobStore().put(key, await entry.bytes(), contentTypeOf(key));
      blobs += 1;
      entry = await next();
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }

  // The queue is not in the backup: what was in progress runs again (a started run resumes
  // from its memoized steps, which the backup holds).
  const inProgress = await pgRows<{ id: string; organizationId: string }>('select id, "organizationId" from public."Generation" where status = \'in_progress\'');
  let requeued = 0;
  for (const generation of inProgress) if (await jobs().resend(generationAdmitted(generation))) requeued += 1;
  return { file: source, tables, blobs, requeued };
}

async function pgRows<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}
