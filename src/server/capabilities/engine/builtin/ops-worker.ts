/**
 * worker_threads entry running the CPU operations off the server's event loop (a 4k recolour
 * or a PatchMatch fill takes seconds of synchronous work). Lower priority than the main
 * thread for the same reason as the neural worker.
 */
import { parentPort } from 'node:worker_threads';
import os from 'node:os';
import type { OpMessage, OpRequest } from './ops-protocol';
import type { RawImage } from './types';
import { recolorArea } from './recolor';
import { applyMaterial } from './material';
import { removeArea } from './remove';
import { addElement, replaceElement } from './add';
import { deterministicPreview } from './preview';
import { upscaleLanczos3 } from './upscale-lanczos';
import { resampleLanczos3 } from './resample';

try {
  os.setPriority(0, 10);
} catch {
  /* not permitted */
}

function run(r: OpRequest): RawImage {
  switch (r.op) {
    case 'recolor': return recolorArea(r.img, { alpha: r.alpha }, r.hex, r.finish);
    case 'material': return applyMaterial(r.img, { alpha: r.alpha }, r.swatch, r.opts);
    case 'remove': return removeArea(r.img, { alpha: r.alpha }, r.opts);
    case 'add': return addElement(r.img, { alpha: r.alpha }, r.element, r.opts);
    case 'replace': return replaceElement(r.img, { alpha: r.alpha }, r.element, r.opts);
    case 'preview': return deterministicPreview(r.img, r.target, r.seed);
    case 'upscaleLanczos3': return upscaleLanczos3(r.img, r.scale);
    case 'resample': return resampleLanczos3(r.img, r.width, r.height);
  }
}

const port = parentPort;
port?.on('message', (m: { id: number; req: OpRequest }) => {
  const t0 = performance.now();
  let msg: OpMessage;
  try {
    const img = run(m.req);
    msg = { id: m.id, ok: true, img, ms: performance.now() - t0 };
    const buf = img.data.buffer;
    port.postMessage(msg, buf instanceof ArrayBuffer ? [buf] : []);
    return;
  } catch (e) {
    msg = { id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(msg);
});
