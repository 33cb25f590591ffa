/**
 * modify + material: tile a swatch over the area and relight it with the original's shading.
 *
 * Shading = the original's linear luminance, smoothed inside the area (so the old surface's own
 * texture does not print through), divided by its mean over the area and clamped: light falloff
 * and shadows stay, the new texture replaces the old one. The swatch is tiled in image space
 * (no perspective: the engine has no geometry), with its size relative to the image.
 */
import { assertImage, assertMask, type Mask, type RawImage } from './types';
import { SRGB_TO_LINEAR, linToByte } from './color';
import { featherInside, maskBBox, expandBBox } from './masks';
import { maskedBlur } from './filters';
import { featherRadiusFor } from './recolor';

export type MaterialOptions = {
  /** Width of one swatch tile as a fraction of the image's long side (default 0.2). */
  scale?: number;
  /** Clamp of the shading ratio (default [0.25, 1.8]). */
  minShade?: number;
  maxShade?: number;
};

export function applyMaterial(img: RawImage, mask: Mask, swatch: RawImage, opts: MaterialOptions = {}): RawImage {
  assertImage(img);
  assertImage(swatch, 'swatch');
  assertMask(img, mask);
  const { width: W, height: H, channels: C } = img;
  const out = Uint8Array.from(img.data);
  const result: RawImage = { data: out, width: W, height: H, channels: C };
  const bb0 = maskBBox(mask.alpha, W, H);
  if (!bb0) return result;
  const long = Math.max(W, H);
  const scale = opts.scale ?? 0.2;
  if (!(scale > 0)) throw new RangeError('material scale must be > 0');
  const minS = opts.minShade ?? 0.25, maxS = opts.maxShade ?? 1.8;
  const weight = featherInside(mask.alpha, W, H, featherRadiusFor(W, H));

  // Shading inside the bbox (+ margin for the blur), luminance in linear light.
  // ~1.2% of the long side: wide enough to wash out the old surface's texture (boards, seams),
  // narrow enough to keep contact shadows and light falloff.
  const blurR = Math.max(2, Math.round(long * 0.012));
  const bb = expandBBox(bb0, blurR * 2, W, H);
  const bw = bb.x1 - bb.x0, bh = bb.y1 - bb.y0;
  const Y = new Float32Array(bw * bh);
  const inside = new Float32Array(bw * bh);
  const src = img.data;
  let sum = 0, n = 0;
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const i = (bb.y0 + y) * W + bb.x0 + x;
      const o = i * C;
      const l = 0.2126 * SRGB_TO_LINEAR[src[o]!]! + 0.7152 * SRGB_TO_LINEAR[src[o + 1]!]! + 0.0722 * SRGB_TO_LINEAR[src[o + 2]!]!;
      Y[y * bw + x] = l;
      if (mask.alpha[i]! >= 128) {
        inside[y * bw + x] = 1;
        sum += l;
        n++;
      }
    }
  }
  const meanY = n > 0 ? sum / n : 1;
  const shade = maskedBlur(Y, inside, bw, bh, blurR, 2);

  // Swatch in linear light, sampled bilinearly with wrap-around.
  const sw = swatch.width, sh = swatch.height, sc = swatch.channels;
  const lin = new Float32Array(sw * sh * 3);
  for (let i = 0; i < sw * sh; i++) {
    lin[i * 3] = SRGB_TO_LINEAR[swatch.data[i * sc]!]!;
    lin[i * 3 + 1] = SRGB_TO_LINEAR[swatch.data[i * sc + 1]!]!;
    lin[i * 3 + 2] = SRGB_TO_LINEAR[swatch.data[i * sc + 2]!]!;
  }
  const tilePx = Math.max(8, scale * long);
  const k = sw / tilePx; // swatch texels per image pixel (same factor vertically keeps the aspect)
  const fa = minS, fb = maxS;
  for (let y = 0; y < bh; y++) {
    const gy = bb.y0 + y;
    const v = gy * k;
    const vy0 = Math.floor(v);
    const fy = v - vy0;
    const r0 = ((vy0 % sh) + sh) % sh, r1 = (r0 + 1) % sh;
    for (let x = 0; x < bw; x++) {
      const gx = bb.x0 + x;
      const i = gy * W + gx;
      const wgt = weight[i]!;
      if (wgt === 0) continue;
      let s = shade[y * bw + x]! / meanY;
      s = s < fa ? fa : s > fb ? fb : s;
      const u = gx * k;
      const ux0 = Math.floor(u);
      const fx = u - ux0;
      const c0 = ((ux0 % sw) + sw) % sw, c1 = (c0 + 1) % sw;
      const a = (r0 * sw + c0) * 3, b = (r0 * sw + c1) * 3, c = (r1 * sw + c0) * 3, d = (r1 * sw + c1) * 3;
      const o = i * C;
      for (let ch = 0; ch < 3; ch++) {
        const top = lin[a + ch]! + (lin[b + ch]! - lin[a + ch]!) * fx;
        const bot = lin[c + ch]! + (lin[d + ch]! - lin[c + ch]!) * fx;
        const val = linToByte((top + (bot - top) * fy) * s);
        out[o + ch] = wgt === 255 ? val : Math.round(src[o + ch]! + (val - src[o + ch]!) * (wgt / 255));
      }
    }
  }
  return result;
}
