/**
 * Run engine operations in worker threads so the server's event loop stays responsive.
 * Same results as calling the pure functions directly (the workers import them).
 * Two pools, so a cheap operation never queues behind a PatchMatch fill that takes seconds:
 * heavy operations (HEAVY_OPS) on cores - 1 threads (at least 1), everything else on one
 * thread of its own. On a 2-core machine that is one thread each; the OS shares the cores.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { spawnTsWorker } from './spawn';
import { HEAVY_OPS, type OpMessage, type OpRequest } from './ops-protocol';
import type { RawImage } from './types';
import { config } from '@/server/platform/config';

export type { OpRequest } from './ops-protocol';

type Slot = { worker: Worker; heavy: boolean; pending: Map<number, { resolve: (r: RawImage) => void; reject: (e: Error) => void }> };

const IDLE_MS = 5 * 60_000;
const LIGHT_POOL_SIZE = 1;
let slots: Slot[] = [];
let nextId = 1;
let idleTimer: NodeJS.Timeout | null = null;

function poolSize(): number {
  const configured = config().ROOMTONE_ENGINE_WORKERS;
  if (configured > 0) return configured;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, cores - 1);
}

function newSlot(heavy: boolean): Slot {
  const worker = spawnTsWorker('ops-worker');
  worker.unref();
  const slot: Slot = { worker, heavy, pending: new Map() };
  worker.on('message', (m: OpMessage) => {
    const p = slot.pending.get(m.id);
    if (!p) return;
    slot.pending.delete(m.id);
    if (m.ok) p.resolve({ ...m.img, data: new Uint8Array(m.img.data.buffer, m.img.data.byteOffset, m.img.data.byteLength) });
    else p.reject(new Error(m.message));
    armIdle();
  });
  const fail = (e: Error): void => {
    for (const p of slot.pending.values()) p.reject(e);
    slot.pending.clear();
    slots = slots.filter((s) => s !== slot);
  };
  worker.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
  worker.on('exit', (code) => fail(new Error(`engine worker exited (${code})`)));
  return slot;
}

function armIdle(): void {
  if (idleTimer) clearTimeout(idleTimer);
  if (slots.some((s) => s.pending.size > 0)) return;
  idleTimer = setTimeout(() => void closeEngineWorkers(), IDLE_MS);
  idleTimer.unref();
}

/** The pool's workers, started up to its size. */
function fullPool(heavy: boolean): Slot[] {
  let pool = slots.filter((s) => s.heavy === heavy);
  while (pool.length < (heavy ? poolSize() : LIGHT_POOL_SIZE)) {
    const added = newSlot(heavy);
    slots.push(added);
    pool = [...pool, added];
  }
  return pool;
}

/**
 * Start both pools ahead of the first job (the job workers do at start): a thread loads the
 * engine's modules for a second or more, and several seconds on a loaded machine, which the
 * first generations of each class would otherwise wait for.
 */
export function warmEngineWorkers(): void {
  fullPool(true);
  fullPool(false);
  armIdle();
}

/** Run one operation in its pool (the least busy worker of it). */
export function runOffThread(req: OpRequest): Promise<RawImage> {
  if (idleTimer) clearTimeout(idleTimer);
  const pool = fullPool(HEAVY_OPS.has(req.op));
  const slot = pool.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  const id = nextId++;
  return new Promise<RawImage>((resolve, reject) => {
    slot.pending.set(id, { resolve, reject });
    slot.worker.postMessage({ id, req });
  });
}

export async function closeEngineWorkers(): Promise<void> {
  const s = slots;
  slots = [];
  await Promise.all(s.map((x) => x.worker.terminate()));
}
