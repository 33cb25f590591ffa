import type { DbTx } from '@/server/platform/db';
import { listen } from '@/server/platform/listen';
import { log } from '@/server/platform/logger';
import { clock } from '@/server/platform/clock';

/**
 * A short-lived cache of API key lookups (every /v1 request authenticates). Revocation applies
 * as soon as each process receives its notice: revoking notifies every process (pg_notify in
 * the revoking transaction, delivered after commit, in milliseconds) and the entry is dropped;
 * a request that reaches a process before the notice can still be served (seen under heavy load). The cache only serves while this process is following those notifications;
 * if the LISTEN connection is lost it empties and stops serving until it is back. Entries live
 * 60 s at most, which bounds how long an organization's tier change takes to apply.
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

const state = globalThis as unknown as { roomtoneKeyCache?: CacheState };
const cache = (state.roomtoneKeyCache ??= { entries: new Map(), inFlight: new Map(), following: null, live: false });

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
  if (cache.live && hit && hit.expiresAt > now) return hit.value as T;
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

/** Tell every process to forget this key now (call inside the revoking transaction). */
export async function announceKeyChange(tx: DbTx, secretHash: string): Promise<void> {
  await tx.$executeRaw`select pg_notify(${KEY_EVENTS_CHANNEL}, ${secretHash})`;
}
