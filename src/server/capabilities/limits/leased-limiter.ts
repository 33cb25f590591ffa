/**
 * Shared request limits without a round trip per request: each process leases slices of a
 * window's allowance from the shared store (the primary's counters over IPC, or PostgreSQL)
 * and spends them locally. The store counts what it grants, never more than the limit, so
 * every allowed hit is backed by a grant: a subject is never allowed more than its limit in a
 * window, whatever the number of processes or instances.
 *
 * The price of a lease per slice instead of a count per hit: a slice granted to one process
 * and not spent there is not available to the others until the window restarts, so a subject
 * may be refused slightly early. A slice is what the process spends in about LEASE_TARGET_MS
 * at its current rate, and the store grants at most 1 % of the limit (allowanceSlice), so the
 * early refusals are bounded by what the other processes hold: at most 1.25 % of the limit per
 * other process, none below 200 a minute, where every hit is counted by the store
 * (docs/operations.md, "Limits").
 *
 * A slice of 4 or more is renewed before it is spent (when a quarter of it is left), so a
 * steady client never waits for the store; hits that arrive while a lease is on its way wait
 * for it. If the store fails or does not answer, the waiting hits are counted in this process
 * alone (`fallback`): the limits then hold per process rather than not at all.
 */
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { MAX_SLICE, type FixedWindowLimiter, type Lease, type LeaseRequest, type LimiterName, type RateDecision } from './fixed-window';

export { MAX_SLICE };

/** A process asks for enough to last it about this long at its current rate. */
export const LEASE_TARGET_MS = 1000;

/** The store's side: answers a batch of lease requests (one IPC message or one statement). */
export type LeaseSource = (requests: LeaseRequest[]) => Promise<Lease[]>;

interface Slot {
  limiter: LimiterName;
  key: string;
  limit: number;
  /** Granted to this process and not spent yet. */
  available: number;
  /** What the store still had after the last lease (limit − total). */
  storeLeft: number;
  /** Local clock time at which the store's window ends (0: no window yet). */
  endsAt: number;
  /** The store's start of the window this process's slice belongs to (0: none yet). */
  windowStartMs: number;
  /** The store answered 0: refuse until the window ends. */
  exhausted: boolean;
  leasing: boolean;
  waiters: ((decision: RateDecision) => void)[];
  lastSlice: number;
  /** When the last lease arrived and the hits spent since: the rate that sizes the next slice. */
  leasedAt: number;
  spentSinceLease: number;
}

export class LeasedLimiter {
  private readonly slots = new Map<string, Slot>();
  private queued: { slot: Slot; want: number }[] = [];
  private lastSweep = 0;
  private lastFallbackWarning = 0;

  constructor(
    private readonly source: LeaseSource,
    /** Counts hits in this process alone when the store fails (one per limiter name). */
    private readonly fallback: Record<LimiterName, FixedWindowLimiter>,
    private readonly storeName: string,
  ) {}

  hit(limiter: LimiterName, key: string, limit: number): RateDecision | Promise<RateDecision> {
    const now = clock.nowMs();
    this.sweep(now);
    const subject = `${limiter}:${key}`;
    let slot = this.slots.get(subject);
    if (!slot) {
      slot = { limiter, key, limit, available: 0, storeLeft: limit, endsAt: 0, windowStartMs: 0, exhausted: false, leasing: false, waiters: [], lastSlice: 0, leasedAt: now, spentSinceLease: 0 };
      this.slots.set(subject, slot);
    }
    if (slot.limit !== limit) {
      // A tier change: the store applies the new limit from the next lease.
      slot.storeLeft += limit - slot.limit;
      slot.limit = limit;
    }
    if (slot.endsAt !== 0 && now >= slot.endsAt) this.closeWindow(slot);
    if (slot.waiters.length === 0 && slot.available > 0) {
      slot.available -= 1;
      slot.spentSinceLease += 1;
      // Ask for the next slice before this one is spent: a steady client never waits.
      // (Slices under 4 are not: a process would hold hits the others may need.)
      if (!slot.leasing && !slot.exhausted && slot.lastSlice >= 4 && slot.available <= slot.lastSlice / 4) this.requestLease(slot, now);
      return this.allowed(slot, now);
    }
    if (slot.exhausted) return this.refused(slot, now);
    return new Promise((resolve) => {
      slot.waiters.push(resolve);
      if (!slot.leasing) this.requestLease(slot, now);
    });
  }

