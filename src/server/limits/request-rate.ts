/**
 * Request rate limits (spec "Limits"): a one-minute window opened by the first request and
 * restarting from zero. In-process counters: exact for one web process; with several
 * instances each counts its own share (documented; a shared PostgreSQL/Redis counter is the
 * scale-out adapter).
 */
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window restarts (ceil, at least 1). */
  resetSeconds: number;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  hit(key: string, limit: number): RateDecision {
    const now = clock.nowMs();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
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

const globalLimiters = globalThis as unknown as { roomtoneIpLimiter?: FixedWindowLimiter; roomtoneOrgLimiter?: FixedWindowLimiter };
export const ipLimiter = (globalLimiters.roomtoneIpLimiter ??= new FixedWindowLimiter());
export const orgLimiter = (globalLimiters.roomtoneOrgLimiter ??= new FixedWindowLimiter());

export function perIpLimit(): number {
  return config().RATE_LIMIT_PER_IP_PER_MINUTE;
}
