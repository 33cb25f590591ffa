/** A limiter's answer to one hit: allowed or not, and what the x-ratelimit-* headers report. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window restarts (ceil, at least 1). */
  resetSeconds: number;
}

/** The request-rate limiters: per client IP, per organization and per API key (a key's own limit). */
export type LimiterName = 'ip' | 'org' | 'key';
