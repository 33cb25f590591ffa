/** What every swatch renderer shares: colour and noise helpers, the render context, relief and low-frequency fields, the plank and tile layouts. */
import { deltaE76, parseHex, srgbFloatsToLab } from '@/server/capabilities/engine/builtin/color';
import { gradientFbm, gradientNoise, hashInt } from '@/server/capabilities/engine/builtin/noise';

export interface SwatchImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3;
}

export interface RenderSwatchOptions {
  /** Real-world width covered by the swatch, in cm (default: `defaultSpanCm(texture)`). */
  spanCm?: number;
}

export type Rgb = [number, number, number];
export type Lab = [number, number, number];

// ---------------------------------------------------------------------------------------------
// Colour helpers
// ---------------------------------------------------------------------------------------------

// One colour library: the engine's (engine/builtin/color.ts), as tuples for the swatch code.
export const hexToRgb: (hex: string) => Rgb = parseHex;

/** sRGB (0..255, fractions allowed) to CIE L*a*b* (D65). */
export function rgbToLab(r: number, g: number, b: number): Lab {
  const lab = srgbFloatsToLab(r, g, b);
  return [lab.L, lab.a, lab.b];
}

/** CIE76 colour difference. */
export function deltaE(a: Lab, b: Lab): number {
  return deltaE76({ L: a[0], a: a[1], b: a[2] }, { L: b[0], a: b[1], b: b[2] });
}

// ---------------------------------------------------------------------------------------------
// Noise (the engine's noise library, engine/builtin/noise.ts)
// ---------------------------------------------------------------------------------------------

// Size of the image being rendered: fbm skips octaves finer than ~1.5 px (invisible, aliased, slow).
let IMG_W = 256, IMG_H = 256;

/** The size of the swatch being rendered (renderSwatch sets it before drawing). */
export function setImageSize(width: number, height: number): void {
  IMG_W = width;
  IMG_H = height;
}

export function fbm(x: number, y: number, px: number, py: number, s: number, oct: number): number {
  return gradientFbm(x, y, px, py, s, oct, IMG_W, IMG_H);
}

// Scratch outputs of the helpers that return several values (worley, dots, layouts). They live in
// typed arrays: storing doubles into module-level `let`s would box a HeapNumber on every write.
/** worley(): [F1, F2, id of nearest point, dx, dy to it] */
export const WOR = new Float64Array(5);
/** layouts: [along, across, block length, block width, block id, orientation] */
export const LAY = new Float64Array(6);
/** tile layouts: [distance to joint centre, id, local x, local y, local u, local v, alternate] */
export const TIL = new Float64Array(7);
/** [dot id, leaf ink] */
export const MISC = new Float64Array(2);

/** Coverage (0..1) of at most one round dot per lattice cell — cheap pores, flecks and pits.
 * prob: chance a cell has a dot; radii in cell units (≤ 0.5); aa: half anti-alias width in cell units. */
export function dots(x: number, y: number, px: number, py: number, s: number, prob: number, rMin: number, rMax: number, aa: number): number {
  const cx = Math.floor(x), cy = Math.floor(y);
  let wx = cx % px;
  if (wx < 0) wx += px;
  let wy = cy % py;
  if (wy < 0) wy += py;
  const h = hashInt(wx, wy, s);
  if ((h & 0xffff) / 65536 >= prob) return 0;
  const h2 = hashInt(wx, wy, s + 1);
  MISC[0] = h2;
  const r = rMin + (rMax - rMin) * ((h2 & 0xff) / 255);
  const ox = cx + r + (1 - 2 * r) * (((h2 >>> 8) & 0xfff) / 4095) - x;
  const oy = cy + r + (1 - 2 * r) * ((h2 >>> 20) / 4095) - y;
  const d = Math.sqrt(ox * ox + oy * oy);
  return 1 - sstep(r - aa, r + aa, d);
}

/** One pixel's colour into an RGB buffer at offset `o`. */
export function putRgb(buf: Float32Array | Uint8ClampedArray, o: number, r: number, g: number, b: number): void {
  buf[o] = r;
  buf[o + 1] = g;
  buf[o + 2] = b;
}

export function sstep(e0: number, e1: number, x: number): number {
  let t = (x - e0) / (e1 - e0);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return t * t * (3 - 2 * t);
}

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}

/** Number of whole periods of `feature` cm that fit in `span` cm (at least 1). */
export function per(span: number, feature: number): number {
  return Math.max(1, Math.round(span / feature));
}

/** Like per() but a multiple of `k` (patterns whose repeat spans k cells). */
export function perMul(span: number, feature: number, k: number): number {
  return Math.max(k, Math.round(span / feature / k) * k);
}

// ---------------------------------------------------------------------------------------------
// Render context
// ---------------------------------------------------------------------------------------------

