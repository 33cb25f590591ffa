/**
 * Mask helpers: per-layer alpha from a label map, dilation, feathering.
 * All functions return new arrays; inputs are never modified. Work is restricted to the
 * mask's bounding box (plus the filter radius) so small layers on big images stay cheap.
 */

export type BBox = { x0: number; y0: number; x1: number; y1: number }; // x1/y1 exclusive

/**
 * Alpha (0/255) of palette entry `paletteIndex` from a label map where 0 = unpainted and
 * i+1 = palette index i (one byte per pixel, image-sized).
 */
export function layerAlpha(labels: Uint8Array, paletteIndex: number): Uint8Array {
  if (!Number.isInteger(paletteIndex) || paletteIndex < 0 || paletteIndex > 254) {
    throw new RangeError(`paletteIndex ${paletteIndex}`);
  }
  const want = paletteIndex + 1;
  const out = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) if (labels[i] === want) out[i] = 255;
  return out;
}

/** Bounding box of pixels with alpha >= threshold, or null when none. */
export function maskBBox(alpha: Uint8Array, width: number, height: number, threshold = 1): BBox | null {
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let first = -1, last = -1;
    for (let x = 0; x < width; x++) {
      if (alpha[row + x]! >= threshold) {
        first = x;
        break;
      }
    }
    if (first < 0) continue;
    for (let x = width - 1; x >= first; x--) {
      if (alpha[row + x]! >= threshold) {
        last = x;
        break;
      }
    }
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y < y0) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return null;
  return { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

export function expandBBox(b: BBox, r: number, width: number, height: number): BBox {
  return {
    x0: Math.max(0, b.x0 - r),
    y0: Math.max(0, b.y0 - r),
    x1: Math.min(width, b.x1 + r),
    y1: Math.min(height, b.y1 + r),
  };
}

/** Number of pixels with alpha >= threshold. */
export function maskCount(alpha: Uint8Array, threshold = 128): number {
  let n = 0;
  for (let i = 0; i < alpha.length; i++) if (alpha[i]! >= threshold) n++;
  return n;
}

function crop(a: Uint8Array, width: number, b: BBox): Uint8Array {
  const w = b.x1 - b.x0, h = b.y1 - b.y0;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) out.set(a.subarray((b.y0 + y) * width + b.x0, (b.y0 + y) * width + b.x1), y * w);
  return out;
}

function paste(dst: Uint8Array, width: number, src: Uint8Array, b: BBox): void {
  const w = b.x1 - b.x0, h = b.y1 - b.y0;
  for (let y = 0; y < h; y++) dst.set(src.subarray(y * w, y * w + w), (b.y0 + y) * width + b.x0);
}

/**
 * Running max (or min) over a window of 2r+1 along lines of `count` samples spaced `stride`
 * apart (van Herk / Gil-Werman: 3 comparisons per sample whatever r is).
 */
function extremum1D(
  src: Uint8Array, dst: Uint8Array, start: number, stride: number, count: number, r: number,
  isMax: boolean, g: Uint8Array, hbuf: Uint8Array,
): void {
  const k = 2 * r + 1;
  const pad = r;
  const n = count + 2 * pad;
  const fill = isMax ? 0 : 255;
  // g: prefix extremum within blocks of k from the left; hbuf: from the right.
  for (let i = 0; i < n; i++) {
    const si = i - pad;
    const v = si < 0 || si >= count ? fill : src[start + si * stride]!;
    if (i % k === 0) g[i] = v;
    else {
      const p = g[i - 1]!;
      g[i] = isMax ? (v > p ? v : p) : v < p ? v : p;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    const si = i - pad;
    const v = si < 0 || si >= count ? fill : src[start + si * stride]!;
    if (i === n - 1 || (i + 1) % k === 0) hbuf[i] = v;
    else {
      const p = hbuf[i + 1]!;
      hbuf[i] = isMax ? (v > p ? v : p) : v < p ? v : p;
    }
  }
  for (let x = 0; x < count; x++) {
    // window [x, x+2r] in padded coordinates
    const a = hbuf[x]!, b = g[x + 2 * r]!;
    dst[start + x * stride] = isMax ? (a > b ? a : b) : a < b ? a : b;
  }
}

function morph(alpha: Uint8Array, width: number, height: number, r: number, isMax: boolean): Uint8Array {
  const out = Uint8Array.from(alpha);
  if (r <= 0) return out;
  const bb0 = maskBBox(alpha, width, height);
  if (!bb0) return out;
  // The crop grows by r so real zeros around the area are seen; beyond the image edge the
  // padding is neutral (0 for dilation, 255 for erosion: the frame is not background).
  const bb = expandBBox(bb0, r, width, height);
  const w = bb.x1 - bb.x0, h = bb.y1 - bb.y0;
  const a = crop(alpha, width, bb);
  const tmp = new Uint8Array(w * h);
  const m = Math.max(w, h) + 2 * r + 2;
  const g = new Uint8Array(m), hb = new Uint8Array(m);
  for (let y = 0; y < h; y++) extremum1D(a, tmp, y * w, 1, w, r, isMax, g, hb);
  const res = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) extremum1D(tmp, res, x, w, h, r, isMax, g, hb);
  paste(out, width, res, bb);
  return out;
}

