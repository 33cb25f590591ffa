/**
 * Run engine operations in worker threads so the server's event loop stays responsive.
 * Same results as calling the pure functions directly (the workers import them).
 * Pool size: cores - 1 (at least 1); on this 2-core machine one worker, so jobs queue.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { spawnTsWorker } from './spawn';
import type { OpMessage, OpRequest } from './ops-protocol';
import type { RawImage } from './types';
import { config } from '@/server/platform/config';

export type { OpRequest } from './ops-protocol';

type Slot = { worker: Worker; pending: Map<number, { resolve: (r: RawImage) => void; reject: (e: Error) => void }> };

const IDLE_MS = 5 * 60_000;
let slots: Slot[] = [];
let nextId = 1;
let idleTimer: NodeJS.Timeout | null = null;

function poolSize(): number {
  const configured = config().ROOMTONE_ENGINE_WORKERS;
  if (configured > 0) return configured;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, cores - 1);
}

function newSlot(): Slot {
  const worker = spawnTsWorker('ops-worker');
  worker.unref();
  const slot: Slot = { worker, pending: new Map() };
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

/** Run one operation in the pool (least busy worker). */
export function runOffThread(req: OpRequest): Promise<RawImage> {
  if (idleTimer) clearTimeout(idleTimer);
  while (slots.length < poolSize()) slots.push(newSlot());
  const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
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
