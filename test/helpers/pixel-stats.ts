/** Pixel statistics shared by the engine's tests and benchmarks (timing belongs in bench/). */
import type { RawImage } from '@/server/capabilities/engine/builtin/types';
import { SRGB_TO_LINEAR, linearToLab, type Lab } from '@/server/capabilities/engine/builtin/color';

/** Count of pixels that differ (any channel) where `where(i)` holds. */
export function countChanged(a: RawImage, b: RawImage, where: (i: number) => boolean): number {
  let n = 0;
  const c = a.channels;
  for (let i = 0; i < a.width * a.height; i++) {
    if (!where(i)) continue;
    for (let k = 0; k < c; k++) if (a.data[i * c + k] !== b.data[i * c + k]) {
      n++;
      break;
    }
  }
  return n;
}

/** L* of every pixel with alpha >= 128. */
export function lightnessValues(img: RawImage, alpha: Uint8Array): Float64Array {
  const out: number[] = [];
  const tmp: Lab = { L: 0, a: 0, b: 0 };
  for (let i = 0; i < alpha.length; i++) {
    if (alpha[i]! < 128) continue;
    const o = i * img.channels;
    linearToLab(SRGB_TO_LINEAR[img.data[o]!]!, SRGB_TO_LINEAR[img.data[o + 1]!]!, SRGB_TO_LINEAR[img.data[o + 2]!]!, tmp);
    out.push(tmp.L);
  }
  return Float64Array.from(out);
}

export function meanStd(v: ArrayLike<number>): { mean: number; std: number } {
  let s = 0, s2 = 0;
  for (let i = 0; i < v.length; i++) {
    s += v[i]!;
    s2 += v[i]! * v[i]!;
  }
  const mean = s / Math.max(1, v.length);
  return { mean, std: Math.sqrt(Math.max(0, s2 / Math.max(1, v.length) - mean * mean)) };
}

/** Nearest-neighbour enlargement of a mask (what the platform does to a smaller mask). */
export function scaleMaskNearest(a: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    const sy = Math.min(h - 1, Math.floor((y * h) / H));
    for (let x = 0; x < W; x++) out[y * W + x] = a[sy * w + Math.min(w - 1, Math.floor((x * w) / W))]!;
  }
  return out;
}
