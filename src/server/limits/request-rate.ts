/**
 * Request rate limits (spec "Limits"): a one-minute window opened by the first request and
 * restarting from zero. The counters live in one process: the web process itself, or, when
 * `npm start` runs several web processes (WEB_PROCESSES), their primary, which every web
 * process asks over the cluster IPC channel (~10 µs a hit, measured) so the limits stay exact.
 * Several machines would need a shared counter (PostgreSQL/Redis) behind the same interface.
 */
import cluster, { type Worker } from 'node:cluster';
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

type LimiterName = 'ip' | 'org';

const globalLimiters = globalThis as unknown as { roomtoneLimiters?: Record<LimiterName, FixedWindowLimiter> };
const localLimiters = (globalLimiters.roomtoneLimiters ??= { ip: new FixedWindowLimiter(), org: new FixedWindowLimiter() });

/** Set in the environment of web processes forked by `npm start`: their counters are the primary's. */
export const SHARED_LIMITS_ENV = 'ROOMTONE_SHARED_RATE_LIMITS';

interface Hit {
  id: number;
  limiter: LimiterName;
  key: string;
  limit: number;
}
interface HitsMessage {
  roomtone: 'rate-hits';
  hits: Hit[];
}
interface DecisionsMessage {
  roomtone: 'rate-decisions';
  decisions: { id: number; decision: RateDecision }[];
}

const pendingHits = new Map<number, (decision: RateDecision) => void>();
let queuedHits: Hit[] = [];
let nextHitId = 0;
let listening = false;

/**
 * Hits are sent in batches, one IPC message per event-loop turn: each message is a write on
 * the channel in both processes, and under load many requests arrive in the same turn.
 */
function flushHits(): void {
  const hits = queuedHits;
  queuedHits = [];
  if (!process.send) throw new Error(`${SHARED_LIMITS_ENV} is set but this process has no IPC channel to its primary`);
  process.send({ roomtone: 'rate-hits', hits } satisfies HitsMessage);
}

function remoteHit(limiter: LimiterName, key: string, limit: number): Promise<RateDecision> {
  if (!listening) {
    listening = true;
    process.on('message', (message: DecisionsMessage) => {
      if (message?.roomtone !== 'rate-decisions') return;
      for (const { id, decision } of message.decisions) {
        pendingHits.get(id)?.(decision);
        pendingHits.delete(id);
      }
    });
  }
  const id = ++nextHitId;
  return new Promise((resolve) => {
    pendingHits.set(id, resolve);
    if (queuedHits.push({ id, limiter, key, limit }) === 1) setImmediate(flushHits);
  });
}

/** Fixed for the life of the process (set when the primary forks it): decided once, not per hit. */
const countersInPrimary = cluster.isWorker && process.env[SHARED_LIMITS_ENV] === '1';

/** Count one request of `key` against `limit` per minute. */
export function hitRateLimit(limiter: LimiterName, key: string, limit: number): RateDecision | Promise<RateDecision> {
  if (countersInPrimary) return remoteHit(limiter, key, limit);
  return localLimiters[limiter].hit(key, limit);
}

/** In the primary: answer a web process's hits from the counters held here (in order). */
export function serveRateLimits(worker: Worker): void {
  worker.on('message', (message: HitsMessage) => {
    if (message?.roomtone !== 'rate-hits') return;
    const decisions = message.hits.map((hit) => ({ id: hit.id, decision: localLimiters[hit.limiter].hit(hit.key, hit.limit) }));
    worker.send({ roomtone: 'rate-decisions', decisions } satisfies DecisionsMessage);
  });
}

export function perIpLimit(): number {
  return config().RATE_LIMIT_PER_IP_PER_MINUTE;
}
