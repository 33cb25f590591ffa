// Server code only: a client component that imports this fails the build.
import 'server-only';
import { lastStorageFailureAt } from './blob-store';
import { blobStore } from './storage';

/**
 * Readiness of the blob store: a small write of a fixed key (`health/probe`), as intake writes
 * inputs. A result is kept PROBE_KEEP_MS, so frequent probes cost one write per interval; a
 * store failure seen by any request since the last probe makes the next readiness probe again.
 */
const PROBE_KEY = 'health/probe';
const PROBE_KEEP_MS = 5_000;

let last: { at: number; healthy: boolean } | null = null;
let running: Promise<boolean> | null = null;

async function probe(): Promise<boolean> {
  try {
    await blobStore().put(PROBE_KEY, Buffer.from(`${new Date().toISOString()}\n`), 'text/plain');
    return true;
  } catch {
    return false;
  }
}

export function storageHealthy(): Promise<boolean> {
  const now = Date.now();
  if (last && now - last.at < PROBE_KEEP_MS && lastStorageFailureAt() < last.at) return Promise.resolve(last.healthy);
  running ??= probe()
    .then((healthy) => {
      last = { at: Date.now(), healthy };
      return healthy;
    })
    .finally(() => {
      running = null;
    });
  return running;
}
