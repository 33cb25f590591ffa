import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { ephemeralRange, freePort, lockFirstFree, reservableBand, sweepStaleLocks } from '@/server/platform/ports';

const require = createRequire(import.meta.url);
const lockDir = path.join(os.tmpdir(), 'roomtone-ports');

describe('ephemeralRange and reservableBand', () => {
  it('reads the kernel range and reserves the band just below it', () => {
    expect(ephemeralRange(() => '32768\t60999\n')).toEqual([32768, 60999]);
    expect(reservableBand([32768, 60999])).toEqual([24576, 32767]);
    expect(reservableBand([10000, 65535])).toEqual([1808, 9999]);
  });

  it('falls back to the Linux default when procfs cannot be read or makes no sense', () => {
    expect(ephemeralRange(() => { throw new Error('ENOENT'); })).toEqual([32768, 60999]);
    expect(ephemeralRange(() => 'garbage')).toEqual([32768, 60999]);
    expect(ephemeralRange(() => '50000 40000')).toEqual([32768, 60999]);
  });

  it('leaves no band when the ephemeral range starts too low (the kernel then picks)', () => {
    expect(reservableBand([1500, 65535])).toBeNull();
  });
});

describe('freePort', () => {
  it('gives a bindable port below the ephemeral range, locked by this process', async () => {
    const [low] = ephemeralRange();
    const port = await freePort();
    expect(port).toBeLessThan(low);
    expect(fs.readFileSync(path.join(lockDir, String(port)), 'utf8')).toBe(String(process.pid));
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((r) => server.close(r));
  });

  it('never gives two live processes the same port', async () => {
    // Another process takes 200 ports and stays alive while this one takes 200 more. The script
    // is .mts: ESM (top-level await) whatever the temp directory's package.json says, or lacks.
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-ports-test-')), 'pick.mts');
    fs.writeFileSync(
      script,
      `import { freePort } from ${JSON.stringify(path.resolve('src/server/platform/ports.ts'))};
      const ports: number[] = [];
      for (let i = 0; i < 200; i++) ports.push(await freePort());
      console.log(JSON.stringify(ports));
      setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, [require.resolve('tsx/cli'), script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const theirs = await new Promise<number[]>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(JSON.parse(out) as number[]);
        });
        child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
      });
      const ours: number[] = [];
      for (let i = 0; i < 200; i++) ours.push(await freePort());
      expect(new Set(theirs).size).toBe(200);
      expect(new Set(ours).size).toBe(200);
      expect(ours.filter((p) => theirs.includes(p))).toEqual([]);
    } finally {
      child.kill();
      fs.rmSync(path.dirname(script), { recursive: true, force: true });
    }
  });

  it('takes over the lock of an exited process, skips a port someone else listens on and one a live process holds', async () => {
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    const [foreign, stale, held] = [await freePort(), await freePort(), await freePort()];
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(foreign, '127.0.0.1', resolve));
    fs.rmSync(path.join(lockDir, String(foreign)));
    fs.writeFileSync(path.join(lockDir, String(stale)), String(deadPid));
    try {
      expect(await lockFirstFree([foreign, held, stale])).toBe(stale);
      expect(fs.readFileSync(path.join(lockDir, String(stale)), 'utf8')).toBe(String(process.pid));
      expect(fs.existsSync(path.join(lockDir, String(foreign)))).toBe(false);
      expect(await lockFirstFree([foreign, held])).toBeNull();
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('sweeps the locks of exited processes and keeps live and just-created ones', async () => {
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    const [dead, live, fresh] = [await freePort(), await freePort(), await freePort()];
    fs.writeFileSync(path.join(lockDir, String(dead)), String(deadPid));
    fs.writeFileSync(path.join(lockDir, String(fresh)), '');
    sweepStaleLocks();
    expect(fs.existsSync(path.join(lockDir, String(dead)))).toBe(false);
    expect(fs.readFileSync(path.join(lockDir, String(live)), 'utf8')).toBe(String(process.pid));
    expect(fs.existsSync(path.join(lockDir, String(fresh)))).toBe(true);
    fs.rmSync(path.join(lockDir, String(fresh)));
  });
});
