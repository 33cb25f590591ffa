/**
 * Upscaling x2/x4: a true Lanczos3 resampler (fast, exact geometry) and a neural path
 * (UpscalerJS esrgan-slim on tfjs-wasm, in a worker thread). chooseUpscaler() picks one
 * per size from the throughput measured on this machine.
 */
import type { Worker } from 'node:worker_threads';
import { spawnTsWorker } from './spawn';
import { toRGB, assertImage, type RawImage } from './types';
import type { NeuralMessage, NeuralRequest } from './neural-protocol';

import { upscaleLanczos3, checkScale, type UpscaleScale } from './upscale-lanczos';
import { chooseUpscaler, type UpscalerChoice } from './upscale-choice';
export { upscaleLanczos3, type UpscaleScale };
export { chooseUpscaler, estimateNeuralMs, estimateLanczosMs, NEURAL_BUDGET_MS, UPSCALERS_BY_FIDELITY, type UpscalerChoice } from './upscale-choice';

// ---------------------------------------------------------------------------------------------
// Neural path

export type NeuralOptions = {
  /** Tile core in input pixels (kept part) and context margin on each side. */
  tileCore?: number;
  tilePad?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
};

export type NeuralStats = { ms: number; loadMs: number; tiles: number };

/**
 * Tile ~170 px (+2x12 margin = ~194 px input); measured best among 116/168/232 (46/56/55
 * input px/ms). The margin exceeds the network's ~10 px receptive field.
 */
const DEFAULT_TILE_CORE = 168;
const DEFAULT_TILE_PAD = 12;
const IDLE_MS = 5 * 60_000;

type Pending = {
  resolve: (r: { img: RawImage; stats: NeuralStats }) => void;
  reject: (e: Error) => void;
  onProgress?: (done: number, total: number) => void;
};

class NeuralPool {
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = spawnTsWorker('neural-worker');
    w.unref();
    w.on('message', (m: NeuralMessage) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.type === 'progress') p.onProgress?.(m.done, m.total);
      else if (m.type === 'error') {
        this.pending.delete(m.id);
        p.reject(new Error(`neural upscale failed: ${m.message}`));
      } else {
        this.pending.delete(m.id);
        p.resolve({
          img: { data: new Uint8Array(m.data), width: m.width, height: m.height, channels: 3 },
          stats: { ms: m.ms, loadMs: m.loadMs, tiles: m.tiles },
        });
      }
      this.armIdle();
    });
    const fail = (e: Error): void => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      if (this.worker === w) this.worker = null;
    };
    w.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
    w.on('exit', (code) => fail(new Error(`neural worker exited (${code})`)));
    this.worker = w;
    return w;
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pending.size > 0) return;
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
    this.idleTimer.unref();
  }

  /** One job at a time: the worker is single-threaded wasm, so parallel jobs only add memory. */
  run(rgb: RawImage, scale: UpscaleScale, opts: NeuralOptions): Promise<{ img: RawImage; stats: NeuralStats }> {
    const job = this.queue.then(
      () =>
        new Promise<{ img: RawImage; stats: NeuralStats }>((resolve, reject) => {
          if (opts.signal?.aborted) return reject(new Error('aborted'));
          const w = this.ensure();
          const id = this.nextId++;
          this.pending.set(id, { resolve, reject, onProgress: opts.onProgress });
          if (this.idleTimer) clearTimeout(this.idleTimer);
          // Cancel = terminate the worker (a wasm tile cannot be interrupted); the next job respawns it.
          opts.signal?.addEventListener('abort', () => {
            if (this.pending.has(id)) void this.close();
          }, { once: true });
          const copy = Uint8Array.from(rgb.data);
          const req: NeuralRequest = {
            id, width: rgb.width, height: rgb.height, scale,
            data: copy.buffer,
            tileCore: opts.tileCore ?? DEFAULT_TILE_CORE,
            tilePad: opts.tilePad ?? DEFAULT_TILE_PAD,
          };
          w.postMessage(req, [copy.buffer]);
        }),
    );
    this.queue = job.catch(() => undefined);
    return job;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (w) await w.terminate();
  }
}

const pool = new NeuralPool();

/**
 * ESRGAN (esrgan-slim) x2/x4 in a worker thread. Alpha, if any, is enlarged with Lanczos3
 * (the network is RGB only).
 */
export async function upscaleNeural(img: RawImage, scale: UpscaleScale, opts: NeuralOptions = {}): Promise<RawImage> {
  return (await upscaleNeuralWithStats(img, scale, opts)).img;
}

export async function upscaleNeuralWithStats(
  img: RawImage, scale: UpscaleScale, opts: NeuralOptions = {},
): Promise<{ img: RawImage; stats: NeuralStats }> {
  assertImage(img);
  checkScale(scale);
  const rgb = toRGB(img);
  const res = await pool.run(rgb, scale, opts);
  if (img.channels === 3) return res;
  const a = upscaleLanczos3(img, scale);
  const n = res.img.width * res.img.height;
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = res.img.data[i * 3]!;
    out[i * 4 + 1] = res.img.data[i * 3 + 1]!;
    out[i * 4 + 2] = res.img.data[i * 3 + 2]!;
    out[i * 4 + 3] = a.data[i * 4 + 3]!;
  }
  return { img: { data: out, width: res.img.width, height: res.img.height, channels: 4 }, stats: res.stats };
}

/** Stop the neural worker (tests, shutdown). It restarts on the next call. */
export function closeNeuralWorker(): Promise<void> {
  return pool.close();
}

// ---------------------------------------------------------------------------------------------
// Choice (pure, in its own module so the web process can classify jobs without the worker code)

/** Upscale with the default choice for this size. */
export async function upscaleAuto(
  img: RawImage, scale: UpscaleScale, opts: NeuralOptions & { method?: UpscalerChoice['method'] } = {},
): Promise<{ img: RawImage; method: UpscalerChoice['method'] }> {
  const method = opts.method ?? chooseUpscaler(img.width, img.height, scale).method;
  if (method === 'neural') return { img: await upscaleNeural(img, scale, opts), method: 'neural' };
  return { img: upscaleLanczos3(img, scale), method: 'lanczos3' };
}
