import { createHmac, timingSafeEqual } from 'node:crypto';
import { db } from '@/server/platform/db';
import { listen } from '@/server/platform/listen';
import { appSecret } from '@/server/platform/secrets';
import { log } from '@/server/platform/logger';

/**
 * Backend callbacks (Replicate webhooks) reach a web process; the worker waiting for that
 * remote job may be another process. The web process announces "job X changed" with
 * pg_notify; the waiting worker wakes and reads the job from the backend's API itself, so a
 * callback only ever hurries a read and can never inject a result.
 */
const CHANNEL = 'roomtone_backend_event';

export async function announceBackendEvent(remoteId: string): Promise<void> {
  await db().$executeRaw`select pg_notify(${CHANNEL}, ${remoteId})`;
}

const waiting = new Map<string, Set<() => void>>();
let following: Promise<unknown> | null = null;

function follow(): Promise<unknown> {
  following ??= listen(
    CHANNEL,
    (id) => {
      for (const wake of waiting.get(id) ?? []) wake();
    },
    () => (following = null),
  ).catch((error: unknown) => {
    following = null;
    log.warn('LISTEN for backend events unavailable; polling only', { error: String(error) });
  });
  return following;
}

/** Resolves on an announcement for `remoteId`, after `ms`, or when `signal` fires. */
export async function waitForBackendEvent(remoteId: string, ms: number, signal: AbortSignal): Promise<void> {
  await follow();
  if (signal.aborted) return; // a listener added now would never fire
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      waiting.get(remoteId)?.delete(done);
      if (waiting.get(remoteId)?.size === 0) waiting.delete(remoteId);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    let set = waiting.get(remoteId);
    if (!set) waiting.set(remoteId, (set = new Set()));
    set.add(done);
  });
}

/** The secret part of a callback URL: only the backend we gave it to can call it. */
export function callbackToken(generationId: string): string {
  return `${generationId}.${createHmac('sha256', appSecret()).update(`backend-callback:${generationId}`).digest('base64url')}`;
}

export function checkCallbackToken(token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const expected = Buffer.from(callbackToken(token.slice(0, dot)));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
