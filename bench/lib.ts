/**
 * Shared pieces of the benchmarks: the bench database, child servers (the real one and the
 * baseline), autocannon runs, medians and markdown tables. Sections (bench/sections/*) get a
 * BenchContext from bench/run.ts and return their table plus raw figures.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startProcess, type StartOptions, type StartedProcess } from '../test/start-server';
import { treeCpuMs } from '../test/process-cpu';
import autocannon, { type Client, type Options, type RequestSpec, type Result } from 'autocannon';
import { setEnv } from '@/server/platform/config';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BENCH_DATA_DIR = path.join(ROOT, '.data', 'bench');
/** Fixed so the bench process and the servers it starts sign URLs with the same key. */
export const BENCH_APP_SECRET = 'roomtone-bench-secret-0123456789abcdefghijklmnop';
export const BENCH_DATABASE = 'roomtone_bench';
/** The migrated, empty database the others are copied from. */
const BENCH_TEMPLATE = `${BENCH_DATABASE}_template`;

// ---------------------------------------------------------------------------------------
// Context handed to sections
// ---------------------------------------------------------------------------------------

export interface BenchSettings {
  /** Measured seconds per autocannon run (BENCH_DURATION). */
  durationSec: number;
  /** Unmeasured warm-up seconds before each target's measured runs. */
  warmupSec: number;
  /** Concurrent connections (BENCH_CONNECTIONS). */
  connections: number;
  /** Alternating baseline/roomtone pairs per scenario. */
  repeats: number;
}

export interface BenchContext {
  settings: BenchSettings;
  /**
   * `npm run bench:check`: short runs, each section compares against its same-run baseline and
   * reports a figure below its floor as a failure (the run exits 1).
   */
  check: boolean;
  cleanup: Cleanup;
  /** The embedded PostgreSQL and the migrated `roomtone_bench` database, started on first use. */
  database(): Promise<BenchDatabase>;
  log(message: string): void;
  /** The section that runs after the current one, if any. */
  nextSection: string | undefined;
  /**
   * A Roomtone server the section before left running for this one, on the same database (the
   * http section hands one of its servers to the admission section that follows it): a server
   * start fewer. A section that uses it sets this back to null and stops it; one that does not
   * leaves it to the run, which stops it when the section ends.
   */
  handedOver: ChildServer | null;
}

export interface SectionOutput {
  /** Markdown printed to stdout (ready for the README). */
  markdown: string;
  /** Raw figures, written to bench/results/latest.json under the section's name. */
  raw: unknown;
  /** Things that make the run invalid (non-2xx responses...): printed loudly, exit 1. */
  failures: string[];
  /** Rows of the README's "Performance at a glance" table (measure, figure, goal), for a full run's publication. */
  glance?: GlanceRow[];
}

export type GlanceRow = [measure: string, figure: string, goal: string];

export type Section = (ctx: BenchContext) => Promise<SectionOutput>;

const benchStarted = performance.now();

/** Progress on stderr, with the seconds since the run began (where a run's time goes). */
export function log(message: string): void {
  process.stderr.write(`[bench +${((performance.now() - benchStarted) / 1000).toFixed(1)}s] ${message}\n`);
}

/** Stack of undo steps, run last-in first-out even when a step fails. */
export class Cleanup {
  private readonly steps: { name: string; fn: () => Promise<void> }[] = [];

  add(name: string, fn: () => Promise<void>): void {
    this.steps.push({ name, fn });
  }

