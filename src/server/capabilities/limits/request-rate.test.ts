import { afterAll, afterEach, describe, expect, it } from 'vitest';
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { FixedWindowLimiter, SHARED_LIMITS_ENV, serveRateLimits, type RateDecision } from './request-rate';
import { clock } from '@/server/platform/clock';

interface Report {
  decisions: RateDecision[];
  ms: number;
}

let worker: Worker | null = null;
let other: Worker | null = null;
/** The web process the primary answers, shared by the tests that use it (each on its own key): a fork costs more than the test. */
let answered: Promise<Worker> | null = null;

afterEach(() => {
  worker?.kill();
  other?.kill();
  worker = other = null;
});

afterAll(async () => {
  (await answered)?.kill();
});

/** A web process as `npm start` forks it (counters in the primary: this test process). */
async function webProcess(answer: boolean): Promise<Worker> {
  cluster.setupPrimary({ exec: path.join(import.meta.dirname, 'ipc-hits.fixture.ts'), execArgv: ['--import', 'tsx'], silent: false });
  const forked = cluster.fork({ [SHARED_LIMITS_ENV]: '1', RATE_LIMIT_IPC_TIMEOUT_MS: '300', RATE_LIMIT_STORE: 'memory', LOG_LEVEL: 'silent' });
  if (answer) serveRateLimits(forked);
  await new Promise<void>((resolve) => forked.once('message', () => resolve()));
  return forked;
}

function ask(w: Worker, hits: number, limit: number, options: { key?: string; blockMs?: number } = {}): Promise<Report> {
  return new Promise((resolve) => {
    // The web process also sends its hits to the primary on this channel: wait for the report.
    const onMessage = (message: Report | { roomtone: string }) => {
      if (!('decisions' in message)) return;
      w.off('message', onMessage);
      resolve(message);
    };
    w.on('message', onMessage);
    w.send({ hits, limit, key: options.key ?? '198.51.100.7', blockMs: options.blockMs });
  });
}

describe('request-rate counters over IPC (several web processes)', () => {
  it("the primary's answers: exact counts across the hits", async () => {
    const { decisions } = await ask(await (answered ??= webProcess(true)), 12, 10);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(decisions.map((d) => d.remaining).slice(0, 10)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(decisions.slice(10).every((d) => !d.allowed)).toBe(true);
  });

  it('an answer that waits unread while the web process is blocked past the timeout is used, not lost', async () => {
    const key = '198.51.100.8';
    const { decisions } = await ask(await (answered ??= webProcess(true)), 12, 10, { key, blockMs: 600 });
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    // Every allowed hit was granted by the primary (this process): its window is spent, and a
    // second web process is refused. Had the late answer been dropped, the first would have
    // counted on its own and the primary would still have allowance to lease.
    other = await webProcess(true);
    const second = await ask(other, 1, 10, { key });
    expect(second.decisions[0]).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('a primary that stops answering: each hit is counted in the web process after the timeout (no hang)', async () => {
    worker = await webProcess(false);
    const first = await ask(worker, 12, 10);
    // Counted locally, still exactly: the fallback enforces the limit on this process's share.
    expect(first.decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(first.decisions.slice(10).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    const second = await ask(worker, 1, 10);
    expect(second.decisions[0]).toMatchObject({ allowed: false, limit: 10, remaining: 0 });
    // The fallback waited for the timeout (300 ms) rather than answering without asking.
    expect(first.ms).toBeGreaterThanOrEqual(290);
  });
});

describe('FixedWindowLimiter', () => {
  afterEach(() => clock.reset());

  it('a window opened by the first hit, restarting from zero after a minute', () => {
    clock.set(new Date(Date.UTC(2026, 0, 1)));
    const limiter = new FixedWindowLimiter();
    expect(limiter.hit('k', 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
    clock.advance(30_000);
    expect(limiter.hit('k', 2)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 30 });
    expect(limiter.hit('k', 2)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
    clock.advance(30_000);
    expect(limiter.hit('k', 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });
});
