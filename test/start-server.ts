/**
 * The one way tests, the e2e and the benchmarks start a Roomtone process as a child: the
 * production server (`npm start`'s own node command, read from package.json, so flags and
 * loader are the ones users run) or any other node script (`roomtone worker`, a baseline
 * server), waited for until it is ready, its output kept for error reports, killed if the
 * parent exits without stopping it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { treeCpuMs } from './process-cpu';

const root = path.resolve(import.meta.dirname, '..');

export interface StartedProcess {
  name: string;
  pid: number;
  /** Base URL (servers only; '' for a worker). */
  url: string;
  /** The last `keepOutput` characters of stdout + stderr. */
  output(): string;
  alive(): boolean;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (SIGKILL after `stopTimeoutMs`), and the exit code. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** Names the process in errors. */
  name: string;
  /** Arguments to node; default: `npm start`'s (scripts/start.mjs), with `nodeFlags` first. */
  args?: string[];
  nodeFlags?: readonly string[];
  /** Working directory (default: this checkout). */
  cwd?: string;
  /** On top of this process's environment and of what `port` and `processes` set (so it can override PUBLIC_BASE_URL). */
  env?: Record<string, string>;
  /** Variables of this process's environment the child must not inherit (e.g. DATABASE_URL, for a zero-setup start). */
  unsetEnv?: string[];
  /** A server: listens on 127.0.0.1:port, is ready when GET `healthPath` answers 2xx. */
  port?: number;
  healthPath?: string;
  /**
   * Web processes of a Roomtone server (WEB_PROCESSES). Health answers once one listens; the
   * start banner comes when all of them (and the workers) are up, so that is waited for too.
   */
  processes?: number;
  /** Also ready only once the output satisfies this (default for Roomtone: its start banner). */
  ready?: (output: string) => boolean;
  /** How long to wait for ready (default 300 s: shared 2-core machines are slow). */
  timeoutMs?: number;
  /** How much output to keep (default 200 kB). */
  keepOutput?: number;
  /** Echo the child's output to stderr when this environment variable is '1' (e.g. TEST_SERVER_LOGS). */
  echoEnv?: string;
  stopTimeoutMs?: number;
}

/**
 * V8 flags of the short-lived Roomtone processes the vitest files start (the servers and workers
 * files start for themselves), on top of `npm start`'s own; the shared test server, the e2e and
 * the benchmarks run `npm start`'s flags alone. `--liftoff-only`: WebAssembly stays on V8's
 * baseline compiler. Prisma's query compiler and the migrations' schema engine are wasm, and
 * optimising their hot functions on background threads costs more CPU than it saves in a process
 * that serves one test file (docs/testing.md, "Shared resources").
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--liftoff-only'];

/** Banner line the launcher writes once every web process listens and the workers run. */
export const roomtoneIsUp = (output: string) => /Roomtone is up[^\n]*\n/.test(output);

/** `npm start`'s node arguments (package.json holds the production node flags), `extraFlags` first. */
export function startCommandArgs(extraFlags: readonly string[] = []): string[] {
  const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const [command, ...args] = (scripts.start ?? '').split(/\s+/).filter(Boolean);
  if (command !== 'node') throw new Error(`package.json "start" must be a plain node command, not: ${scripts.start}`);
  return [...extraFlags, ...args.map((arg) => (/\.m?[jt]s$/.test(arg) ? path.join(root, arg) : arg))];
}

const started = new Set<StartedProcess>();
process.once('exit', () => {
  for (const proc of started) if (proc.alive()) process.kill(proc.pid, 'SIGKILL');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** With TEST_PROCESS_LOG=<file>: a JSON line per event of a started process (how a run's starts and their CPU are counted). */
function logProcess(event: 'start' | 'ready' | 'stop', name: string, pid: number): void {
  const file = process.env.TEST_PROCESS_LOG;
  if (!file) return;
  // CPU-seconds of its process tree (its web processes, its embedded PostgreSQL) so far.
  const cpu = event === 'start' ? {} : { cpu: (treeCpuMs([pid])[0] ?? 0) / 1000 };
  fs.appendFileSync(file, `${JSON.stringify({ event, name, pid, caller: process.pid, at: Date.now(), ...cpu })}\n`);
}

/** Start the process and resolve once it is ready; on failure it is killed and the error carries its output. */
export async function startProcess(options: StartOptions): Promise<StartedProcess> {
  const server = options.port !== undefined;
  const url = server ? `http://127.0.0.1:${options.port}` : '';
  const roomtone = !options.args;
  const env: Record<string, string> = {
    ...(server ? { PORT: String(options.port), HOST: '127.0.0.1', PUBLIC_BASE_URL: url } : {}),
    ...(options.processes !== undefined ? { WEB_PROCESSES: String(options.processes) } : {}),
    ...options.env,
  };

  const inherited = { ...process.env };
  for (const name of options.unsetEnv ?? []) delete inherited[name];
  const child = spawn(process.execPath, options.args ?? startCommandArgs(options.nodeFlags), {
    cwd: options.cwd ?? root,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keepChars = options.keepOutput ?? 200_000;
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-keepChars);
    if (options.echoEnv && process.env[options.echoEnv] === '1') process.stderr.write(d);
  };
  logProcess('start', options.name, child.pid ?? 0);
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const proc: StartedProcess = {
    name: options.name,
    pid: child.pid ?? 0,
    url,
    output: () => output,
    alive,
    async kill() {
      if (alive()) logProcess('stop', options.name, child.pid ?? 0);
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!alive()) return child.exitCode;
      logProcess('stop', options.name, child.pid ?? 0);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  started.add(proc);
  void exited.then(() => started.delete(proc));

  const ready = options.ready ?? (roomtone ? roomtoneIsUp : () => true);
  const healthy = async () => {
    if (!server) return true;
    try {
      return (await fetch(`${url}${options.healthPath ?? '/healthz'}`)).ok;
    } catch {
      return false; // not listening yet
    }
  };
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  while (!(ready(output) && (await healthy()))) {
    if (!alive() || Date.now() > deadline) {
      const why = alive() ? `was not ready within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s` : `exited early with code ${child.exitCode ?? child.signalCode}`;
      await proc.kill();
      throw new Error(`${options.name} ${why}\n--- output ---\n${output.slice(-4000)}`);
    }
    await sleep(100);
  }
  logProcess('ready', options.name, proc.pid);
  return proc;
}
