import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@/server/platform/ports';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);


/** `npm start` as a new user runs it: no DATABASE_URL, an empty DATA_DIR. */
async function startService(dataDir: string, port: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SKIP_BUILD: '1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.APP_SECRET;
  delete env.PUBLIC_BASE_URL;
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), 'scripts/start.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { stdout: () => stdout, stop };
}

describe('zero-setup start', () => {
  it('starts its own PostgreSQL, migrates, seeds, prints demo keys once, and keeps data across restarts', async () => {
    // mkdtemp makes a 0700 directory: as root, PostgreSQL (run as `postgres`) cannot enter it,
    // which exercises the fallback cluster location too.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-zero-'));
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const first = await startService(dataDir, port);
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const out = first.stdout();
      const testKey = /test key\s+(rt_test_\S+)/.exec(out)?.[1];
      const liveKey = /live key\s+(rt_live_\S+)/.exec(out)?.[1];
      expect(testKey).toBeDefined();
      expect(liveKey).toBeDefined();
      expect(out).toMatch(/console login\s+\S+@\S+ \/ \S+/);
      const styles = await fetch(`${base}/v1/styles`, { headers: { authorization: `Bearer ${testKey}` } });
      expect(styles.status).toBe(200);
      expect(((await styles.json()) as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(24);
      expect(fs.existsSync(path.join(dataDir, 'postgres.json'))).toBe(true);
      expect(await first.stop()).toBe(0);

      const second = await startService(dataDir, port);
      try {
        expect(second.stdout()).not.toContain('test key');
        const again = await fetch(`${base}/v1/generations`, { headers: { authorization: `Bearer ${liveKey}` } });
        expect(again.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop().catch(() => undefined);
    }
  }, 240_000);
});
