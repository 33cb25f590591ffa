/**
 * Request rate limits (spec "Limits"): a one-minute window opened by the first request and
 * restarting from zero. Where the counters live (RATE_LIMIT_STORE):
 *  - memory: in one process: the web process itself, or, when `npm start` runs several web
 *    processes (WEB_PROCESSES), their primary, which every web process asks over the cluster
 *    IPC channel (~10 µs a hit, measured) so the limits stay exact on one machine. If the
 *    primary does not answer within RATE_LIMIT_IPC_TIMEOUT_MS the web process counts that hit
 *    locally (documented fallback: requests keep being served, each process then enforces the
 *    limit on its own share until the primary answers again);
 *  - postgres: in the database (limits/shared-counter.ts), exact across every instance on it.
 */
import cluster, { type Worker } from 'node:cluster';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { hitShared } from './shared-counter';
import type { LimiterName, RateDecision } from './rate-decision';

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  count: number;
}

export type { LimiterName, RateDecision } from './rate-decision';

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
  try {
    if (!process.send || !process.connected) throw new Error('no IPC channel to the primary');
    process.send({ roomtone: 'rate-hits', hits } satisfies HitsMessage);
  } catch (error) {
    countLocally(hits, String(error));
    return;
  }
  // One timer per batch (not per hit): whatever is still unanswered then is counted here.
  setTimeout(() => countLocally(hits, 'the primary did not answer in time'), config().RATE_LIMIT_IPC_TIMEOUT_MS).unref();
}

let lastFallbackWarning = 0;

/** The fallback when the primary is stalled or gone: count in this process, keep serving. */
function countLocally(hits: Hit[], reason: string): void {
  let counted = 0;
  for (const hit of hits) {
    const resolve = pendingHits.get(hit.id);
    if (!resolve) continue;
    pendingHits.delete(hit.id);
    resolve(localLimiters[hit.limiter].hit(hit.key, hit.limit));
    counted++;
  }
  if (counted > 0 && clock.nowMs() - lastFallbackWarning > 60_000) {
    lastFallbackWarning = clock.nowMs();
    log.warn('rate-limit counters: counting in this web process', { reason, hits: counted });
  }
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
const countersInPrimary = cluster.isWorker && config().ROOMTONE_SHARED_RATE_LIMITS;

/** Decided once per process (on first use): the database's counters, the primary's, or this process's. */
let store: 'memory' | 'postgres' | undefined;

/**
 * Count one request of `key` against `limit` per minute. The one entry point for every door
 * (/v1, MCP, console sign-in): the signature stays stable whatever the store.
 */
export function hitRateLimit(limiter: LimiterName, key: string, limit: number): RateDecision | Promise<RateDecision> {
  store ??= config().rateLimitStore;
  if (store === 'postgres') return hitShared(limiter, key, limit);
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
