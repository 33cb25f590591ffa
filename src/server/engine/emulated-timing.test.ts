import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetConfigCache } from '@/server/platform/config';
import { engine, type Engine } from './engine';
import { HOLD_POLL_MS, withHolds, withMinimumDuration } from './emulated-timing';
import { runEngine, type EngineJob, type EngineOutput } from './run';

const output: EngineOutput = { bytes: Buffer.from([1]), contentType: 'image/png', width: 1, height: 1, method: 'probe' };
const job = (costClass: EngineJob['costClass'], organizationId = 'org_a'): EngineJob => ({ generationId: 'gen_1', organizationId, type: 'upscale', mode: 'test', input: {} as EngineJob['input'], images: new Map(), seed: 's', materials: new Map(), costClass });

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

describe('withHolds (the e2e holds an organization\'s runs to keep a generation queued)', () => {
  let holdDir: string;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    holdDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-holds-'));
  });
  afterEach(() => {
    vi.useRealTimers();
    fs.rmSync(holdDir, { recursive: true, force: true });
  });

  it('holds the runs of an organization while its file exists, not the others; runs them once it is deleted', async () => {
    const engine = vi.fn(async () => output);
    const held = withHolds(engine, holdDir);
    fs.writeFileSync(path.join(holdDir, 'org_a'), '');
    const a = held(job('light', 'org_a'));
    const b = held(job('light', 'org_b'));
    expect(await settledAfter(b, 0)).toBe(true);
    expect(await settledAfter(a, 60_000)).toBe(false);
    expect(engine).toHaveBeenCalledTimes(1); // org_b's run only: a held run has not started the engine
    fs.rmSync(path.join(holdDir, 'org_a'));
    expect(await settledAfter(a, HOLD_POLL_MS)).toBe(true);
    expect(await a).toBe(output);
    expect(engine).toHaveBeenCalledTimes(2);
  });

  it('a hold file cannot name a path outside the directory', async () => {
    fs.writeFileSync(path.join(holdDir, 'x'), '');
    const run = withHolds(async () => output, holdDir)(job('light', '../x'));
    expect(await settledAfter(run, 0)).toBe(false);
    fs.rmSync(path.join(holdDir, 'x'));
    expect(await settledAfter(run, HOLD_POLL_MS)).toBe(true);
  });
});

describe('engine()', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfigCache();
  });

  /** The engine of a process started with these settings (the others unset). */
  function engineWith(env: { BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS?: string; BUILTIN_ENGINE_HOLD_DIR?: string }): Engine {
    delete process.env.BUILTIN_ENGINE_MIN_DURATION_MS;
    delete process.env.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS;
    delete process.env.BUILTIN_ENGINE_HOLD_DIR;
    Object.assign(process.env, env);
    resetConfigCache();
    return engine();
  }

  it('is the plain engine unless a minimum duration is configured', () => {
    expect(engineWith({})).toBe(runEngine);
    expect(engineWith({ BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS: '3000' })).not.toBe(runEngine);
  });

  it('holds nothing unless BUILTIN_ENGINE_HOLD_DIR is set (it is unset in production)', () => {
    expect(engineWith({ BUILTIN_ENGINE_HOLD_DIR: '' })).toBe(runEngine);
    expect(engineWith({ BUILTIN_ENGINE_HOLD_DIR: os.tmpdir() })).not.toBe(runEngine);
  });
});
