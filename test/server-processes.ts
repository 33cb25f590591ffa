/**
 * Test harness for tests that need their own processes: a fresh database on the test cluster,
 * production servers (`scripts/start.ts`, as `npm start`) and `roomtone worker` processes on it,
 * with their own settings. Processes are killed (SIGKILL) if a test forgets to stop them.
 */
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { inject } from 'vitest';
import { recreateDatabase, dropDatabase } from '@/server/platform/embedded-postgres';
import { applyMigrations } from '@/server/platform/migrations';
import { freePort } from '@/server/platform/ports';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, migrated database on the test cluster (so these processes share no queue with the main test server). */
export async function freshDatabase(name: string): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const database = `roomtone_${name}_${process.pid}`;
  await recreateDatabase(adminUrl, database);
  const url = adminUrl.replace(/\/postgres$/, `/${database}`);
  await applyMigrations(url);
  return { url, drop: () => dropDatabase(adminUrl, database) };
}

export interface TestProcess {
  pid: number;
  /** Base URL (servers only). */
  url: string;
  output(): string;
  alive(): boolean;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function launch(args: string[], env: Record<string, string>, url: string): { child: ChildProcess; proc: TestProcess } {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
    if (process.env.TEST_SERVER_LOGS === '1') process.stderr.write(d);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const proc: TestProcess = {
    pid: child.pid ?? 0,
    url,
    output: () => output,
    alive,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!alive()) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  return { child, proc };
}

async function until(what: string, proc: TestProcess, ready: () => Promise<boolean>, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (!proc.alive() || Date.now() > deadline) {
      await proc.kill();
      throw new Error(`${what} did not start\n--- output ---\n${proc.output().slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Poll `fn` every 200 ms until it returns something truthy; fail after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Settings every process of these tests shares (as test/global-setup.ts gives the main server). */
function commonEnv(databaseUrl: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', NODE_ENV: 'production', TRUST_PROXY: 'true', UPSCALE_METHOD: 'lanczos3', LOG_LEVEL: 'info' };
}

/** One production server (a single web process unless env says otherwise), healthy. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<TestProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { proc } = launch([require.resolve('tsx/cli'), path.join(root, 'scripts/start.ts')], {
    ...commonEnv(databaseUrl),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: url,
    SKIP_BUILD: '1',
    WEB_PROCESSES: '1',
    ...env,
  }, url);
  await until(`server on ${url}`, proc, async () => (await fetch(`${url}/healthz`)).ok);
  return proc;
}

/** One `roomtone worker` process, running. */
export async function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<TestProcess> {
  const { proc } = launch(['bin/roomtone.mjs', 'worker', '--json'], { ...commonEnv(databaseUrl), ...env }, '');
  await until('roomtone worker', proc, async () => proc.output().includes('"status":"running"'));
  return proc;
}