/** Grey-level dilation with a (2r+1)² square: grows the painted area by r pixels. */
export function dilate(alpha: Uint8Array, width: number, height: number, r: number): Uint8Array {
  return morph(alpha, width, height, Math.round(r), true);
}

/** Grey-level erosion with a (2r+1)² square. */
export function erode(alpha: Uint8Array, width: number, height: number, r: number): Uint8Array {
  return morph(alpha, width, height, Math.round(r), false);
}

/** One separable box blur pass of radius rb (running sums, integer exact, rounded). */
function boxPass(src: Uint8Array, dst: Uint8Array, w: number, h: number, rb: number, horizontal: boolean): void {
  const len = horizontal ? w : h;
  const lines = horizontal ? h : w;
  const step = horizontal ? 1 : w;
  const lineStep = horizontal ? w : 1;
  const div = 2 * rb + 1;
  const half = div >> 1;
  for (let l = 0; l < lines; l++) {
    const base = l * lineStep;
    // Zero outside the crop: the crop is padded by enough that this is true background.
    let sum = 0;
    for (let i = 0; i <= rb && i < len; i++) sum += src[base + i * step]!;
    for (let i = 0; i < len; i++) {
      dst[base + i * step] = ((sum + half) / div) | 0;
      const add = i + rb + 1, sub = i - rb;
      if (add < len) sum += src[base + add * step]!;
      if (sub >= 0) sum -= src[base + sub * step]!;
    }
  }
}

/**
 * Gaussian-like blur of the mask (3 box passes ≈ Gaussian with sigma ≈ radius/2).
 * The soft edge extends about `radius` pixels either side of the original boundary.
 */
export function feather(alpha: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const out = Uint8Array.from(alpha);
  if (radius <= 0) return out;
  const bb0 = maskBBox(alpha, width, height);
  if (!bb0) return out;
  const sigma = radius / 2;
  const rb = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  const bb = expandBBox(bb0, rb * 3 + 1, width, height);
  const w = bb.x1 - bb.x0, h = bb.y1 - bb.y0;
  let a: Uint8Array = crop(alpha, width, bb);
  let b: Uint8Array = new Uint8Array(w * h);
  for (let pass = 0; pass < 3; pass++) {
    boxPass(a, b, w, h, rb, true);
    [a, b] = [b, a];
    boxPass(a, b, w, h, rb, false);
    [a, b] = [b, a];
  }
  paste(out, width, a, bb);
  return out;
}

/**
 * Soft edge that stays inside the painted area: min(alpha, blur(alpha)). Pixels with alpha 0
 * keep weight 0, so whatever uses it leaves them byte-identical.
 */
export function featherInside(alpha: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const f = feather(alpha, width, height, radius);
  for (let i = 0; i < f.length; i++) {
    const a = alpha[i]!;
    if (f[i]! > a) f[i] = a;
  }
  return f;
}

/** Binary (0/255) version of a soft alpha. */
export function threshold(alpha: Uint8Array, t = 128): Uint8Array {
  const out = new Uint8Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) out[i] = alpha[i]! >= t ? 255 : 0;
  return out;
}
