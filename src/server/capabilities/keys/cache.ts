import type { DbTx } from '@/server/platform/db';
import { listen, noticesBarrier } from '@/server/platform/listen';
import { log } from '@/server/platform/logger';
import { clock } from '@/server/platform/clock';

/**
 * A short-lived cache of API key lookups (every /v1 request authenticates). A revoked key is
 * refused by every request that arrives after the revocation committed: revoking notifies every
 * process (pg_notify in the revoking transaction), and a cache hit is served only after a
 * barrier on this process's LISTEN connection (one bare protocol Sync, shared by the requests that
 * arrive together), which PostgreSQL answers only after delivering the notices committed
 * before it. Without it a request could outrun the notice (seen in CI on a loaded machine: a
 * key revoked by the CLI still answered 200). The cache only serves while this process is following those notifications;
 * if the LISTEN connection is lost it empties and stops serving until it is back. Entries live
 * 60 s at most, which bounds how long an organization's tier change takes to apply.
 *
 * The /v1 reads that prove their key (keys/revocation-proof.ts) take a hit without the barrier (cachedKeyUnchecked):
 * their own query proves the key unrevoked, which is as exact and costs no round trip.
 *
 * Revocation wins every race with a lookup: a lookup may read the key just before the revoking
 * transaction commits and finish after its notice was handled, so each lookup in flight holds
 * a ticket, a notice for its key (or a lost connection) spoils the tickets out for that key,
 * and a spoiled lookup answers its caller but is never stored. A lookup that starts after the
 * notice reads the committed revocation.
 */
export const KEY_EVENTS_CHANNEL = 'roomtone_api_keys';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

interface Ticket {
  spoiled: boolean;
}

interface CacheState {
  entries: Map<string, Entry<unknown>>;
  /** Lookups in flight per secret hash. */
  inFlight: Map<string, Set<Ticket>>;
  following: Promise<unknown> | null;
  live: boolean;
}

const cache: CacheState = { entries: new Map(), inFlight: new Map(), following: null, live: false };

function forget(secretHash: string): void {
  cache.entries.delete(secretHash);
  for (const ticket of cache.inFlight.get(secretHash) ?? []) ticket.spoiled = true;
}

function forgetAll(): void {
  cache.live = false;
  cache.entries.clear();
  for (const tickets of cache.inFlight.values()) for (const ticket of tickets) ticket.spoiled = true;
}

function follow(): void {
  cache.following ??= listen(KEY_EVENTS_CHANNEL, forget, () => {
    forgetAll();
    cache.following = null;
  })
    .then(() => {
      cache.live = true;
    })
    .catch((error: unknown) => {
      log.warn('key cache disabled: cannot follow revocations', { error: String(error) });
      cache.following = null;
    });
}

export async function cachedKeyLookup<T>(secretHash: string, load: () => Promise<T | null>): Promise<T | null> {
  follow();
  const now = clock.nowMs();
  const hit = cache.entries.get(secretHash);
  if (cache.live && hit && hit.expiresAt > now) {
    const fresh = await noticesBarrier().then(
      () => cache.live && cache.entries.get(secretHash) === hit,
      () => false,
    );
    if (fresh) return hit.value as T;
  }
  // Only a lookup that began while notices were followed may be stored: one begun before could
  // have missed a notice sent before the LISTEN was in place.
  const ticket: Ticket = { spoiled: !cache.live };
  let tickets = cache.inFlight.get(secretHash);
  if (!tickets) cache.inFlight.set(secretHash, (tickets = new Set<Ticket>()));
  tickets.add(ticket);
  try {
    const value = await load();
    if (value !== null && cache.live && !ticket.spoiled) {
      if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
      cache.entries.set(secretHash, { value, expiresAt: now + TTL_MS });
    }
    return value;
  } finally {
    tickets.delete(ticket);
    if (tickets.size === 0 && cache.inFlight.get(secretHash) === tickets) cache.inFlight.delete(secretHash);
  }
}

/**
 * A cached key without the revocation barrier, or null when the cache has none to serve. Only
 * for a caller whose own query proves the key unrevoked in its snapshot, which the request
 * takes after it arrived (keys/revocation-proof.ts): that is as exact as the barrier, without its round trip.
 */
export function cachedKeyUnchecked<T>(secretHash: string): T | null {
  follow();
  const hit = cache.entries.get(secretHash);
  return cache.live && hit && hit.expiresAt > clock.nowMs() ? (hit.value as T) : null;
}

/** Tell every process to forget this key now (call inside the revoking transaction). */
export async function announceKeyChange(tx: DbTx, secretHash: string): Promise<void> {
  await tx.$executeRaw`select pg_notify(${KEY_EVENTS_CHANNEL}, ${secretHash})`;
}
