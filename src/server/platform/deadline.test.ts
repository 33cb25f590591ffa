import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { deadline, sleep, timeoutSignal } from './deadline';

// A full garbage collection on demand, without starting the process with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resolves true when `signal` fires within `ms`, collecting garbage every 5 ms meanwhile. */
function firesUnderGc(signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const collecting = setInterval(gc, 5);
    const give = setTimeout(() => finish(false), ms);
    const finish = (fired: boolean) => {
      clearInterval(collecting);
      clearTimeout(give);
      resolve(fired);
    };
    signal.addEventListener('abort', () => finish(true), { once: true });
  });
}

describe('deadline', () => {
  it('fires at its time while garbage is collected, when only the combined signal is referenced', async () => {
    const stop = new AbortController();
    // Nothing but the returned signal is kept: the case where Node 20's AbortSignal.any lost its timeout.
    const { signal } = deadline(100, [stop.signal]);
    const started = Date.now();
    expect(await firesUnderGc(signal, 5_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(99);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('fires with the source\'s reason when a source fires first', async () => {
    const stop = new AbortController();
    const d = deadline(60_000, [stop.signal]);
    setTimeout(() => stop.abort(new Error('stopping')), 20);
    expect(await firesUnderGc(d.signal, 5_000)).toBe(true);
    expect((d.signal.reason as Error).message).toBe('stopping');
    expect(d.remainingMs()).toBeGreaterThan(50_000);
  });

  it('is aborted at once when a source already is', () => {
    const stop = new AbortController();
    stop.abort('gone');
    expect(deadline(60_000, [stop.signal]).signal.reason).toBe('gone');
  });

  it('uses the given reason at the timer', async () => {
    const d = deadline(10, [], { reason: () => new Error('own timeout') });
    expect(await firesUnderGc(d.signal, 5_000)).toBe(true);
    expect((d.signal.reason as Error).message).toBe('own timeout');
  });

  it('lets go of its sources when disposed, and then never fires', async () => {
    const stop = new AbortController();
    const d = deadline(30, [stop.signal]);
    d.dispose();
    stop.abort();
    expect(await firesUnderGc(d.signal, 200)).toBe(false);
  });

  it('has no timer without a time: remaining time is Infinity', () => {
    const d = deadline(null, []);
    expect(d.at).toBe(Infinity);
    expect(d.remainingMs()).toBe(Infinity);
  });
});

describe('timeoutSignal', () => {
  it('fires under garbage collection with nothing holding it but a listener-free reference', async () => {
    expect(await firesUnderGc(timeoutSignal(50), 5_000)).toBe(true);
  });
});

describe('sleep', () => {
  it('waits its time, or ends early when the signal fires', async () => {
    let started = Date.now();
    await sleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(29);
    const stop = new AbortController();
    started = Date.now();
    setTimeout(() => stop.abort(), 10);
    await sleep(60_000, stop.signal);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
