// @node-lines same: the first start's embedded PostgreSQL and demo data; the launcher's processes and signals run under both lines in test/worker.test.ts
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@/server/platform/ports';
import { startCommandArgs, TEST_NODE_FLAGS } from './start-server';

const root = path.resolve(import.meta.dirname, '..');


/** `npm start` as a new user runs it (with the tests' V8 flags, TEST_NODE_FLAGS): no DATABASE_URL, an empty DATA_DIR. */
async function startService(dataDir: string, port: number, extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SKIP_BUILD: '1', LOG_LEVEL: 'warn', ...extraEnv };
  delete env.DATABASE_URL;
  delete env.APP_SECRET;
  delete env.PUBLIC_BASE_URL;
  const child = spawn(process.execPath, startCommandArgs(TEST_NODE_FLAGS), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 90_000;
  while (!stdout.includes('Roomtone is up')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start failed:\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { stdout: () => stdout, stderr: () => stderr, pid: child.pid as number, stop };
}

/** GET on a connection of its own (no keep-alive), with a timeout. */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in 10 s`)));
    req.on('error', reject);
  });
}

/** Processes running scripts/start.mjs whose parent is `ppid` (from /proc). */
function startProcessesUnder(ppid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === ppid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('scripts/start.mjs')) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/**
 * One DATA_DIR for the file: the first test starts on it empty; the later ones start on what it
 * left (a second cluster's initdb, migrations and demo data would be the file's largest cost,
 * and not what they test). mkdtemp makes a 0700 directory: as root, PostgreSQL (run as
 * `postgres`) cannot enter it, which exercises the fallback cluster location too.
 */
let fileDataDir: string | undefined;
const dataDirOfFile = () => (fileDataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-zero-')));

/** The first start's demo live key: the restart below must still accept it (the data kept). */
let firstLiveKey: string | undefined;

describe('zero-setup start', () => {
  it('starts its own PostgreSQL, migrates, seeds and prints demo keys, with the default web processes', async () => {
    const dataDir = dataDirOfFile();
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const first = await startService(dataDir, port);
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const out = first.stdout();
      const testKey = /test key\s+(rt_test_\S+)/.exec(out)?.[1];
      firstLiveKey = /live key\s+(rt_live_\S+)/.exec(out)?.[1];
      expect(testKey).toBeDefined();
      expect(firstLiveKey).toBeDefined();
      expect(out).toMatch(/console login\s+\S+@\S+ \/ \S+/);
      // The default (WEB_PROCESSES=0): one web process per core but one, at least 1, at most 4.
      const webProcesses = Math.max(1, Math.min(4, os.availableParallelism() - 1));
      expect(out).toContain(`${webProcesses} web process${webProcesses > 1 ? 'es' : ''}`);
      if (process.platform === 'linux') {
        // The started process is the primary; the web processes are its children.
        expect(startProcessesUnder(first.pid)).toHaveLength(webProcesses);
      }
      const styles = await fetch(`${base}/v1/styles`, { headers: { authorization: `Bearer ${testKey}` } });
      expect(styles.status).toBe(200);
      expect(((await styles.json()) as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(24);
      expect(fs.existsSync(path.join(dataDir, 'postgres.json'))).toBe(true);
      expect(await first.stop()).toBe(0);
    } finally {
      await first.stop().catch(() => undefined);
    }
  }, 240_000);

  // The restart also runs two web processes (a start costs seconds of CPU: one start checks both).
  it('restarted on the same DATA_DIR: keeps its data, prints no demo keys again; its web processes run under a primary: one that dies is replaced, the service keeps answering, SIGTERM stops them all', async (ctx) => {
    expect(firstLiveKey, 'the first start (the test before) printed a live key').toBeDefined();
    const dataDir = dataDirOfFile();
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const service = await startService(dataDir, port, { WEB_PROCESSES: '2' });
    try {
      expect(service.stdout()).not.toContain('test key');
      const again = await fetch(`${base}/v1/generations`, { headers: { authorization: `Bearer ${firstLiveKey}` } });
      expect(again.status).toBe(200);
      expect(service.stdout()).toContain('2 web processes');
      if (process.platform !== 'linux') ctx.skip(`finds the web processes through /proc, which ${process.platform} has not`);
      const primary = service.pid;
      const web = startProcessesUnder(primary);
      expect(web).toHaveLength(2);

      process.kill(web[0]!, 'SIGKILL');
      const deadline = Date.now() + 60_000;
      let replaced: number[] = [];
      while (Date.now() < deadline) {
        replaced = startProcessesUnder(primary);
        if (replaced.length === 2 && !replaced.includes(web[0]!)) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(replaced).toHaveLength(2);
      expect(replaced).not.toContain(web[0]);
      expect(service.stderr()).toContain('web process died; starting a new one');
      // Both processes serve again: fresh connections (a client's connection to the killed
      // process is lost with it, as with any crash) all answer.
      for (let i = 0; i < 10; i++) expect(await statusOnNewConnection(`${base}/healthz`)).toBe(200);
      expect(await statusOnNewConnection(`${base}/v1/styles`)).toBe(401);

      expect(await service.stop()).toBe(0);
      expect(startProcessesUnder(primary)).toEqual([]);
    } finally {
      // Whatever failed above, leave no process behind.
      if (process.platform === 'linux') {
        for (const pid of [...startProcessesUnder(service.pid).flatMap((p) => [p, ...startProcessesUnder(p)])]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
      }
      await service.stop().catch(() => undefined);
    }
  }, 240_000);
});