export interface Ctx {
  readonly w: number;
  readonly h: number;
  readonly seed: number;
  /** Real-world extent of the image, cm. */
  readonly spanX: number;
  readonly spanY: number;
  /** cm per pixel. */
  readonly cm: number;
  readonly out: Uint8ClampedArray;
}

/** Bakes small-scale relief: out = col × (1 + slope towards an upper-left light). Height in cm. */
export function relief(c: Ctx, col: Float32Array, hgt: Float32Array, k: number): void {
  const { w, h, out } = c;
  if (k === 0) {
    out.set(col);
    return;
  }
  const f = (k * Math.SQRT1_2) / (2 * c.cm);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    const up = (y === 0 ? h - 1 : y - 1) * w;
    const dn = (y === h - 1 ? 0 : y + 1) * w;
    for (let x = 0; x < w; x++) {
      const xl = x === 0 ? w - 1 : x - 1;
      const xr = x === w - 1 ? 0 : x + 1;
      const sx = hgt[row + xr]! - hgt[row + xl]!;
      const sy = hgt[dn + x]! - hgt[up + x]!;
      let s = 1 + (sx + sy) * f;
      s = s < 0.25 ? 0.25 : s > 1.75 ? 1.75 : s;
      const i = row + x, o = i * 3;
      out[o] = col[o]! * s;
      out[o + 1] = col[o + 1]! * s;
      out[o + 2] = col[o + 2]! * s;
    }
  }
}

/**
 * A smooth periodic field fn(u, v) evaluated on a coarse grid and bilinearly upsampled. Used for
 * low-frequency layers (warps, clouds) whose finest detail spans `detailPx` pixels or more.
 */
export function lowField(c: Ctx, detailPx: number, fn: (u: number, v: number) => number): Float32Array {
  const { w, h } = c;
  const out = new Float32Array(w * h);
  const step = Math.max(1, Math.min(8, Math.floor(detailPx / 6)));
  if (step === 1) {
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = fn((x + 0.5) / w, (y + 0.5) / h);
    return out;
  }
  const gw = Math.floor((w - 1) / step) + 2, gh = Math.floor((h - 1) / step) + 2;
  const g = new Float32Array(gw * gh);
  for (let j = 0; j < gh; j++) for (let i = 0; i < gw; i++) g[j * gw + i] = fn((i * step + 0.5) / w, (j * step + 0.5) / h);
  const inv = 1 / step;
  for (let y = 0; y < h; y++) {
    const j = Math.floor(y * inv), ty = (y - j * step) * inv;
    const r0 = j * gw, r1 = r0 + gw;
    for (let x = 0; x < w; x++) {
      const i = Math.floor(x * inv), tx = (x - i * step) * inv;
      const a = g[r0 + i]! + (g[r0 + i + 1]! - g[r0 + i]!) * tx;
      const b = g[r1 + i]! + (g[r1 + i + 1]! - g[r1 + i]!) * tx;
      out[y * w + x] = a + (b - a) * ty;
    }
  }
  return out;
}

export const XY = new Float64Array(2);

/**
 * fbm(X, Y) over a lattice of (px, py) cells across the image, as a per-pixel field. `coords`
 * writes the (possibly warped) lattice coordinates of (u, v) into XY; `i` is the pixel index, or
 * -1 on the coarse grid. Octaves coarser than ~16 px are evaluated on the coarse grid and
 * interpolated, finer ones per pixel — same result as fbm(), a fraction of the cost.
 */
export function fbmField(c: Ctx, px: number, py: number, s: number, oct: number, coords: (u: number, v: number, i: number) => void): Float32Array {
  const { w, h } = c;
  const cell0 = Math.min(w / px, h / py) * 0.7;
  let kLow = 0, norm = 0, amp = 1;
  for (let k = 0; k < oct; k++) {
    const cell = cell0 / 2 ** k;
    if (k > 0 && cell < 1.5) break;
    if (cell >= 16) kLow = k + 1;
    norm += amp;
    amp *= 0.5;
  }
  const nOct = Math.round(Math.log2(1 / amp));
  const inv = 1 / norm;
  const low =
    kLow > 0
      ? lowField(c, cell0 / 2 ** (kLow - 1), (u, v) => {
          coords(u, v, -1);
          let sum = 0, a = 1, f = 1;
          for (let k = 0; k < kLow; k++) {
            sum += a * gradientNoise(XY[0]! * f, XY[1]! * f, px * f, py * f, s + k * 131);
            a *= 0.5;
            f *= 2;
          }
          return sum;
        })
      : new Float32Array(w * h);
  if (nOct > kLow) {
    const f0 = 2 ** kLow, a0 = 0.5 ** kLow;
    for (let y = 0; y < h; y++) {
      const v = (y + 0.5) / h;
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        coords((x + 0.5) / w, v, i);
        let sum = 0, a = a0, f = f0;
        for (let k = kLow; k < nOct; k++) {
          sum += a * gradientNoise(XY[0]! * f, XY[1]! * f, px * f, py * f, s + k * 131);
          a *= 0.5;
          f *= 2;
        }
        low[i] = (low[i]! + sum) * inv;
      }
    }
  } else {
    for (let i = 0; i < w * h; i++) low[i] = low[i]! * inv;
  }
  return low;
}

