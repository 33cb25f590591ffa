import type { DbTx } from '@/server/platform/db';
import { listen } from '@/server/platform/listen';
import { log } from '@/server/platform/logger';
import { clock } from '@/server/platform/clock';

/**
 * A short-lived cache of API key lookups (every /v1 request authenticates). Revocation is
 * immediate: revoking notifies every process (pg_notify in the revoking transaction) and the
 * entry is dropped. The cache only serves while this process is following those notifications;
 * if the LISTEN connection is lost it empties and stops serving until it is back. Entries live
 * 60 s at most, which bounds how long an organization's tier change takes to apply.
 */
export const KEY_EVENTS_CHANNEL = 'roomtone_api_keys';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

const state = globalThis as unknown as {
  roomtoneKeyCache?: { entries: Map<string, Entry<unknown>>; following: Promise<unknown> | null; live: boolean };
};
const cache = (state.roomtoneKeyCache ??= { entries: new Map(), following: null, live: false });

function follow(): void {
  cache.following ??= listen(
    KEY_EVENTS_CHANNEL,
    (secretHash) => cache.entries.delete(secretHash),
    () => {
      cache.live = false;
      cache.entries.clear();
      cache.following = null;
    },
  )
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
  const value = await load();
  if (cache.live && value !== null) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(secretHash, { value, expiresAt: now + TTL_MS });
  }
  return value;
}

/** Tell every process to forget this key now (call inside the revoking transaction). */
export async function announceKeyChange(tx: DbTx, secretHash: string): Promise<void> {
  await tx.$executeRaw`select pg_notify(${KEY_EVENTS_CHANNEL}, ${secretHash})`;
}
