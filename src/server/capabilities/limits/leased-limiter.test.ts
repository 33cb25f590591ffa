// @node-lines same: our leasing arithmetic against an in-process store; the IPC between processes runs under both lines in src/server/capabilities/limits/request-rate.test.ts
import { afterEach, describe, expect, it } from 'vitest';
import { clock } from '@/server/platform/clock';
import { FixedWindowLimiter, sliceCap, type LeaseRequest, type RateDecision } from './fixed-window';
import { LeasedLimiter, MAX_SLICE, type LeaseSource } from './leased-limiter';

/** A shared store (the primary's counters) and the lease round trips made to it. */
function sharedStore() {
  const store = { ip: new FixedWindowLimiter(), org: new FixedWindowLimiter(), key: new FixedWindowLimiter() };
  const calls: LeaseRequest[][] = [];
  const source: LeaseSource = async (requests) => {
    calls.push(requests);
    return requests.map((r) => store[r.limiter].lease(r.key, r.want, r.limit));
  };
  return { store, calls, source };
}

function processOf(source: LeaseSource): LeasedLimiter {
  return new LeasedLimiter(source, { ip: new FixedWindowLimiter(), org: new FixedWindowLimiter(), key: new FixedWindowLimiter() }, 'test');
}

const allowedOf = (decisions: RateDecision[]) => decisions.filter((d) => d.allowed).length;

afterEach(() => clock.reset());

describe('LeasedLimiter', () => {
  it('one process counts exactly: the limit, and each remaining value once', async () => {
    const { source } = sharedStore();
    const limiter = processOf(source);
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.hit('ip', '198.51.100.7', 10)));
    expect(allowedOf(decisions)).toBe(10);
    expect(decisions.slice(0, 10).map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(decisions.slice(10).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
  });

  it('several processes never allow more than the limit between them, and refuse only once the store has granted all of it', async () => {
    const { store, source } = sharedStore();
    const processes = [processOf(source), processOf(source), processOf(source)];
    const decisions: RateDecision[] = [];
    // Waves of concurrent hits from every process, as web processes under load send them.
    for (let wave = 0; wave < 40; wave++) {
      const hits = processes.flatMap((p, i) => Array.from({ length: 5 + i * 3 }, () => p.hit('ip', 'shared', 600)));
      decisions.push(...(await Promise.all(hits)));
    }
    const allowed = allowedOf(decisions);
    expect(decisions.length).toBeGreaterThan(600);
    expect(allowed).toBeLessThanOrEqual(600);
    // The store is empty: every refusal came after the last slice was handed out.
    expect(store.ip.lease('shared', 1, 600).granted).toBe(0);
    // What the processes hold unspent is about their last slice each: 1 % of the limit, a quarter more while renewing.
    expect(allowed).toBeGreaterThanOrEqual(600 - 3 * 1.25 * sliceCap(600));
  });

  it('a steady client does not make a round trip per request: slices grow with its rate and are renewed before they run out', async () => {
    const { source, calls } = sharedStore();
    const limiter = processOf(source);
    let synchronous = 0;
    for (let turn = 0; turn < 200; turn++) {
      const hits = Array.from({ length: 20 }, () => limiter.hit('org', 'org_busy', 10_000_000));
      synchronous += hits.filter((h) => !(h instanceof Promise)).length;
      const decisions = await Promise.all(hits);
      expect(decisions.every((d) => d.allowed)).toBe(true);
      // The next requests arrive in a later turn of the event loop, as from sockets.
      await new Promise((resolve) => setImmediate(resolve));
      clock.advance(5);
    }
    expect(calls.length).toBeLessThan(20); // 4,000 hits
    // Only the first turns wait (the first slices are small: the rate is not known yet).
    expect(synchronous).toBeGreaterThan(3_900);
    expect(Math.max(...calls.flat().map((r) => r.want))).toBeLessThanOrEqual(MAX_SLICE);
  });

  it('a process that goes idle holds at most about one slice: the others are refused no earlier than the limit minus that', async () => {
    const { source } = sharedStore();
    const idle = processOf(source);
    const busy = processOf(source);
    // A burst, then nothing more from this process.
    const burst = await Promise.all(Array.from({ length: 30 }, () => idle.hit('ip', 'k', 1000)));
    expect(allowedOf(burst)).toBe(30);
    let allowed = 0;
    for (let i = 0; i < 1200; i++) if ((await busy.hit('ip', 'k', 1000)).allowed) allowed += 1;
    expect(allowed).toBeLessThanOrEqual(1000 - 30);
    expect(allowed).toBeGreaterThanOrEqual(1000 - 30 - 1.25 * sliceCap(1000));
  });

  it('below 200 a minute every hit is counted by the store: two processes allow exactly the limit', async () => {
    const { source } = sharedStore();
    const a = processOf(source);
    const b = processOf(source);
    const decisions = await Promise.all(Array.from({ length: 130 }, (_, i) => (i % 3 === 0 ? a : b).hit('org', 'org_tier1', 120)));
    expect(allowedOf(decisions)).toBe(120);
    expect(await a.hit('org', 'org_tier1', 120)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await b.hit('org', 'org_tier1', 120)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('the window restarts a minute after the first lease: what was left of a slice is not carried over', async () => {
    clock.set(new Date(Date.UTC(2026, 0, 1)));
    const { source } = sharedStore();
    const limiter = processOf(source);
    const first = await Promise.all(Array.from({ length: 4 }, () => limiter.hit('ip', 'k', 3)));
    expect(first.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(first[3]).toMatchObject({ resetSeconds: 60 });
    clock.advance(30_000);
    expect(await limiter.hit('ip', 'k', 3)).toMatchObject({ allowed: false, resetSeconds: 30 });
    clock.advance(30_000);
    expect(await limiter.hit('ip', 'k', 3)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('an answer delayed by more than a second keeps the slice: one process still spends the whole limit', async () => {
    clock.set(new Date(Date.UTC(2026, 0, 1)));
    const { source } = sharedStore();
    let leases = 0;
    // Every third answer spends 1.5 s in transit (a loaded machine): it arrives later than the
    // others, but is of the same window.
    const slow: LeaseSource = async (requests) => {
      const answers = await source(requests);
      if (++leases % 3 === 0) clock.advance(1500);
      return answers;
    };
    const limiter = processOf(slow);
    let allowed = 0;
    for (let i = 0; i < 1100; i++) {
      if ((await limiter.hit('ip', 'k', 1000)).allowed) allowed += 1;
      // Requests arrive in later turns of the event loop: a slice is renewed before it is spent.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(leases).toBeGreaterThan(30);
    expect(allowed).toBe(1000);
  });

  it('a store that fails: the waiting hits are counted in the process alone (still within the limit there)', async () => {
    const limiter = processOf(async () => {
      throw new Error('connection refused');
    });
    const decisions = await Promise.all(Array.from({ length: 7 }, () => limiter.hit('ip', 'k', 5)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
  });
});
