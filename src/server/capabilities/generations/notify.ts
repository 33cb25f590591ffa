import { listen } from '@/server/platform/listen';
import { db } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { DbTx } from '@/server/platform/db';

/**
 * Waking synchronous requests when their generation ends: the worker that finishes a
 * generation runs pg_notify in the same transaction; every web process holds one LISTEN
 * connection and resolves its waiters. A slow poll backs it up (a lost connection, a missed
 * notification), so a waiter is never stuck past its deadline.
 */
export const CHANNEL = 'roomtone_generation_done';
const FALLBACK_POLL_MS = 3_000;

export async function notifyGenerationDone(tx: DbTx, generationId: string): Promise<void> {
  await tx.$executeRaw`select pg_notify(${CHANNEL}, ${generationId})`;
}

interface Waiter {
  resolve: (ended: boolean) => void;
}

const waiters = new Map<string, Set<Waiter>>();
let listening: Promise<unknown> | null = null;

function wake(generationId: string, ended: boolean): void {
  const set = waiters.get(generationId);
  if (!set) return;
  waiters.delete(generationId);
  for (const w of set) w.resolve(ended);
}

function following(): Promise<unknown> {
  listening ??= listen(CHANNEL, (id) => wake(id, true), () => {
    listening = null; // the fallback poll covers the gap; re-listen on next wait
  }).catch((error: unknown) => {
    listening = null;
    throw error;
  });
  return listening;
}

// On shutdown, waiting requests answer 202 with the in-progress generation (spec: server restart).
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    for (const id of [...waiters.keys()]) wake(id, false);
  });
}

/** Resolve true when the generation has ended, false at the deadline. */
export async function waitForGenerationEnd(generationId: string, timeoutMs: number): Promise<boolean> {
  await following().catch((error: unknown) => log.warn('LISTEN unavailable; polling', { error: String(error) }));
  const isEnded = async () => {
    const row = await db().generation.findUnique({ where: { id: generationId }, select: { status: true } });
    return !row || row.status !== 'in_progress';
  };
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const done = () => {
      settled = true;
      clearTimeout(deadline);
      clearInterval(poll);
      waiters.get(generationId)?.delete(waiter);
    };
    const waiter: Waiter = {
      resolve: (ended) => {
        if (settled) return;
        done();
        resolve(ended);
      },
    };
    // Listed before the status is read: an end notified while that read runs still wakes it
    // (read first, it would be missed and found only by the slow poll).
    let set = waiters.get(generationId);
    if (!set) waiters.set(generationId, (set = new Set()));
    set.add(waiter);
    const deadline = setTimeout(() => waiter.resolve(false), timeoutMs);
    const poll = setInterval(() => {
      void isEnded().then((ended) => ended && waiter.resolve(true)).catch(() => undefined);
    }, FALLBACK_POLL_MS);
    isEnded().then(
      (ended) => ended && waiter.resolve(true),
      (error: unknown) => {
        if (settled) return;
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
