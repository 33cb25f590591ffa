/**
 * One process's request-rate windows (spec "Limits": a one-minute window opened by the first
 * request, restarting from zero): exact counts per subject, and slices of a window's allowance
 * for the processes that count their own share (leased-limiter.ts).
 */
import { clock } from '@/server/platform/clock';

import type { LimiterName, RateDecision } from './rate-decision';

export type { LimiterName, RateDecision } from './rate-decision';

export interface LeaseRequest {
  limiter: LimiterName;
  key: string;
  /** Hits this process would like to be able to spend. */
  want: number;
  limit: number;
}

export interface Lease {
  /** Hits granted to the asking process (0: the window's allowance is spent). */
  granted: number;
  /** Hits granted in this window so far by the store, this lease included (all processes). */
  total: number;
  /** Milliseconds until the store's window ends, as the store saw it when it answered. */
  endsInMs: number;
  /**
   * When the store's window started, on the store's clock: tells a process whether a lease is of
   * the window it knows (the answer's transit time cannot, under load it can exceed a second).
   */
  windowStartMs: number;
}

/** Largest slice one lease takes, whatever the limit (bounds what one process can hold unspent). */
export const MAX_SLICE = 1000;

/**
 * What the store grants for `want` when `granted` of `limit` are already out: at most 1 % of
 * the limit (so below 200 a minute every hit is counted by the store, exactly), MAX_SLICE, and
 * a quarter of what is left (at least 1), so near the end of the allowance slices shrink.
 * PostgreSQL's statement (shared-counter.ts) computes the same.
 */
export function allowanceSlice(want: number, granted: number, limit: number): number {
  const left = limit - granted;
  if (left <= 0) return 0;
  return Math.min(Math.max(1, want), left, sliceCap(limit), Math.max(1, Math.ceil(left / 4)));
}

export function sliceCap(limit: number): number {
  return Math.min(MAX_SLICE, Math.max(1, Math.floor(limit / 100)));
}

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  count: number;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  hit(key: string, limit: number): RateDecision {
    const now = clock.nowMs();
    const window = this.window(key, now);
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
  }

  /** A slice of the window's allowance for a process that counts it itself (leased-limiter.ts). */
  lease(key: string, want: number, limit: number): Lease {
    const now = clock.nowMs();
    const window = this.window(key, now);
    const granted = allowanceSlice(want, window.count, limit);
    window.count += granted;
    return { granted, total: window.count, endsInMs: window.startedAt + WINDOW_MS - now, windowStartMs: window.startedAt };
  }

  private window(key: string, now: number): Window {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    return window;
  }

  /** Forget closed windows now and then so memory stays bounded by active clients. */
  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= WINDOW_MS) this.windows.delete(key);
    }
  }

  reset(): void {
    this.windows.clear();
  }
}
