// @node-lines same: our timing emulation's rules; timers and AbortSignal run under both lines in src/server/platform/deadline.test.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfigCache } from '@/server/platform/config';
import { engine, type Engine } from './engine';
import { withMinimumDuration, withOrganizationHolds } from './emulated-timing';
import { runEngine, type EngineJob, type EngineOutput } from './run';

const output: EngineOutput = { bytes: Buffer.from([1]), contentType: 'image/png', width: 1, height: 1, method: 'probe' };
const job = (costClass: EngineJob['costClass'], organizationId = 'org_1'): EngineJob => ({ generationId: 'gen_1', organizationId, type: 'upscale', mode: 'test', input: {} as EngineJob['input'], images: new Map(), seed: 's', materials: new Map(), costClass });

/** Whether `promise` has settled after the fake clock moved `ms` on. */
async function settledAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('withMinimumDuration (the timing emulation of tests and benchmarks)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('holds a fast run until its floor, then answers the engine output', async () => {
    const slow = withMinimumDuration(async () => output, { floorMs: 1000, heavyFloorMs: 0 });
    const run = slow(job('light'));
    expect(await settledAfter(run, 999)).toBe(false);
    expect(await settledAfter(run, 1)).toBe(true);
    expect(await run).toBe(output);
  });

  it('heavy runs take the heavy floor when it is set; other runs the common one', async () => {
    const slow = withMinimumDuration(async () => output, { floorMs: 100, heavyFloorMs: 5000 });
    const heavy = slow(job('heavy'));
    const light = slow(job('light'));
    expect(await settledAfter(light, 100)).toBe(true);
    expect(await settledAfter(heavy, 4800)).toBe(false);
    expect(await settledAfter(heavy, 100)).toBe(true);
  });

  it('adds nothing to a run that already took longer than the floor', async () => {
    const inner: Engine = () => new Promise((resolve) => setTimeout(() => resolve(output), 2000));
    const run = withMinimumDuration(inner, { floorMs: 500, heavyFloorMs: 0 })(job('light'));
    expect(await settledAfter(run, 2000)).toBe(true);
  });
});

describe('withOrganizationHolds (tests that need a generation to stay in progress)', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-holds-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** 'held' when the run has not ended within a bounded wait: it can only be 'ended' when the hold is broken. */
  const stateAfterAWhile = (run: Promise<unknown>) => Promise.race([run.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('held'), 150))]);

  it('runs an organization without a hold at once, and holds a held one until its file is removed', async () => {
    fs.writeFileSync(path.join(dir, 'org_held'), '600000');
    const held = withOrganizationHolds(async () => output, dir);
    expect(await held(job('light', 'org_free'))).toBe(output);
    const run = held(job('light', 'org_held'));
    expect(await stateAfterAWhile(run)).toBe('held');
    fs.rmSync(path.join(dir, 'org_held'));
    expect(await run).toBe(output);
  });

  it('ends the hold after its milliseconds when the file stays, read again while held', async () => {
    fs.writeFileSync(path.join(dir, 'org_short'), '30');
    expect(await withOrganizationHolds(async () => output, dir)(job('heavy', 'org_short'))).toBe(output);
    fs.writeFileSync(path.join(dir, 'org_short'), '600000');
    const run = withOrganizationHolds(async () => output, dir)(job('heavy', 'org_short'));
    expect(await stateAfterAWhile(run)).toBe('held');
    fs.writeFileSync(path.join(dir, 'org_short'), '1');
    expect(await run).toBe(output);
  });
});

describe('engine()', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfigCache();
  });

  it('is the plain engine unless a minimum duration or a folder of holds is configured', () => {
    delete process.env.BUILTIN_ENGINE_MIN_DURATION_MS;
    delete process.env.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS;
    delete process.env.BUILTIN_ENGINE_HOLDS_DIR;
    resetConfigCache();
    expect(engine()).toBe(runEngine);
    process.env.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS = '3000';
    resetConfigCache();
    expect(engine()).not.toBe(runEngine);
    delete process.env.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS;
    process.env.BUILTIN_ENGINE_HOLDS_DIR = os.tmpdir();
    resetConfigCache();
    expect(engine()).not.toBe(runEngine);
  });
});