  /** Forget everything (tests). */
  reset(): void {
    this.slots.clear();
  }

  private allowed(slot: Slot, now: number): RateDecision {
    return { allowed: true, limit: slot.limit, remaining: Math.max(0, slot.storeLeft + slot.available), resetSeconds: resetSeconds(slot, now) };
  }

  private refused(slot: Slot, now: number): RateDecision {
    return { allowed: false, limit: slot.limit, remaining: 0, resetSeconds: resetSeconds(slot, now) };
  }

  private closeWindow(slot: Slot): void {
    // What was left of the old window's slice is not the new window's.
    slot.available = 0;
    slot.exhausted = false;
    slot.storeLeft = slot.limit;
    slot.endsAt = 0;
    slot.windowStartMs = 0;
  }

  private requestLease(slot: Slot, now: number): void {
    slot.leasing = true;
    const elapsed = Math.max(10, now - slot.leasedAt);
    const atRate = Math.ceil((slot.spentSinceLease * LEASE_TARGET_MS) / elapsed);
    const want = Math.min(MAX_SLICE, Math.max(1, slot.waiters.length, atRate));
    if (this.queued.push({ slot, want }) === 1) setImmediate(() => void this.flush());
  }

  /** The lease requests of one event-loop turn go to the store together. */
  private async flush(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    let leases: Lease[];
    try {
      leases = await this.source(batch.map(({ slot, want }) => ({ limiter: slot.limiter, key: slot.key, want, limit: slot.limit })));
    } catch (error) {
      for (const { slot } of batch) this.countLocally(slot, String(error));
      return;
    }
    const now = clock.nowMs();
    batch.forEach(({ slot }, i) => {
      const lease = leases[i];
      if (lease) this.apply(slot, lease, now);
      else this.countLocally(slot, 'no answer for this subject');
    });
  }

  private apply(slot: Slot, lease: Lease, now: number): void {
    slot.leasing = false;
    // A lease of a window that started after the one this process knew: the old slice is void.
    // (Told by the store's start of the window, not by when the answer arrived: a loaded
    // machine can delay one answer by more than a second, and a slice voided by mistake is
    // allowance no process can spend in this window.)
    if (lease.windowStartMs !== slot.windowStartMs) slot.available = 0;
    slot.windowStartMs = lease.windowStartMs;
    slot.endsAt = now + lease.endsInMs;
    slot.available += lease.granted;
    slot.storeLeft = Math.max(0, slot.limit - lease.total);
    // Nothing granted: once this process's slice is spent, refuse without asking until the window ends.
    slot.exhausted = lease.granted === 0;
    slot.lastSlice = lease.granted;
    slot.leasedAt = now;
    slot.spentSinceLease = 0;
    const waiters = slot.waiters;
    slot.waiters = [];
    let served = 0;
    for (; served < waiters.length && slot.available > 0; served++) {
      slot.available -= 1;
      slot.spentSinceLease += 1;
      waiters[served]?.(this.allowed(slot, now));
    }
    const rest = waiters.slice(served);
    if (rest.length === 0) return;
    if (slot.exhausted) {
      for (const resolve of rest) resolve(this.refused(slot, now));
      return;
    }
    // More hits waited than the slice covered: they wait for the next one.
    slot.waiters = rest;
    this.requestLease(slot, now);
  }

  /** The store failed or did not answer: the waiting hits are counted in this process alone. */
  private countLocally(slot: Slot, reason: string): void {
    slot.leasing = false;
    const waiters = slot.waiters;
    slot.waiters = [];
    for (const resolve of waiters) resolve(this.fallback[slot.limiter].hit(slot.key, slot.limit));
    const now = clock.nowMs();
    if (waiters.length > 0 && now - this.lastFallbackWarning > 60_000) {
      this.lastFallbackWarning = now;
      log.warn('rate-limit counters: counting in this process', { store: this.storeName, reason, hits: waiters.length });
    }
  }

  /** Forget subjects whose window ended a minute ago, so memory stays bounded by active clients. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [subject, slot] of this.slots) {
      if (!slot.leasing && slot.waiters.length === 0 && (slot.endsAt === 0 || now - slot.endsAt >= 60_000)) this.slots.delete(subject);
    }
  }
}

function resetSeconds(slot: Slot, now: number): number {
  return Math.max(1, Math.ceil((slot.endsAt - now) / 1000));
}
