/**
 * Request rate limits (spec "Limits"): a one-minute window opened by the first request and
 * restarting from zero. Where the counters live (RATE_LIMIT_STORE):
 *  - memory: in one process: the web process itself (exact), or, when `npm start` runs several
 *    web processes (WEB_PROCESSES), their primary, which leases each web process slices of the
 *    allowance over the cluster IPC channel (leased-limiter.ts: one message per slice, not per
 *    request). If the primary does not answer within RATE_LIMIT_IPC_TIMEOUT_MS the web process
 *    counts the waiting hits locally (documented fallback: requests keep being served, each
 *    process then enforces the limit on its own share until the primary answers again);
 *  - postgres: leased from the database (shared-counter.ts: one statement per slice), never
 *    more than the limit across every instance on it.
 */
import cluster, { type Worker } from 'node:cluster';
import { config } from '@/server/platform/config';
import { leaseShared } from './shared-counter';
import { LeasedLimiter, type LeaseSource } from './leased-limiter';
import { FixedWindowLimiter, type Lease, type LeaseRequest, type LimiterName, type RateDecision } from './fixed-window';

export { FixedWindowLimiter, type LimiterName, type RateDecision };

const localLimiters: Record<LimiterName, FixedWindowLimiter> = { ip: new FixedWindowLimiter(), org: new FixedWindowLimiter(), key: new FixedWindowLimiter() };

/** Set in the environment of web processes forked by `npm start`: their counters are the primary's. */
export const SHARED_LIMITS_ENV = 'ROOMTONE_SHARED_RATE_LIMITS';

interface LeasesMessage {
  roomtone: 'rate-leases';
  id: number;
  requests: LeaseRequest[];
}
interface LeasedMessage {
  roomtone: 'rate-leased';
  id: number;
  leases: Lease[];
}

const pendingLeases = new Map<number, (leases: Lease[]) => void>();
let nextLeaseBatch = 0;
let listening = false;

/** A web process's lease requests of one event-loop turn, as one message to the primary. */
const leaseFromPrimary: LeaseSource = (requests) => {
  if (!listening) {
    listening = true;
    process.on('message', (message: LeasedMessage) => {
      if (message?.roomtone !== 'rate-leased') return;
      pendingLeases.get(message.id)?.(message.leases);
      pendingLeases.delete(message.id);
    });
  }
  const id = ++nextLeaseBatch;
  return new Promise((resolve, reject) => {
    if (!process.send || !process.connected) return reject(new Error('no IPC channel to the primary'));
    const timer = setTimeout(() => {
      // Timers run before the event loop reads its sockets: after a long block (a route's first
      // load under load) the answer may be waiting unread. Give it that read before giving up,
      // or the slice the primary granted is lost to this window.
      setImmediate(() => {
        if (!pendingLeases.delete(id)) return;
        reject(new Error('the primary did not answer in time'));
      });
    }, config().RATE_LIMIT_IPC_TIMEOUT_MS);
    timer.unref();
    pendingLeases.set(id, (leases) => {
      clearTimeout(timer);
      resolve(leases);
    });
    try {
      process.send({ roomtone: 'rate-leases', id, requests } satisfies LeasesMessage);
    } catch (error) {
      clearTimeout(timer);
      pendingLeases.delete(id);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
};

/** Decided once per process (on first use): where the counters are and who counts the hits. */
let counter: ((limiter: LimiterName, key: string, limit: number) => RateDecision | Promise<RateDecision>) | undefined;

function chooseCounter(): NonNullable<typeof counter> {
  const store = config().rateLimitStore;
  if (store === 'postgres') {
    const leased = new LeasedLimiter(leaseShared, localLimiters, 'postgres');
    return (limiter, key, limit) => leased.hit(limiter, key, limit);
  }
  // Fixed for the life of the process (set when the primary forks it).
  if (cluster.isWorker && config().ROOMTONE_SHARED_RATE_LIMITS) {
    const leased = new LeasedLimiter(leaseFromPrimary, localLimiters, 'primary');
    return (limiter, key, limit) => leased.hit(limiter, key, limit);
  }
  return (limiter, key, limit) => localLimiters[limiter].hit(key, limit);
}

/**
 * Count one request of `key` against `limit` per minute. The one entry point for every door
 * (/v1, MCP, console sign-in): the signature stays stable whatever the store. Usually answers
 * at once (from this process's slice); a promise when a slice must be leased first.
 */
export function hitRateLimit(limiter: LimiterName, key: string, limit: number): RateDecision | Promise<RateDecision> {
  counter ??= chooseCounter();
  return counter(limiter, key, limit);
}

/** In the primary: lease a web process slices of the allowance held here. */
export function serveRateLimits(worker: Worker): void {
  worker.on('message', (message: LeasesMessage) => {
    if (message?.roomtone !== 'rate-leases') return;
    const leases = message.requests.map((r) => localLimiters[r.limiter].lease(r.key, r.want, r.limit));
    worker.send({ roomtone: 'rate-leased', id: message.id, leases } satisfies LeasedMessage);
  });
}

export function perIpLimit(): number {
  return config().RATE_LIMIT_PER_IP_PER_MINUTE;
}