  async run(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop();
      if (!step) break;
      try {
        await step.fn();
      } catch (error) {
        log(`cleanup "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Database
// ---------------------------------------------------------------------------------------

export interface BenchDatabase {
  /** The cluster's `postgres` database. */
  adminUrl: string;
  /** The fresh, migrated roomtone_bench database. */
  url: string;
  /** The postmaster's pid (its process tree is the database's CPU), when readable. */
  postmasterPid: number | null;
}

function signalQuietly(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGINT is PostgreSQL's fast shutdown; wait up to 15 s for the postmaster to go. */
async function stopPostmaster(pid: number): Promise<void> {
  if (!signalQuietly(pid, 'SIGINT')) return;
  for (let i = 0; i < 60; i++) {
    if (!signalQuietly(pid, 0)) return;
    await sleep(250);
  }
  log(`PostgreSQL (pid ${pid}) did not stop within 15 s`);
}

function readPostmasterPid(): number | null {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(BENCH_DATA_DIR, 'postgres.json'), 'utf8')) as { clusterDir?: string };
    if (!record.clusterDir) return null;
    const pid = Number(fs.readFileSync(path.join(record.clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Embedded PostgreSQL (fast settings) under .data/bench and a freshly recreated, migrated
 * roomtone_bench. Also points this process's env at it, so service-layer imports (db(),
 * blobStore()) work against the same database and DATA_DIR as the servers.
 */
export async function startBenchDatabase(cleanup: Cleanup): Promise<BenchDatabase> {
  // Loaded on demand: sections that need no database (validation) skip the Prisma/pg stack.
  const { startEmbeddedPostgres, recreateDatabase } = await import('../src/server/platform/embedded-postgres');
  const { migrateDatabase } = await import('../src/server/tools/migrations/migrate-database');
  fs.mkdirSync(BENCH_DATA_DIR, { recursive: true });
  const cluster = await startEmbeddedPostgres(BENCH_DATA_DIR, { fast: true, database: 'postgres' });
  if (cluster.owned) {
    const pid = readPostmasterPid();
    let stopped = false;
    cleanup.add('postgres', async () => {
      await cluster.stop();
      stopped = true;
    });
    // If this process dies without running the cleanup, do not leave the cluster running.
    process.once('exit', () => {
      if (pid && !stopped) signalQuietly(pid, 'SIGINT');
    });
  } else {
    // .data/bench is ours alone: a cluster already running there was left by an earlier,
    // interrupted run. Use it, and stop it at the end (fast shutdown of its postmaster).
    const pid = readPostmasterPid();
    log(`PostgreSQL under ${path.relative(ROOT, BENCH_DATA_DIR)} was already running (pid ${pid ?? '?'}, left by an interrupted run?); it will be stopped at the end`);
    if (pid) cleanup.add('postgres (left running before)', () => stopPostmaster(pid));
  }
  const adminUrl = cluster.url;
  const url = adminUrl.replace(/\/postgres$/, `/${BENCH_DATABASE}`);
  // Migrated once, into a template every section's database is copied from (sectionDatabase):
  // a copy is a file copy, a migration runs the schema engine.
  await recreateDatabase(adminUrl, BENCH_TEMPLATE);
  await migrateDatabase(adminUrl.replace(/\/postgres$/, `/${BENCH_TEMPLATE}`));
  await recreateDatabase(adminUrl, BENCH_DATABASE, { template: BENCH_TEMPLATE });
  setEnv('DATABASE_URL', url);
  process.env.DATA_DIR = BENCH_DATA_DIR;
  setEnv('APP_SECRET', BENCH_APP_SECRET);
  // The service layer's client pool must be closed before PostgreSQL stops (LIFO cleanup).
  cleanup.add('prisma client', async () => {
    const { closeDb } = await import('../src/server/platform/db');
    await closeDb();
  });
  return { adminUrl, url, postmasterPid: readPostmasterPid() };
}

/**
 * A freshly recreated, migrated database of its own for one section (same cluster), with the
 * service layer of this process pointed at it: nothing another section left running (a
 * server's job workers, its rows) can act on what this section measures.
 */
export async function sectionDatabase(ctx: BenchContext, name: string): Promise<string> {
  const cluster = await ctx.database();
  const { recreateDatabase } = await import('../src/server/platform/embedded-postgres');
  const { closeDb } = await import('../src/server/platform/db');
  const database = `${BENCH_DATABASE}_${name}`;
  await recreateDatabase(cluster.adminUrl, database, { template: BENCH_TEMPLATE });
  const url = cluster.adminUrl.replace(/\/postgres$/, `/${database}`);
  await closeDb();
  setEnv('DATABASE_URL', url);
  return url;
}

// ---------------------------------------------------------------------------------------
// CPU accounting (Linux /proc): CPU time per request is steadier than req/s on a noisy box
// ---------------------------------------------------------------------------------------

export { ownCpuMs, treeCpuMs } from '../test/process-cpu';

/**
 * Wait until a freshly started server is idle (its process tree under `maxCoreShare` of a core
 * over the last second; at most `timeoutMs`): what it does right after starting (loading the
 * engine's threads, the first scheduled jobs) would otherwise be charged to the first runs.
 */
export async function settled(pid: number | undefined, options: { maxCoreShare?: number; timeoutMs?: number } = {}): Promise<number> {
  const maxPerSecond = (options.maxCoreShare ?? 0.15) * 1000;
  const deadline = performance.now() + (options.timeoutMs ?? 60_000);
  const started = performance.now();
  let [last] = treeCpuMs([pid]);
  while (last != null && performance.now() < deadline) {
    await sleep(1000);
    const [now] = treeCpuMs([pid]);
    if (now == null) break;
    if (now - last < maxPerSecond) break;
    last = now;
  }
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------
// Child servers
// ---------------------------------------------------------------------------------------

export { freePort } from '@/server/platform/ports';

export interface ChildServer {
  name: string;
  url: string;
  port: number;
  pid: number | undefined;
  /** Last ~16 kB of the child's stdout+stderr (for error reports). */
  output(): string;
  alive(): boolean;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  name: string;
  /** Arguments to `node` (script and its args). */
  args: string[];
  env: Record<string, string>;
  port: number;
  healthPath?: string;
  timeoutMs?: number;
}

/** Spawn `node <args>` (test/start-server.ts) and wait until GET healthPath answers 200. */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  return asChildServer(await startProcess({ ...benchProcess(options), args: options.args, healthPath: options.healthPath }), options.port);
}

function benchProcess(options: { name: string; port: number; env: Record<string, string>; timeoutMs?: number }): StartOptions {
  return { name: options.name, port: options.port, env: options.env, timeoutMs: options.timeoutMs ?? 120_000, keepOutput: 16_000, echoEnv: 'BENCH_SERVER_LOGS', stopTimeoutMs: 10_000 };
}

function asChildServer(proc: StartedProcess, port: number): ChildServer {
  return { name: proc.name, url: proc.url, port, pid: proc.pid, output: proc.output, alive: proc.alive, stop: async () => void (await proc.stop()) };
}

/**
 * Node flags of a benchmarked Roomtone server from the environment: BENCH_CPU_PROF=1 (a CPU
 * profile per process into bench/results/prof, written when it stops) and BENCH_SERVER_NODE_FLAGS.
 */
export function serverNodeFlags(ctx: BenchContext): string[] {
  const profileDir = path.join(ROOT, 'bench/results/prof');
  const flags = [
    ...(process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  if (process.env.BENCH_CPU_PROF === '1') ctx.log(`CPU profile of the roomtone server goes to ${path.relative(ROOT, profileDir)} when it stops`);
  return flags;
}

/**
 * Start the real server (`npm start`'s command, as the tests run the same script) as a child process
 * against the bench database, with `env` on top of the defaults. PUBLIC_BASE_URL must match
 * what this process uses when it computes signed URLs, so the port is chosen by the caller.
 */
export async function startRoomtoneServer(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
  /** Extra node flags (e.g. --cpu-prof; Node refuses those in NODE_OPTIONS). */
  nodeFlags?: string[];
  /** How long to wait for it to become healthy (default 120 s). */
  timeoutMs?: number;
}): Promise<ChildServer> {
  const env = {
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: BENCH_DATA_DIR,
    APP_SECRET: BENCH_APP_SECRET,
    SKIP_BUILD: '1',
    SEED_DEMO: 'false',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    LOG_LEVEL: 'warn',
    // Limits must never be what is measured (the org is tier 9 for the same reason).
    RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
    ...options.env,
  };
  const proc = await startProcess({ ...benchProcess({ name: 'roomtone', port: options.port, timeoutMs: options.timeoutMs, env }), nodeFlags: options.nodeFlags });
  return asChildServer(proc, options.port);
}

// ---------------------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------------------

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Paths to rotate over; each connection gets its own shuffled order. */
  paths: string[];
  connections: number;
  durationSec: number;
  overallRate?: number;
}

export interface LoadFigures {
  reqPerSec: number;
  /** Exact, from every 2xx response time (ms). */
  p50: number;
  p99: number;
  latencyMean: number;
  /** autocannon's own histogram (1 ms resolution; coordinated-omission corrected under a rate). */
  autocannonLatency: { p50: number; p99: number; max: number };
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSec: number;
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function runAutocannon(options: LoadOptions): Promise<LoadFigures> {
  const requests: RequestSpec[] = options.paths.map((p) => ({ method: 'GET', path: p }));
  const opts: Options = {
    url: options.url,
    connections: options.connections,
    duration: options.durationSec,
    headers: options.headers,
    requests,
    // Without this every connection walks the same ids in lockstep.
    setupClient: (client: Client) => client.setRequests(shuffled(requests)),
    timeout: 30,
    ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
  };
  // autocannon's histogram has 1 ms resolution (a 0.6 ms median prints as 0): keep exact times.
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (error, result) => {
      if (error) reject(error);
      else resolve(figuresOf(result, latencies));
    });
    instance.on('response', (_client: Client, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

function figuresOf(result: Result, latencies: number[]): LoadFigures {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats)) statusCodes[code] = stat.count;
  return {
    // Completed requests over wall time (the per-second sample average drops partial seconds).
    reqPerSec: result.requests.total / result.duration,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    latencyMean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    autocannonLatency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSec: result.duration,
  };
}

export interface PacedFigures {
  targetRate: number;
  /** Completed requests per second of the run. */
  achievedRate: number;
  p50: number;
  p99: number;
  latencyMean: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Still unanswered `graceSec` after the last was due (counted in the percentiles at that age). */
  unfinished: number;
  durationSec: number;
}

/**
 * Open-loop load at an even rate: request i is due at t0 + i/rate and its latency is counted
 * from that due time (so time spent waiting for a free connection counts: no coordinated
 * omission). Why not autocannon's overallRate alone: it lets each connection send its whole
 * per-second quota back to back at the top of each second, so "50 % load" is really full
 * load for half of every second. A server that cannot keep up would make the backlog drain
 * for minutes: whatever is unanswered `graceSec` after the last due time is cut off and
 * counted at its age then (a lower bound).
 *
 * The client is as light as autocannon's (keep-alive sockets, requests pre-encoded, responses
 * framed by Content-Length): Node's http client costs several times more CPU per request, and
 * on a 2-core machine that CPU is taken from the server being measured.
 */
export async function runPaced(options: LoadOptions & { overallRate: number; graceSec?: number }): Promise<PacedFigures> {
  const target = new URL(options.url);
  const port = Number(target.port || 80);
  const headerLines = Object.entries({ host: target.host, ...options.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const encoded = options.paths.map((p) => Buffer.from(`GET ${p} HTTP/1.1\r\n${headerLines}\r\n`));
  const total = Math.max(1, Math.floor(options.overallRate * options.durationSec));
  const interval = 1000 / options.overallRate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let unfinished = 0;
  let completed = 0;
  let finished = 0;
  const logSlow = process.env.BENCH_SLOW_LOG === '1';
  const t0 = performance.now() + 20;

  interface Conn {
    socket: net.Socket;
    /** The request in flight (its index), or -1 when idle. */
    current: number;
    buffered: Buffer;
  }
  const idle: Conn[] = [];
  const waiting: number[] = [];
  const inFlight = new Set<number>();
  const sockets: net.Socket[] = [];

  await new Promise<void>((resolve) => {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      finished = performance.now();
      clearTimeout(cutoff);
      resolve();
    };
    const send = (conn: Conn, i: number) => {
      conn.current = i;
      inFlight.add(i);
      conn.socket.write(encoded[i % encoded.length] as Buffer);
    };
    const done = (conn: Conn, status: number) => {
      const i = conn.current;
      conn.current = -1;
      if (settled || !inFlight.delete(i)) return;
      if (status >= 200 && status < 300) {
        const latency = performance.now() - (t0 + i * interval);
        latencies.push(latency);
        if (latency > 50 && logSlow) log(`slow: request due at +${Math.round(i * interval)} ms took ${Math.round(latency)} ms`);
      }
      else non2xx += 1;
      completed += 1;
      const next = waiting.shift();
      if (next !== undefined) send(conn, next);
      else idle.push(conn);
      if (completed + unfinished === total) settle();
    };
    const onData = (conn: Conn, chunk: Buffer) => {
      conn.buffered = conn.buffered.length ? Buffer.concat([conn.buffered, chunk]) : chunk;
      for (;;) {
        const headEnd = conn.buffered.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        const head = conn.buffered.subarray(0, headEnd).toString('latin1');
        const status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (!length) {
          // Both servers frame every response by Content-Length; anything else is a failure.
          errors += 1;
          conn.socket.destroy();
          return;
        }
        const end = headEnd + 4 + Number(length[1]);
        if (conn.buffered.length < end) return;
        conn.buffered = conn.buffered.subarray(end);
        done(conn, status);
      }
    };
    for (let c = 0; c < options.connections; c++) {
      const socket = net.connect({ host: target.hostname, port, noDelay: true });
      const conn: Conn = { socket, current: -1, buffered: Buffer.alloc(0) };
      sockets.push(socket);
      socket.on('data', (chunk: Buffer) => onData(conn, chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        // A broken connection fails its request; the load goes on with the others.
        const i = conn.current;
        if (i !== -1 && inFlight.delete(i) && !settled) {
          errors += 1;
          completed += 1;
          if (completed + unfinished === total) settle();
        }
        const at = idle.indexOf(conn);
        if (at !== -1) idle.splice(at, 1);
      });
      socket.once('connect', () => {
        const queued = waiting.shift();
        if (queued !== undefined) send(conn, queued);
        else idle.push(conn);
      });
    }
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && t0 + next * interval <= now) {
        const conn = idle.pop();
        if (conn) send(conn, next);
        else waiting.push(next);
        next += 1;
      }
      if (next < total) setTimeout(tick, Math.max(0, t0 + next * interval - performance.now()));
    };
    setTimeout(tick, 20);
    const cutoff = setTimeout(
      () => {
        const now = performance.now();
        // Not yet sent, or sent and unanswered: both were due and are still waiting.
        for (let i = next; i < total; i++) waiting.push(i);
        next = total;
        for (const i of [...inFlight, ...waiting]) latencies.push(now - (t0 + i * interval));
        unfinished = inFlight.size + waiting.length;
        inFlight.clear();
        waiting.length = 0;
        settle();
      },
      options.durationSec * 1000 + 20 + (options.graceSec ?? 5) * 1000,
    );
  });
  for (const socket of sockets) socket.destroy();
  const durationSec = (finished - t0) / 1000;
  return {
    targetRate: options.overallRate,
    achievedRate: completed / durationSec,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    latencyMean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    requests: total,
    non2xx,
    errors,
    unfinished,
    durationSec,
  };
}

// ---------------------------------------------------------------------------------------
// Statistics and formatting
// ---------------------------------------------------------------------------------------

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Nearest-rank percentile of unsorted values (q in 0..1). */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export interface RunStats {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

/** Run `fn` `n` times (after `warmup` unmeasured runs) and summarise its wall time in ms. */
export async function medianOfRuns(n: number, fn: () => Promise<unknown>, options: { warmup?: number } = {}): Promise<RunStats> {
  for (let i = 0; i < (options.warmup ?? 0); i++) await fn();
  const runs: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    runs.push(performance.now() - started);
  }
  return { median: median(runs), min: Math.min(...runs), max: Math.max(...runs), runs };
}

export { markdownTable } from './publish';

export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}
