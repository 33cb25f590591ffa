// @node-lines same: file modes the postgres user can reach and our restart backoff, not Node's code
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reachableByOthers } from './postgres-cluster';
import { restartDelayMs } from './embedded-postgres';

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-reach-'));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('where the postgres user can go', () => {
  it('a file under a 0700 directory is out of its reach; under 0755 directories it is not', () => {
    const open = path.join(base, 'open', 'bin');
    const closed = path.join(base, 'closed', 'bin');
    fs.mkdirSync(open, { recursive: true });
    fs.mkdirSync(closed, { recursive: true });
    fs.chmodSync(base, 0o755);
    fs.chmodSync(path.join(base, 'open'), 0o755);
    fs.chmodSync(open, 0o755);
    fs.chmodSync(path.join(base, 'closed'), 0o700);
    expect(reachableByOthers(path.join(closed, 'postgres'))).toBe(false);
    // The temp directory (/tmp, 1777) and its parents let others through.
    expect(reachableByOthers(path.join(open, 'postgres'))).toBe(true);
    fs.chmodSync(base, 0o700);
    expect(reachableByOthers(path.join(open, 'postgres'))).toBe(false);
  });
});

describe('restarts of the embedded PostgreSQL', () => {
  it('back off from 0.5 s, doubling, to at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(restartDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