/** Bilinear lookup of a per-pixel periodic field at normalised (u, v). */
export function sampleField(f: Float32Array, w: number, h: number, u: number, v: number): number {
  const x = u * w - 0.5, y = v * h - 0.5;
  const xf = Math.floor(x), yf = Math.floor(y);
  const tx = x - xf, ty = y - yf;
  const x0 = mod(xf, w), y0 = mod(yf, h);
  const x1 = x0 + 1 === w ? 0 : x0 + 1, y1 = y0 + 1 === h ? 0 : y0 + 1;
  const a = f[y0 * w + x0]! + (f[y0 * w + x1]! - f[y0 * w + x0]!) * tx;
  const b = f[y1 * w + x0]! + (f[y1 * w + x1]! - f[y1 * w + x0]!) * tx;
  return a + (b - a) * ty;
}

// ---------------------------------------------------------------------------------------------
// Layouts shared by wood, tiles and bricks. Outputs via scratch variables.
// ---------------------------------------------------------------------------------------------


/**
 * Herringbone of w × (n·w) blocks, rotated 45° so the zigzag runs horizontally.
 * Repeats every √2·w in x and √2·n·w in y; nx, ny: repeats across the image (for id wrapping).
 */
export function herringbone(X: number, Y: number, w: number, n: number, nx: number, ny: number): void {
  const qx = ((X - Y) * Math.SQRT1_2) / w;
  const qy = ((X + Y) * Math.SQRT1_2) / w;
  const cx = Math.floor(qx), cy = Math.floor(qy);
  const d = cx - cy, n2 = 2 * n;
  const m = mod(d, n2);
  const band = (d - m) / n2;
  const bm = mod(band, ny);
  const q = (band - bm) / ny;
  if (m < n) {
    // Block lying along qx. One image period in y shifts (cy, band) by (+n, -1).
    LAY[0] = (qx - (cy + band * n2)) * w;
    LAY[1] = (qy - cy) * w;
    LAY[4] = hashInt(mod(cy + q * n * ny, nx), bm, 101);
    LAY[5] = 0;
  } else {
    const k = m - n;
    LAY[0] = (qy - (cy + k - n + 1)) * w;
    LAY[1] = (qx - cx) * w;
    LAY[4] = hashInt(mod(cx - q * n * ny, nx), bm, 202);
    LAY[5] = 1;
  }
  LAY[2] = n * w;
  LAY[3] = w;
}

/** Chevron: blocks with 45° ends, columns of width L·cos45 alternating direction (nCols even). */
export function chevron(X: number, Y: number, w: number, L: number, nCols: number, nRows: number): void {
  const colW = L * Math.SQRT1_2, pitch = w * Math.SQRT2;
  const i = Math.floor(X / colW);
  const xl = X - i * colW;
  const iw = mod(i, nCols);
  const yp = iw & 1 ? Y + colW - xl : Y + xl;
  const k = Math.floor(yp / pitch);
  LAY[1] = (yp - k * pitch) * Math.SQRT1_2;
  LAY[0] = xl * Math.SQRT2;
  LAY[2] = L;
  LAY[3] = w;
  LAY[4] = hashInt(iw, mod(k, nRows), 303);
  LAY[5] = iw & 1;
}

/** Basketweave parquet: square blocks of k strips, alternating direction (nb blocks across, even). */
export function basketweave(X: number, Y: number, B: number, k: number, nbx: number, nby: number): void {
  const bi = Math.floor(X / B), bj = Math.floor(Y / B);
  const lx = X - bi * B, ly = Y - bj * B;
  const sw = B / k;
  const biw = mod(bi, nbx), bjw = mod(bj, nby);
  if (((biw + bjw) & 1) === 0) {
    const s = Math.floor(ly / sw);
    LAY[1] = ly - s * sw;
    LAY[0] = lx;
    LAY[4] = hashInt(biw * 64 + s, bjw, 404);
    LAY[5] = 0;
  } else {
    const s = Math.floor(lx / sw);
    LAY[1] = lx - s * sw;
    LAY[0] = ly;
    LAY[4] = hashInt(biw * 64 + s, bjw, 505);
    LAY[5] = 1;
  }
  LAY[2] = B;
  LAY[3] = sw;
}
