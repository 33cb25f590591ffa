// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { applyMaterial } from './material';
import { makeInteriorScene, makeSwatch } from '../../../../../test/helpers/engine-scenes';
import { countChanged, meanStd } from '../../../../../test/helpers/pixel-stats';
import { erode } from './masks';
import { SRGB_TO_LINEAR } from './color';
import type { RawImage } from './types';

const scene = makeInteriorScene(640, 480, { furniture: true });
const W = 640, H = 480;

/** Std of (pixel luma - 5x5 local mean) inside the mask: texture energy. */
function detail(img: RawImage, alpha: Uint8Array): number {
  const y = new Float64Array(W * H);
  for (let i = 0; i < W * H; i++) y[i] = 0.299 * img.data[i * 3]! + 0.587 * img.data[i * 3 + 1]! + 0.114 * img.data[i * 3 + 2]!;
  const v: number[] = [];
  for (let r = 2; r < H - 2; r++) for (let x = 2; x < W - 2; x++) {
    if (alpha[r * W + x] !== 255) continue;
    let s = 0;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) s += y[(r + dy) * W + x + dx]!;
    v.push(y[r * W + x]! - s / 25);
  }
  return meanStd(v).std;
}

function meanLuma(img: RawImage, where: (x: number, y: number) => boolean): number {
  let s = 0, n = 0;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    if (!where(x, y)) continue;
    const o = (y * W + x) * 3;
    s += 0.2126 * SRGB_TO_LINEAR[img.data[o]!]! + 0.7152 * SRGB_TO_LINEAR[img.data[o + 1]!]! + 0.0722 * SRGB_TO_LINEAR[img.data[o + 2]!]!;
    n++;
  }
  return s / n;
}

describe('applyMaterial (modify + material)', () => {
  const floor = scene.regions.floor;
  const core = erode(floor, W, H, 3);

  it('tiles the swatch inside, leaves the outside byte-identical', () => {
    for (const kind of ['terrazzo', 'marble', 'oak'] as const) {
      const swatch = makeSwatch(kind, 128);
      const out = applyMaterial(scene.image, { alpha: floor }, swatch, { scale: 0.2 });
      expect(countChanged(scene.image, out, (i) => floor[i] === 0)).toBe(0);
      expect(countChanged(scene.image, out, (i) => core[i] === 255)).toBeGreaterThan(0.9 * core.filter((v) => v === 255).length);
      const d = detail(out, core);
      expect(d).toBeGreaterThan(1.5);
    }
  });

  it('keeps light and shadow: the sofa contact shadow stays darker than open floor', () => {
    const out = applyMaterial(scene.image, { alpha: floor }, makeSwatch('marble', 128), { scale: 0.2 });
    // just under the sofa (x 0.55-0.8 W, y 0.805-0.82 H) vs open floor further down (y 0.9-0.95 H)
    const inShadow = (x: number, y: number): boolean => core[y * W + x] === 255 && x > 0.55 * W && x < 0.8 * W && y > 0.805 * H && y < 0.82 * H;
    const open = (x: number, y: number): boolean => core[y * W + x] === 255 && x > 0.55 * W && x < 0.8 * W && y > 0.9 * H && y < 0.95 * H;
    const ratioBefore = meanLuma(scene.image, inShadow) / meanLuma(scene.image, open);
    const ratioAfter = meanLuma(out, inShadow) / meanLuma(out, open);
    expect(ratioAfter).toBeLessThan(0.9);
    expect(Math.abs(ratioAfter - ratioBefore)).toBeLessThan(0.15);
  });
});
