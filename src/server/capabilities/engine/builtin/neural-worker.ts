/**
 * worker_threads entry for the neural upscaler: UpscalerJS esrgan-slim (RDN) models read from
 * node_modules, run with TensorFlow.js on the wasm backend, tile by tile. Only the parts it uses
 * are installed: tfjs-core (tensors), tfjs-layers (the models are Keras layers models) and the
 * wasm backend, not the @tensorflow/tfjs bundle with its WebGL backend, converter and data API.
 *
 * Why a worker: a 2048x1536 x2 pass is ~1 min of synchronous wasm; on the main thread it would
 * freeze every request. The thread lowers its own priority (on Linux setpriority(0) applies
 * to the calling thread only) so the server's event loop wins the CPU when both want it.
 *
 * Why our own tiling instead of Upscaler.execute(): bounded memory and exactness. Each tile is
 * the core plus a margin wider than the network's receptive field (~10 LR px), and only the
 * core is kept, so the tiled output equals a whole-image pass (no seams, no blending).
 */
import { parentPort } from 'node:worker_threads';
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadLayersModel, type LayersModel } from '@tensorflow/tfjs-layers';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { NeuralRequest, NeuralMessage } from './neural-protocol';

const require = createRequire(import.meta.url);

try {
  os.setPriority(0, 10);
} catch {
  /* not permitted: keep default priority */
}

type ModelDef = { scale: number; inputRange: [number, number]; outputRange: [number, number]; path: string };

function packageRoot(name: string): string {
  let d = path.dirname(require.resolve(name));
  while (!existsSync(path.join(d, 'package.json'))) {
    const up = path.dirname(d);
    if (up === d) throw new Error(`cannot find package root of ${name}`);
    d = up;
  }
  return d;
}

function readDefinition(scale: 2 | 4): ModelDef {
  const raw: unknown = require(`@upscalerjs/esrgan-slim/${scale}x`);
  const def = (raw && typeof raw === 'object' && 'default' in raw ? (raw as { default: unknown }).default : raw) as {
    scale?: unknown; inputRange?: unknown; outputRange?: unknown; _internals?: { path?: unknown };
  };
  const p = def._internals?.path;
  if (def.scale !== scale || typeof p !== 'string' || !Array.isArray(def.inputRange) || !Array.isArray(def.outputRange)) {
    throw new Error(`unexpected esrgan-slim ${scale}x model definition`);
  }
  return {
    scale,
    path: p,
    inputRange: def.inputRange as [number, number],
    outputRange: def.outputRange as [number, number],
  };
}

let backendReady: Promise<void> | null = null;
function initBackend(): Promise<void> {
  backendReady ??= (async () => {
    const wasmDir = path.join(packageRoot('@tensorflow/tfjs-backend-wasm'), 'dist');
    setWasmPaths(wasmDir + path.sep);
    // tfjs prints an advert for tfjs-node on first use in Node; it cannot install here.
    const warn = console.warn;
    console.warn = () => {};
    try {
      if (!(await tf.setBackend('wasm'))) throw new Error('tfjs wasm backend failed to initialise');
      await tf.ready();
    } finally {
      console.warn = warn;
    }
  })();
  return backendReady;
}

const models = new Map<number, Promise<{ model: LayersModel; def: ModelDef }>>();
function getModel(scale: 2 | 4): Promise<{ model: LayersModel; def: ModelDef }> {
  let m = models.get(scale);
  if (!m) {
    m = (async () => {
      await initBackend();
      const def = readDefinition(scale);
      const dir = path.dirname(path.join(packageRoot('@upscalerjs/esrgan-slim'), def.path));
      const json = JSON.parse(readFileSync(path.join(dir, 'model.json'), 'utf8')) as {
        modelTopology: object;
        weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
      };
      const weightSpecs = json.weightsManifest.flatMap((g) => g.weights);
      const parts = json.weightsManifest.flatMap((g) => g.paths).map((p) => readFileSync(path.join(dir, p)));
      const all = Buffer.concat(parts);
      const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      const model = await loadLayersModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs, weightData }));
      return { model, def };
    })();
    models.set(scale, m);
  }
  return m;
}

async function upscale(req: NeuralRequest, post: (m: NeuralMessage) => void): Promise<void> {
  const t0 = performance.now();
  const { width: w, height: h, scale, id } = req;
  const src = new Uint8Array(req.data);
  const { model, def } = await getModel(scale);
  const tLoad = performance.now() - t0;
  const [inLo, inHi] = def.inputRange;
  const [outLo, outHi] = def.outputRange;
  const inMul = (inHi - inLo) / 255;
  const outMul = 255 / (outHi - outLo);
  const target = Math.max(16, req.tileCore);
  const pad = Math.max(0, req.tilePad);
  const W = w * scale, H = h * scale;
  const out = new Uint8Array(W * H * 3);
  // Balanced tiles (512 px -> 3 x 171, not 3 x 168 + 8): a sliver tile costs almost a full one.
  const tilesX = Math.max(1, Math.round(w / target)), tilesY = Math.max(1, Math.round(h / target));
  const coreX = Math.ceil(w / tilesX), coreY = Math.ceil(h / tilesY);
  const total = tilesX * tilesY;
  let done = 0;
  for (let ty = 0; ty < tilesY; ty++) {
    for (let tx = 0; tx < tilesX; tx++) {
      const x0 = tx * coreX, y0 = ty * coreY;
      const x1 = Math.min(w, x0 + coreX), y1 = Math.min(h, y0 + coreY);
      if (x1 <= x0 || y1 <= y0) continue;
      const rx0 = Math.max(0, x0 - pad), ry0 = Math.max(0, y0 - pad);
      const rx1 = Math.min(w, x1 + pad), ry1 = Math.min(h, y1 + pad);
      const rw = rx1 - rx0, rh = ry1 - ry0;
      const input = new Float32Array(rw * rh * 3);
      for (let y = 0; y < rh; y++) {
        const s = ((ry0 + y) * w + rx0) * 3;
        const d = y * rw * 3;
        for (let i = 0; i < rw * 3; i++) input[d + i] = src[s + i]! * inMul + inLo;
      }
      const pred = tf.tidy(() => model.predict(tf.tensor4d(input, [1, rh, rw, 3])) as tf.Tensor);
      const res = (await pred.data()) as Float32Array;
      pred.dispose();
      const pw = rw * scale;
      const cw = (x1 - x0) * scale;
      const ox = (x0 - rx0) * scale, oy = (y0 - ry0) * scale;
      const outC = new Uint8ClampedArray(out.buffer);
      for (let y = 0; y < (y1 - y0) * scale; y++) {
        const s = ((oy + y) * pw + ox) * 3;
        const d = ((y0 * scale + y) * W + x0 * scale) * 3;
        for (let i = 0; i < cw * 3; i++) outC[d + i] = (res[s + i]! - outLo) * outMul;
      }
      done++;
      post({ id, type: 'progress', done, total });
    }
  }
  const ms = performance.now() - t0;
  post({ id, type: 'result', width: W, height: H, data: out.buffer, ms, loadMs: tLoad, tiles: total });
}

const port = parentPort;
if (port) {
  let chain: Promise<void> = Promise.resolve();
  port.on('message', (req: NeuralRequest) => {
    chain = chain.then(() =>
      upscale(req, (m) => {
        if (m.type === 'result') port.postMessage(m, [m.data]);
        else port.postMessage(m);
      }).catch((e: unknown) => {
        port.postMessage({ id: req.id, type: 'error', message: e instanceof Error ? e.message : String(e) } satisfies NeuralMessage);
      }),
    );
  });
}
