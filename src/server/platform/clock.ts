/**
 * The one clock. Retention, quotas, signatures, URL expiry and retries read it, so tests
 * (and `roomtone maintenance run --now`) can move time without sleeping.
 */
let offsetMs = 0;
let frozenAt: number | null = null;

export const clock = {
  /** Milliseconds since the epoch. */
  nowMs(): number {
    return frozenAt ?? Date.now() + offsetMs;
  },
  now(): Date {
    return new Date(clock.nowMs());
  },
  /** Unix seconds, the unit of every date in the API. */
  nowSeconds(): number {
    return Math.floor(clock.nowMs() / 1000);
  },
  /** Test/ops hook: pretend it is `at` from now on (frozen). `null` returns to real time. */
  set(at: Date | null): void {
    frozenAt = at ? at.getTime() : null;
  },
  /** Test hook: move real time by `ms`. */
  advance(ms: number): void {
    if (frozenAt !== null) frozenAt += ms;
    else offsetMs += ms;
  },
  reset(): void {
    offsetMs = 0;
    frozenAt = null;
  },
  /** The clock as it is now, given back by the function returned (for code that moves it for a while). */
  save(): () => void {
    const saved = { offsetMs, frozenAt };
    return () => {
      offsetMs = saved.offsetMs;
      frozenAt = saved.frozenAt;
    };
  },
};

export function toUnixSeconds(date: Date): number;
export function toUnixSeconds(date: Date | null): number | null;
export function toUnixSeconds(date: Date | null): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

/** The same instant `months` calendar months earlier (UTC): the retention periods counted in months. */
export function monthsBefore(date: Date, months: number): Date {
  const earlier = new Date(date);
  earlier.setUTCMonth(earlier.getUTCMonth() - months);
  return earlier;
}
