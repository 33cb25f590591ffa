/**
 * Procedural material swatches: turns a catalogue `MaterialTexture` recipe into raw RGB pixels.
 *
 * Design notes
 * - Everything is evenly lit (no vignette, no global gradient) because the image engine multiplies
 *   the photo's own shading on top; only small-scale relief (grout bevels, flutes, brick faces) is
 *   baked in.
 * - Physical scale: the swatch width spans `spanCm` centimetres (default per recipe, see
 *   `defaultSpanCm`), so the engine can ask for a plank/tile scale that matches the room.
 * - Tileable: noise lattices and layouts use an integer number of periods across the image
 *   (sizes are nudged by a few percent to fit), so a swatch repeats seamlessly. Exceptions:
 *   veneer sheets (one flitch) and, for non-square images, the diagonal marble lattice vertically.
 * - Deterministic: all randomness comes from integer hashing of (lattice cell, seed).
 * - Fast (1024² in roughly 0.1–0.35 s on one core): flat loops over typed arrays and no per-pixel
 *   allocation — helpers that return several values write into typed-array scratch slots;
 *   smooth low-frequency layers are evaluated on a coarse grid and interpolated (lowField,
 *   fbmField); fbm skips octaves finer than a pixel.
 */
import sharp from 'sharp';
import { deltaE76, parseHex, srgbFloatsToLab } from '@/server/engine/builtin/color';
import { gradientFbm, gradientNoise, hash2, hashInt, NOWRAP, worley } from '@/server/engine/builtin/noise';
import {
  getEditMaterial,
  type BrickTexture,
  type ConcreteTexture,
  type FabricTexture,
  type GlassTexture,
  type MarbleTexture,
  type MaterialTexture,
  type MetalTexture,
  type PaintTexture,
  type PanelTexture,
  type PlasterTexture,
  type StoneTexture,
  type TerrazzoTexture,
  type TilesTexture,
  type WallpaperTexture,
  type WoodTexture,
} from '@/server/reference/catalog';

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

function fbm(x: number, y: number, px: number, py: number, s: number, oct: number): number {
  return gradientFbm(x, y, px, py, s, oct, IMG_W, IMG_H);
}

// Scratch outputs of the helpers that return several values (worley, dots, layouts). They live in
// typed arrays: storing doubles into module-level `let`s would box a HeapNumber on every write.
/** worley(): [F1, F2, id of nearest point, dx, dy to it] */
const WOR = new Float64Array(5);
/** layouts: [along, across, block length, block width, block id, orientation] */
const LAY = new Float64Array(6);
/** tile layouts: [distance to joint centre, id, local x, local y, local u, local v, alternate] */
const TIL = new Float64Array(7);
/** [dot id, leaf ink] */
const MISC = new Float64Array(2);

/** Coverage (0..1) of at most one round dot per lattice cell — cheap pores, flecks and pits.
 * prob: chance a cell has a dot; radii in cell units (≤ 0.5); aa: half anti-alias width in cell units. */
function dots(x: number, y: number, px: number, py: number, s: number, prob: number, rMin: number, rMax: number, aa: number): number {
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
function putRgb(buf: Float32Array | Uint8ClampedArray, o: number, r: number, g: number, b: number): void {
  buf[o] = r;
  buf[o + 1] = g;
  buf[o + 2] = b;
}

function sstep(e0: number, e1: number, x: number): number {
  let t = (x - e0) / (e1 - e0);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return t * t * (3 - 2 * t);
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}

/** Number of whole periods of `feature` cm that fit in `span` cm (at least 1). */
function per(span: number, feature: number): number {
  return Math.max(1, Math.round(span / feature));
}

/** Like per() but a multiple of `k` (patterns whose repeat spans k cells). */
function perMul(span: number, feature: number, k: number): number {
  return Math.max(k, Math.round(span / feature / k) * k);
}

// ---------------------------------------------------------------------------------------------
// Render context
// ---------------------------------------------------------------------------------------------

interface Ctx {
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
function relief(c: Ctx, col: Float32Array, hgt: Float32Array, k: number): void {
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
function lowField(c: Ctx, detailPx: number, fn: (u: number, v: number) => number): Float32Array {
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

const XY = new Float64Array(2);

/**
 * fbm(X, Y) over a lattice of (px, py) cells across the image, as a per-pixel field. `coords`
 * writes the (possibly warped) lattice coordinates of (u, v) into XY; `i` is the pixel index, or
 * -1 on the coarse grid. Octaves coarser than ~16 px are evaluated on the coarse grid and
 * interpolated, finer ones per pixel — same result as fbm(), a fraction of the cost.
 */
function fbmField(c: Ctx, px: number, py: number, s: number, oct: number, coords: (u: number, v: number, i: number) => void): Float32Array {
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
function sampleField(f: Float32Array, w: number, h: number, u: number, v: number): number {
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
// Paint
// ---------------------------------------------------------------------------------------------

const SHEEN_AMP: Record<PaintTexture['sheen'], number> = {
  flat: 9,
  matte: 8,
  eggshell: 7,
  satin: 6,
  semi_gloss: 5,
  gloss: 4.5,
};

function renderPaint(c: Ctx, t: PaintTexture): void {
  const { w, h, out, seed } = c;
  const [r, g, b] = hexToRgb(t.color);
  const amp = SHEEN_AMP[t.sheen];
  // Roller stipple (~3 mm) plus faint lap marks (~25 cm).
  const ax = per(c.spanX, 0.3), ay = per(c.spanY, 0.3);
  const bx = per(c.spanX, 25), by = per(c.spanY, 25);
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const n = fbm(u * ax, v * ay, ax, ay, seed, 2) + 0.5 * gradientNoise(u * bx, v * by, bx, by, seed + 7);
      const d = n * amp; // additive so that dark paints still show the texture
      const o = (y * w + x) * 3;
      out[o] = r + d;
      out[o + 1] = g + d;
      out[o + 2] = b + d;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Plaster (limewash, venetian, tadelakt, stucco, clay)
// ---------------------------------------------------------------------------------------------

function renderPlaster(c: Ctx, t: PlasterTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [sr, sg, sb] = hexToRgb(t.shade);
  const dr = sr - br, dg = sg - bg, db = sb - bb;
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const st = t.style;
  const cloud = st === 'tadelakt' ? 18 : st === 'stucco' ? 40 : 30;
  const cx = per(c.spanX, cloud), cy = per(c.spanY, cloud);
  const grainCm = st === 'stucco' ? 1.2 : 0.15;
  const gx = per(c.spanX, grainCm), gy = per(c.spanY, grainCm);
  // Brush / trowel strokes on two crossing diagonals: A = k·(u ± v) keeps the lattice periodic.
  const kL = per(c.spanX, st === 'venetian' ? 12 : 20), kW = per(c.spanX, st === 'venetian' ? 4 : 4);
  const warpF = lowField(c, w / cx / 4, (u, v) => fbm(u * cx, v * cy, cx, cy, seed + 1, 3));
  const nF = fbmField(c, cx, cy, seed + 3, st === 'stucco' ? 4 : 5, (u, v, i) => {
    const q = i >= 0 ? warpF[i]! : sampleField(warpF, w, h, u, v);
    XY[0] = u * cx + 0.5 * q;
    XY[1] = v * cy - 0.5 * q;
  });
  let reliefK = 0;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const i = y * w + x;
      const q = warpF[i]!;
      const X = u * cx + 0.5 * q, Y = v * cy - 0.5 * q;
      let tone = 0, light = 0, height = 0;
      switch (st) {
        case 'limewash': {
          const n = nF[i]!;
          const s1 = gradientNoise(kL * (u + v) + 2 * q, kW * (v - u) + 1.5 * q, kL, kW, seed + 4);
          const s2 = gradientNoise(kL * (u - v) - 2 * q, kW * (u + v) + 1.5 * q, kL, kW, seed + 5);
          const pick = fbm(X * 2, Y * 2, cx * 2, cy * 2, seed + 6, 2);
          tone = 2.1 * n + 0.16 * (pick > 0 ? s1 : s2);
          break;
        }
        case 'venetian': {
          // Overlapping trowel patches with crisp edges, lightly burnished.
          const n = nF[i]!;
          const s1 = gradientNoise(kL * (u + v) + 2 * q, kW * (v - u), kL, kW, seed + 4);
          const s2 = gradientNoise(kL * (u - v), kW * (u + v) + 2 * q, kL, kW, seed + 5);
          const patch = sstep(0.1, 0.3, s1) - sstep(0.1, 0.3, s2);
          tone = 1.7 * n + 0.22 * patch;
          light = 14 * sstep(0.15, 0.45, s1 * s2 + 0.5 * n);
          tone -= 0.3 * light / 14;
          break;
        }
        case 'tadelakt': {
          const n = nF[i]!;
          tone = 1.5 * n;
          height = 0.05 * n;
          light = 6 * sstep(0.1, 0.4, n);
          reliefK = 0.8;
          break;
        }
        case 'stucco': {
          const n = nF[i]!;
          const bump = fbm(u * gx, v * gy, gx, gy, seed + 6, 4);
          tone = 0.9 * n - 0.8 * bump;
          height = 0.22 * bump;
          reliefK = 1.1;
          break;
        }
        case 'clay': {
          const n = nF[i]!;
          const sand = gradientNoise(u * gx, v * gy, gx, gy, seed + 6);
          tone = 1.8 * n + 0.35 * sand;
          height = 0.015 * sand;
          reliefK = 0.8;
          break;
        }
      }
      const o = i * 3;
      col[o] = br + dr * tone + light;
      col[o + 1] = bg + dg * tone + light;
      col[o + 2] = bb + db * tone + light;
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, reliefK);
}

// ---------------------------------------------------------------------------------------------
// Concrete
// ---------------------------------------------------------------------------------------------

function renderConcrete(c: Ctx, t: ConcreteTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [ar, ag, ab] = t.aggregate ? hexToRgb(t.aggregate) : [br * 0.72, bg * 0.72, bb * 0.72];
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const mx = per(c.spanX, 45), my = per(c.spanY, 45);
  const px = per(c.spanX, 0.9), py = per(c.spanY, 0.9); // pinholes
  const qx = per(c.spanX, 1.1), qy = per(c.spanY, 1.1); // aggregate
  const fx = per(c.spanX, 0.12), fy = per(c.spanY, 0.12); // sand grain
  const boardH = 14;
  const nb = per(c.spanY, boardH);
  const wx = per(c.spanX, 30), wy = per(c.spanY, 0.45); // board wood-grain imprint
  const aaP = (px / w) * 0.75;
  const aaQ = (qx / w) * 0.75;
  const st = t.style;
  const mottleAmp = st === 'microcement' ? 0.2 : st === 'raw' ? 0.13 : st === 'board_formed' ? 0.1 : 0.1;
  const pinProb = st === 'raw' ? 0.4 : st === 'board_formed' ? 0.35 : st === 'polished' ? 0.04 : 0.03;
  const mottleF = lowField(c, w / mx / 8, (u, v) => {
    const q = fbm(u * mx, v * my, mx, my, seed + 1, 3);
    return fbm(u * mx + (st === 'microcement' ? 0.6 : 1.0) * q, v * my - 0.6 * q, mx, my, seed + 2, 5);
  });
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const X = u * mx, Y = v * my;
      const q = mottleF[y * w + x]!;
      let m = q * mottleAmp * 2.2;
      m += gradientNoise(u * fx, v * fy, fx, fy, seed + 3) * 0.025;
      let r = br, g = bg, b = bb, height = 0;
      if (st === 'microcement') {
        // Trowel marks: thin lighter arcs along zero-crossings of a warped layer.
        const tr = fbm(X * 2 + 2 * q, Y * 2, mx * 2, my * 2, seed + 4, 4);
        m += (1 - sstep(0, 0.06, Math.abs(tr))) * 0.05;
      }
      if (st === 'polished') {
        // Ground-through aggregate: small angular stones of varied tone.
        worley(u * qx, v * qy, qx, qy, seed + 5, 1, WOR);
        const a = (WOR[2]! & 0xff) < 90 ? sstep(0.3 - aaQ, 0.3 + aaQ, WOR[1]! - WOR[0]!) : 0;
        if (a > 0) {
          const tone = 0.8 + 0.45 * ((WOR[2]! >>> 24) / 255);
          r += (ar * tone - r) * a;
          g += (ag * tone - g) * a;
          b += (ab * tone - b) * a;
        }
      }
      if (st === 'board_formed') {
        const by = v * nb;
        const j = Math.floor(by);
        const ly = (by - j) * (c.spanY / nb); // cm inside the board
        m += (hash2(mod(j, nb), 0, seed + 6) - 0.5) * 0.12;
        m += fbm(u * wx, v * wy, wx, wy, seed + 7, 3) * 0.09;
        const seam = Math.min(ly, c.spanY / nb - ly);
        const sw = Math.max(0.18, c.cm * 0.9);
        height = sstep(0, sw * 2, seam) * 0.25;
        m -= (1 - sstep(0, sw, seam)) * 0.22;
      }
      const pin = dots(u * px, v * py, px, py, seed + 8, pinProb, 0.04, 0.13, aaP);
      m -= pin * 0.4;
      const f = 1 + m;
      const i = y * w + x, o = i * 3;
      col[o] = r * f;
      col[o + 1] = g * f;
      col[o + 2] = b * f;
      hgt[i] = height - pin * 0.05;
    }
  }
  relief(c, col, hgt, 0.6);
}

// ---------------------------------------------------------------------------------------------
// Terrazzo
// ---------------------------------------------------------------------------------------------

function renderTerrazzo(c: Ctx, t: TerrazzoTexture): void {
  const { w, h, out, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const chips = t.chips.length > 0 ? t.chips.map(hexToRgb) : [hexToRgb(t.base)];
  const n = chips.length;
  const chipR = new Float64Array(n), chipG = new Float64Array(n), chipB = new Float64Array(n);
  chips.forEach(([r, g, b], k) => {
    chipR[k] = r;
    chipG[k] = g;
    chipB[k] = b;
  });
  const ax = per(c.spanX, t.chipCm * 1.35), ay = per(c.spanY, t.chipCm * 1.35);
  const sx = per(c.spanX, t.chipCm * 0.45), sy = per(c.spanY, t.chipCm * 0.45);
  const gx = per(c.spanX, 0.1), gy = per(c.spanY, 0.1);
  const aaA = ax / w, aaS = sx / w;
  const dens = clamp01(t.density);
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const grain = gradientNoise(u * gx, v * gy, gx, gy, seed) * 5;
      let r = br + grain, g = bg + grain, b = bb + grain;
      // Small chips first, large ones on top.
      worley(u * sx, v * sy, sx, sy, seed + 1, 0.95, WOR);
      if ((WOR[2]! & 0xffff) / 65536 < 0.5) {
        const cov = sstep(0.3 - aaS, 0.3 + aaS, WOR[1]! - WOR[0]!);
        const k = (WOR[2]! >>> 16) % n;
        const tone = 0.9 + 0.2 * ((WOR[2]! >>> 8) & 0xff) / 255;
        r += (chipR[k]! * tone - r) * cov;
        g += (chipG[k]! * tone - g) * cov;
        b += (chipB[k]! * tone - b) * cov;
      }
      worley(u * ax, v * ay, ax, ay, seed + 2, 0.95, WOR);
      if ((WOR[2]! & 0xffff) / 65536 < dens) {
        const cov = sstep(0.16 - aaA, 0.16 + aaA, WOR[1]! - WOR[0]!);
        const k = (WOR[2]! >>> 16) % n;
        const tone = 0.88 + 0.24 * ((WOR[2]! >>> 8) & 0xff) / 255;
        const inner = 1 + 0.05 * gradientNoise(u * gx * 0.3, v * gy * 0.3, Math.round(gx * 0.3) || 1, Math.round(gy * 0.3) || 1, seed + 3);
        r += (chipR[k]! * tone * inner - r) * cov;
        g += (chipG[k]! * tone * inner - g) * cov;
        b += (chipB[k]! * tone * inner - b) * cov;
      }
      putRgb(out, (y * w + x) * 3, r, g, b);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Layouts shared by wood, tiles and bricks. Outputs via scratch variables.
// ---------------------------------------------------------------------------------------------


/**
 * Herringbone of w × (n·w) blocks, rotated 45° so the zigzag runs horizontally.
 * Repeats every √2·w in x and √2·n·w in y; nx, ny: repeats across the image (for id wrapping).
 */
function herringbone(X: number, Y: number, w: number, n: number, nx: number, ny: number): void {
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
function chevron(X: number, Y: number, w: number, L: number, nCols: number, nRows: number): void {
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
function basketweave(X: number, Y: number, B: number, k: number, nbx: number, nby: number): void {
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

// ---------------------------------------------------------------------------------------------
// Wood
// ---------------------------------------------------------------------------------------------

interface WoodParams {
  readonly figure: WoodTexture['figure'];
  readonly ring: number;
  readonly contrast: number;
  readonly knots: number;
  /** cm per pixel: detail finer than a pixel is faded to its mean instead of aliasing. */
  readonly cm: number;
}

/**
 * Figure tone of a point in plank coordinates (a along the plank, cc across, cm), for plank `id`.
 * Returns roughly -0.5 (earlywood, lighter than base) .. 1 (latewood = grain colour); mean ≈ 0.
 */
function woodTone(a: number, cc: number, width: number, id: number, p: WoodParams): number {
  const s = id | 0;
  const r1 = hash2(s, 1, 11), r2 = hash2(s, 2, 11), r3 = hash2(s, 3, 11), r4 = hash2(s, 4, 11);
  let t: number;
  if (p.figure === 'cathedral') {
    // Flat-sawn board: rings are circles around the pith, cut by a plane `depth` away. The board
    // runs slightly askew through the tapering log, so rings drift steadily along its length and
    // draw nested arches (cathedrals).
    const c0 = (0.2 + 0.6 * r1) * width;
    const depth = 0.3 + r2 * 1.6;
    const dc = cc - c0;
    const rad = Math.sqrt(dc * dc + depth * depth);
    const taper = (r3 < 0.5 ? -1 : 1) * (0.06 + 0.08 * r4);
    const drift = a * taper + 1.5 * gradientNoise(a / 110 + r1 * 31, r2 * 7 + 0.5, NOWRAP, NOWRAP, s);
    const warp = 0.3 * gradientNoise(a / 16, cc / 3, NOWRAP, NOWRAP, s + 1);
    t = (rad + drift) / p.ring + warp;
  } else {
    // Rift / quarter sawn: near-parallel lines with gentle waves and slight runout.
    const warp = 0.9 * gradientNoise(a / 60 + r3 * 40, cc / 9, NOWRAP, NOWRAP, s) + 0.2 * gradientNoise(a / 10, cc / 1.5, NOWRAP, NOWRAP, s + 1);
    t = (cc + r1 * 37 + a * 0.008 * (r2 - 0.5)) / p.ring + warp;
  }
  let knot = 0;
  if (p.knots > 0 && r3 < p.knots) {
    // A knot: rings swirl around an elliptic dark core.
    const ka = (0.15 + 0.7 * r4) * 60, kc = (0.25 + 0.5 * hash2(s, 5, 11)) * width;
    const da = (a % 60) - ka, dk = cc - kc;
    const dd = Math.sqrt(da * da * 0.12 + dk * dk);
    t += 3.2 / (0.6 + dd);
    if (dd < 1.1) knot = 1 - sstep(0.7, 1.1, dd);
  }
  // Fine rings: slow earlywood→latewood ramp with an abrupt reset; faded out when sub-pixel.
  const fineW = sstep(1.2, 3.5, p.ring / p.cm);
  const f = t - Math.floor(t);
  const late = f * f * f;
  // Growth periods: runs of darker and lighter rings that keep the figure visible at any scale.
  const period = gradientNoise(t / 4.5, r1 * 13 + 0.5, NOWRAP, NOWRAP, s + 5);
  let tone = p.contrast * (1.3 * (late - 0.25) * fineW + 0.75 * period);
  // Fibres and pores: fine streaks stretched along the plank, never finer than a pixel.
  const pc = Math.min(p.contrast, 0.6) * Math.min(1, 0.45 / p.ring);
  tone += 0.2 * pc * gradientNoise(a / 2.2, cc / Math.max(0.045, 1.3 * p.cm), NOWRAP, NOWRAP, s + 2);
  const pore = gradientNoise(a / Math.max(0.5, 4 * p.cm), cc / Math.max(0.06, 1.3 * p.cm), NOWRAP, NOWRAP, s + 3);
  tone += 0.3 * pc * (sstep(0.35, 0.7, pore) - 0.05);
  if (p.figure === 'quarter') {
    // Medullary ray flecks: lighter ribbons across the grain.
    const ray = gradientNoise(a / 1.6, cc / Math.max(0.45, 2 * p.cm) + a * 0.05, NOWRAP, NOWRAP, s + 4);
    tone -= 0.5 * sstep(0.3, 0.65, ray);
  }
  return knot > 0 ? tone + (1.4 - tone) * knot : tone;
}

/** Burl: swirling figure over the whole sheet, with clusters of small dark eyes. q, q2: smooth warps. */
function burlTone(u: number, v: number, q: number, q2: number, swirl: number, c: Ctx, p: WoodParams, bx: number, by: number, ex: number, ey: number): number {
  const seed = c.seed;
  const sw = swirl;
  const t = sw * 9;
  const f = t - Math.floor(t);
  const fineW = sstep(1.2, 3.5, (0.12 * bx) / (p.cm * 9));
  let tone = p.contrast * ((f * f - 0.33) * 1.3 * fineW + 0.9 * gradientNoise(t / 3, 0.5, NOWRAP, NOWRAP, seed + 7)) + 0.4 * q;
  worley(u * ex + 0.4 * q, v * ey + 0.4 * q2, ex, ey, seed + 3, 0.9, WOR);
  const cluster = 0.25 + 0.6 * sstep(-0.1, 0.3, q2);
  if ((WOR[2]! & 0xff) < 255 * cluster) {
    const eye = 1 - sstep(0.05, 0.14, WOR[0]!);
    const halo = 1 - sstep(0.1, 0.4, WOR[0]!);
    tone += 0.9 * eye + 0.3 * halo;
  }
  return tone + 0.12 * gradientNoise(u * ex * 6, v * ey * 6, ex * 6, ey * 6, seed + 4);
}

function renderWood(c: Ctx, t: WoodTexture): void {
  const { w, h, out, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [gr, gg, gb] = hexToRgb(t.grain);
  const [fr, fg, fb] = t.gap ? hexToRgb(t.gap) : [20, 18, 16];
  const dr = gr - br, dg = gg - bg, db = gb - bb;
  const p: WoodParams = {
    figure: t.figure,
    ring: t.ringCm ?? 0.35,
    contrast: t.contrast ?? 0.55,
    knots: t.knots ?? 0,
    cm: c.cm,
  };
  const pat = t.plank.pattern;
  const W = t.plank.widthCm, Lp = t.plank.lengthCm;
  // Per-pattern fit to whole repeats, as scale factors applied to cm coordinates.
  let kx = 1, ky = 1, nx = 1, ny = 1, n = 1, Wf = W, Lf = Lp;
  const gapCm = t.plank.gapCm ?? 1;
  switch (pat) {
    case 'straight':
      ny = per(c.spanY, W);
      nx = per(c.spanX, Lp);
      Wf = c.spanY / ny;
      Lf = c.spanX / nx;
      break;
    case 'herringbone':
      n = Math.max(2, Math.round(Lp / W));
      nx = per(c.spanX, W * Math.SQRT2);
      ny = per(c.spanY, W * n * Math.SQRT2);
      kx = (nx * W * Math.SQRT2) / c.spanX;
      ky = (ny * W * n * Math.SQRT2) / c.spanY;
      break;
    case 'chevron':
      nx = perMul(c.spanX, Lp * Math.SQRT1_2, 2);
      ny = per(c.spanY, W * Math.SQRT2);
      kx = (nx * Lp * Math.SQRT1_2) / c.spanX;
      ky = (ny * W * Math.SQRT2) / c.spanY;
      break;
    case 'basketweave':
      n = Math.max(2, Math.round(Lp / W));
      nx = perMul(c.spanX, Lp, 2);
      ny = perMul(c.spanY, Lp, 2);
      kx = (nx * Lp) / c.spanX;
      ky = (ny * Lp) / c.spanY;
      break;
    case 'slats':
      nx = per(c.spanX, W + gapCm);
      kx = (nx * (W + gapCm)) / c.spanX;
      break;
    case 'veneer':
      break;
  }
  // The layouts shared with tiles and bricks, by pattern (each writes its plank into LAY).
  const SHARED_LAYOUTS: Partial<Record<typeof pat, (X: number, Y: number) => void>> = {
    herringbone: (X, Y) => herringbone(X, Y, W, n, nx, ny),
    chevron: (X, Y) => chevron(X, Y, W, Lp, nx, ny),
    basketweave: (X, Y) => basketweave(X, Y, Lp, n, nx, ny),
  };
  const sharedLayout = SHARED_LAYOUTS[pat];
  const seamW = Math.max(0.08, c.cm * 0.8);
  // Burl: swirling figure on a periodic lattice, independent of planks.
  const bx = per(c.spanX, 9), by = per(c.spanY, 9);
  const ex = per(c.spanX, 0.9), ey = per(c.spanY, 0.9);
  const burl = t.figure === 'burl';
  const burlQ = burl ? lowField(c, w / bx / 4, (u, v) => fbm(u * bx, v * by, bx, by, seed + 1, 3)) : new Float32Array(0);
  const burlQ2 = burl ? lowField(c, w / bx / 4, (u, v) => fbm(u * bx + 4.1, v * by + 2.3, bx, by, seed + 6, 3)) : new Float32Array(0);
  const burlS = burl
    ? fbmField(c, bx * 2, by * 2, seed + 2, 4, (u, v, i) => {
        XY[0] = u * bx * 2 + 3 * (i >= 0 ? burlQ[i]! : sampleField(burlQ, w, h, u, v));
        XY[1] = v * by * 2 + 3 * (i >= 0 ? burlQ2[i]! : sampleField(burlQ2, w, h, u, v));
      })
    : new Float32Array(0);
  for (let y = 0; y < h; y++) {
    const Y = (y + 0.5) * c.cm * ky;
    for (let x = 0; x < w; x++) {
      const X = (x + 0.5) * c.cm * kx;
      let along: number, across: number, len: number, wid: number, id: number, inGap = 0;
      switch (pat) {
        case 'straight': {
          const j = Math.floor(Y / Wf);
          const jw = mod(j, ny);
          const xx = X + hash2(jw, 0, seed + 9) * Lf;
          const k = Math.floor(xx / Lf);
          along = xx - k * Lf;
          across = Y - j * Wf;
          len = Lf;
          wid = Wf;
          id = hashInt(jw, mod(k, nx), seed);
          break;
        }
        case 'herringbone':
        case 'chevron':
        case 'basketweave':
          sharedLayout!(X, Y);
          along = LAY[0]!;
          across = LAY[1]!;
          len = LAY[2]!;
          wid = LAY[3]!;
          id = LAY[4]! ^ seed;
          break;
        case 'slats': {
          const pitch = W + gapCm;
          const i = Math.floor(X / pitch);
          across = X - i * pitch;
          along = Y + hash2(mod(i, nx), 1, seed) * 300;
          len = 1e9;
          wid = W;
          id = hashInt(mod(i, nx), 7, seed);
          if (across > W) inGap = 1;
          break;
        }
        default:
          // One flitch: the pith sits somewhere across a ~50 cm wide sheet.
          along = X;
          across = Y;
          len = 1e9;
          wid = Math.max(40, c.spanY);
          id = seed;
      }
      const o = (y * w + x) * 3;
      if (inGap) {
        // Felt backing, with the slat's shadow falling to the right.
        const sh = 0.55 + 0.45 * sstep(0, gapCm * 0.6, across - W);
        out[o] = fr * sh;
        out[o + 1] = fg * sh;
        out[o + 2] = fb * sh;
        continue;
      }
      const tone0 = p.figure === 'burl' ? burlTone((x + 0.5) / w, (y + 0.5) / h, burlQ[y * w + x]!, burlQ2[y * w + x]!, burlS[y * w + x]!, c, p, bx, by, ex, ey) : woodTone(along, across, wid, id, p);
      let tone = tone0;
      // Plank-to-plank colour variation.
      const pv = (hash2(id, 9, 13) - 0.5) * 0.55;
      const bright = 1 + (hash2(id, 10, 13) - 0.5) * 0.1;
      tone += pv;
      // Joints: a dark hairline where boards meet, bevelled for slats.
      const ed = Math.min(along, len - along, across, wid - across);
      const seam = pat === 'veneer' ? 1 : 1 - (pat === 'slats' ? 0.5 : 0.4) * (1 - sstep(0, pat === 'slats' ? 0.25 : seamW, ed));
      const f = bright * seam;
      out[o] = (br + dr * tone) * f;
      out[o + 1] = (bg + dg * tone) * f;
      out[o + 2] = (bb + db * tone) * f;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Marble
// ---------------------------------------------------------------------------------------------

/** Pixel distance to the zero line of a stored field: |f| / |∇f| with periodic central differences. */
function veinDistance(f: Float32Array, i: number, x: number, y: number, w: number, h: number): number {
  const xl = x === 0 ? i + w - 1 : i - 1, xr = x === w - 1 ? i - w + 1 : i + 1;
  const yu = y === 0 ? i + (h - 1) * w : i - w, yd = y === h - 1 ? i - (h - 1) * w : i + w;
  const gx = (f[xr]! - f[xl]!) * 0.5, gy = (f[yd]! - f[yu]!) * 0.5;
  return Math.abs(f[i]!) / (Math.sqrt(gx * gx + gy * gy) + 1e-6);
}

function renderMarble(c: Ctx, t: MarbleTexture): void {
  const { w, h, out, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [vr, vg, vb] = hexToRgb(t.vein);
  const [ar, ag, ab] = t.accent ? hexToRgb(t.accent) : [(br + vr) / 2, (bg + vg) / 2, (bb + vb) / 2];
  const st = t.style;
  const S = t.veinScale;
  // Lattice rotated 45° and stretched along one diagonal, so veins run diagonally as in a cut slab.
  // A = fa·(u + v·ry), B = fb·(v·ry − u) stays periodic in u (and in v for square images).
  const ry = c.spanY / c.spanX;
  const fa = per(c.spanX, S * 2.4), fb = per(c.spanX, S * 0.9);
  const aPx = w / (fa * 1.41); // lattice cell size in px (roughly)
  const qa = lowField(c, aPx / 4, (u, v) => fbm(fa * (u + v * ry), fb * (v * ry - u), fa, fb, seed + 1, 3));
  const qb = lowField(c, aPx / 4, (u, v) => fbm(fa * (u + v * ry) + 5.2, fb * (v * ry - u) + 1.3, fa, fb, seed + 2, 3));
  const cloudF = lowField(c, aPx / 8, (u, v) => fbm(fa * (u + v * ry) + 2.7, fb * (v * ry - u) + 8.1, fa, fb, seed + 5, 4));
  // Vein strength drifts along each vein: veins swell, thin out and fade away.
  const modF = lowField(c, aPx / 2, (u, v) => fbm(fa * (u + v * ry) + 9.4, fb * (v * ry - u) + 3.3, fa, fb, seed + 6, 2));
  const cx = per(c.spanX, S * 0.8), cy = per(c.spanY, S * 0.8);
  const aa = 0.5 / aPx; // about one pixel in noise units near a vein
  const veined = st === 'fine' || st === 'bold' || st === 'cloudy';
  const n1F = new Float32Array(veined ? w * h : 0);
  const n2F = new Float32Array(st !== 'banded' ? w * h : 0);
  if (veined) {
    const q1At = (u: number, v: number, i: number): number => (i >= 0 ? qa[i]! : sampleField(qa, w, h, u, v));
    const q2At = (u: number, v: number, i: number): number => (i >= 0 ? qb[i]! : sampleField(qb, w, h, u, v));
    n1F.set(
      fbmField(c, fa, fb, seed + 3, 5, (u, v, i) => {
        XY[0] = fa * (u + v * ry) + 0.55 * q1At(u, v, i);
        XY[1] = fb * (v * ry - u) + 0.55 * q2At(u, v, i);
      }),
    );
  }
  if (st !== 'banded') {
    const q1At = (u: number, v: number, i: number): number => (i >= 0 ? qa[i]! : sampleField(qa, w, h, u, v));
    const q2At = (u: number, v: number, i: number): number => (i >= 0 ? qb[i]! : sampleField(qb, w, h, u, v));
    n2F.set(
      fbmField(c, 2 * fa, 2 * fb, seed + 4, 4, (u, v, i) => {
        XY[0] = 2 * fa * (u + v * ry) + 1.3 * q2At(u, v, i) + 3.1;
        XY[1] = 2 * fb * (v * ry - u) + 1.3 * q1At(u, v, i);
      }),
    );
  }
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const i = y * w + x;
      const A = fa * (u + v * ry), B = fb * (v * ry - u);
      const q1 = qa[i]!, q2 = qb[i]!, cloud = cloudF[i]!;
      const m = sstep(-0.3, 0.3, modF[i]!);
      let r = br, g = bg, b = bb;
      let vein = 0, vein2 = 0, halo = 0, cl = 0;
      if (st === 'breccia') {
        // Angular clasts (warped Voronoi cells) cemented by a pale, veined matrix.
        worley(u * cx + 0.35 * q1, v * cy + 0.35 * q2, cx, cy, seed + 7, 1, WOR);
        const e1 = WOR[1]! - WOR[0]!, id1 = WOR[2]!;
        worley(u * cx * 2.3 + 0.5 * q2, v * cy * 2.3 + 0.5 * q1, Math.round(cx * 2.3), Math.round(cy * 2.3), seed + 8, 1, WOR);
        const e2 = WOR[1]! - WOR[0]!;
        const pick = (id1 & 0xff) / 255;
        halo = pick < 0.35 ? 0.7 : pick < 0.55 ? 0.35 : 0;
        cl = 0.25 * cloud + ((id1 >>> 8) & 0xff) / 255 * 0.25 - 0.12;
        vein = 1 - sstep(0.025, 0.05 + aa * 6, e1 + 0.03 * cloud);
        vein = Math.max(vein, 0.8 * (1 - sstep(0.01, 0.03 + aa * 6, e2)) * (pick > 0.2 ? 1 : 0.4));
        vein2 = 0.45 * Math.exp(-Math.abs(n2F[i]!) / 0.01);
      } else if (st === 'banded') {
        // Onyx: many thin wavy layers of varying tone.
        const n1 = fbm(A + 0.6 * q1, B + 0.6 * q2, fa, fb, seed + 3, 4);
        const phase = B * 1.3 + 1.1 * n1;
        const s1 = 0.5 + 0.5 * Math.sin(phase * Math.PI * 2);
        const s2 = 0.5 + 0.5 * Math.sin(phase * Math.PI * 2 * 3.3 + 1.3 * q1);
        vein = 0.75 * s1 * s1 * (0.6 + 0.4 * m);
        halo = 0.55 * sstep(0.75, 0.97, s2) + 0.25 * (1 - s1) * (1 - s1);
        cl = 0.15 * cloud;
      } else {
        // Distance to the vein centre line in cm: |n| / |∇n| (gradient from the stored field),
        // so widths are physical and plateaus near zero don't flood into blobs.
        const d1 = veinDistance(n1F, i, x, y, w, h) * c.cm;
        const d2 = veinDistance(n2F, i, x, y, w, h) * c.cm;
        const hp = c.cm * 0.6;
        if (st === 'fine') {
          // Carrara: soft, feathery grey veins and grey clouds.
          const wc = (0.04 + 0.3 * m) * S / 25;
          vein = (1 - sstep(wc - hp, wc + hp, d1)) * (0.35 + 0.5 * m);
          vein = Math.max(vein, 0.35 * Math.exp(-d1 / (0.4 + 1.6 * m) * (25 / S)) * m);
          vein2 = (1 - sstep(0.03 - hp, 0.03 + hp, d2)) * 0.55 * (0.3 + 0.7 * m);
          cl = 0.28 * cloud;
        } else if (st === 'bold') {
          // Calacatta / Statuario: few, crisp, dramatic veins with a warm halo.
          const wc = (0.05 + 0.55 * m) * S / 50;
          vein = (1 - sstep(wc - hp, wc + hp, d1)) * (0.6 + 0.4 * m);
          vein = Math.max(vein, 0.4 * Math.exp(-d1 / (0.5 + 1.2 * m)) * m);
          halo = 0.55 * Math.exp(-d1 / (2.5 + 3 * m)) * m;
          vein2 = (1 - sstep(0.02 - hp, 0.02 + hp, d2)) * 0.45 * (1 - 0.6 * m);
          cl = 0.07 * cloud;
        } else {
          // Quartzite: broad soft drifts of colour with faint veins.
          vein = 0.5 * Math.exp(-d1 / (0.4 + 1.2 * m)) * (0.4 + 0.6 * m);
          halo = 0.6 * sstep(-0.15, 0.45, cloud);
          vein2 = (1 - sstep(0.04 - hp, 0.04 + hp, d2)) * 0.3;
          cl = 0.12 * cloud;
        }
      }
      // Clouds drift the ground toward (or away from) the vein colour.
      r += (vr - br) * cl;
      g += (vg - bg) * cl;
      b += (vb - bb) * cl;
      r += (ar - r) * halo;
      g += (ag - g) * halo;
      b += (ab - b) * halo;
      let va = vein + vein2 - vein * vein2;
      va = va > 1 ? 1 : va;
      r += (vr - r) * va;
      g += (vg - g) * va;
      b += (vb - b) * va;
      putRgb(out, i * 3, r, g, b);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Stone
// ---------------------------------------------------------------------------------------------

function renderStone(c: Ctx, t: StoneTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [fr, fg, fb] = hexToRgb(t.fleck);
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const st = t.style;
  const gx = per(c.spanX, 0.3), gy = per(c.spanY, 0.3);
  const mx = per(c.spanX, 14), my = per(c.spanY, 14);
  const dx = per(c.spanX, st === 'quartz' ? 0.35 : st === 'basalt' ? 0.3 : 1.1);
  const dy = per(c.spanY, st === 'quartz' ? 0.35 : st === 'basalt' ? 0.3 : 1.1);
  const sx = per(c.spanX, 50), sy = per(c.spanY, st === 'travertine' ? 2.2 : st === 'slate' ? 1.5 : 5);
  const tx = per(c.spanX, 2.2), ty = per(c.spanY, 0.35);
  const fx = per(c.spanX, 0.08), fy = per(c.spanY, 0.08);
  const aaD = (dx / w) * 0.75;
  const motF = lowField(c, w / mx / 8, (u, v) => fbm(u * mx, v * my, mx, my, seed + 1, 4));
  const sy6 = Math.max(1, Math.round(sy * 0.6));
  const layerF =
    st === 'slate'
      ? fbmField(c, sx, sy, seed + 8, 4, (u, v) => {
          XY[0] = u * sx;
          XY[1] = v * sy;
        })
      : motF;
  const cleftF =
    st === 'slate'
      ? fbmField(c, sx * 3, sy6, seed + 9, 4, (u, v) => {
          XY[0] = u * sx * 3;
          XY[1] = v * sy6;
        })
      : motF;
  let reliefK = 0;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const mot = motF[y * w + x]!;
      const fine = gradientNoise(u * fx, v * fy, fx, fy, seed + 2);
      let bright = 0, fl = 0, light = 0, height = 0;
      switch (st) {
        case 'granite': {
          // Interlocking crystals: feldspar (base), smoky quartz, dark mica (fleck), a few light grains.
          worley(u * gx + 0.3 * fine, v * gy, gx, gy, seed + 3, 1, WOR);
          const k = (WOR[2]! & 0xffff) / 65536, tv = ((WOR[2]! >>> 16) & 0xff) / 255;
          const edge = 1 - sstep(0, 0.08, WOR[1]! - WOR[0]!);
          if (k < 0.2) fl = 0.75 + 0.25 * tv;
          else if (k < 0.42) bright = -0.16 + 0.06 * tv;
          else if (k < 0.5) light = 0.5 + 0.3 * tv;
          else bright = (tv - 0.5) * 0.1;
          bright += 0.04 * mot - 0.06 * edge;
          break;
        }
        case 'quartz': {
          fl = dots(u * dx, v * dy, dx, dy, seed + 6, 0.4, 0.06, 0.22, aaD) * 0.85;
          light = 0.6 * dots(u * dx + 0.5, v * dy + 0.5, dx, dy, seed + 7, 0.25, 0.05, 0.15, aaD);
          bright = 0.012 * mot + 0.015 * fine;
          break;
        }
        case 'slate': {
          const layer = layerF[y * w + x]!;
          const cleft = cleftF[y * w + x]!;
          bright = 0.12 * layer + 0.06 * mot + 0.05 * fine;
          fl = 0.55 * sstep(0.15, 0.5, mot);
          height = 0.35 * cleft + 0.04 * fine;
          reliefK = 1;
          break;
        }
        case 'travertine': {
          // Horizontal sediment layers; elongated voids gather in the porous layers.
          const band = fbm(u * sx + 1.5 * mot, v * sy, sx, sy, seed + 8, 4);
          const layer = Math.sin((v * sy * 3 + 2 * band) * Math.PI * 2);
          const pore = fbm(u * tx, v * ty, tx, ty, seed + 9, 2);
          const porous = sstep(-0.1, 0.35, band);
          const p = sstep(0.38 - 0.12 * porous, 0.5 - 0.1 * porous, pore) * (0.3 + 0.7 * porous);
          bright = 0.07 * band + 0.025 * layer + 0.03 * mot + 0.02 * fine;
          fl = 0.35 * sstep(0.0, 0.7, band) + 0.85 * p;
          height = -0.12 * p;
          reliefK = 0.5;
          break;
        }
        case 'limestone': {
          const d = dots(u * dx, v * dy, dx, dy, seed + 6, 0.22, 0.04, 0.16, aaD);
          bright = 0.05 * mot + 0.03 * fine;
          fl = 0.55 * d + 0.2 * sstep(0.1, 0.5, mot);
          break;
        }
        case 'sandstone': {
          const band = Math.sin((v * sy + 1.5 * fbm(u * mx, v * my, mx, my, seed + 8, 3)) * Math.PI * 2);
          bright = 0.05 * mot + 0.09 * fine + 0.04 * gradientNoise(u * gx, v * gy, gx, gy, seed + 9);
          fl = 0.35 * (0.5 + 0.5 * band) * (0.5 + 0.5 * band);
          height = 0.02 * fine;
          reliefK = 0.6;
          break;
        }
        case 'soapstone': {
          const n = fbm(u * mx * 0.5 + mot, v * my * 0.5, Math.max(1, Math.round(mx * 0.5)), Math.max(1, Math.round(my * 0.5)), seed + 8, 5);
          bright = 0.06 * mot + 0.02 * fine;
          light = 0;
          fl = 0.55 * Math.exp(-Math.abs(n) / 0.012);
          break;
        }
        case 'basalt': {
          const d = dots(u * dx, v * dy, dx, dy, seed + 6, 0.3, 0.05, 0.15, aaD);
          bright = 0.03 * mot + 0.06 * fine;
          fl = 0.8 * d;
          height = -0.03 * d;
          reliefK = 0.5;
          break;
        }
      }
      const i = y * w + x, o = i * 3;
      const f = 1 + bright;
      let r = br * f, g = bg * f, b = bb * f;
      const fa = fl > 1 ? 1 : fl;
      r += (fr - r) * fa;
      g += (fg - g) * fa;
      b += (fb - b) * fa;
      if (light > 0) {
        r += (Math.min(255, br * 1.12 + 22) - r) * light;
        g += (Math.min(255, bg * 1.12 + 22) - g) * light;
        b += (Math.min(255, bb * 1.12 + 22) - b) * light;
      }
      col[o] = r;
      col[o + 1] = g;
      col[o + 2] = b;
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, reliefK);
}

// ---------------------------------------------------------------------------------------------
// Tiles
// ---------------------------------------------------------------------------------------------

const TILE_VARIATION: Record<TilesTexture['finish'], number> = {
  glossy: 0.025,
  matte: 0.02,
  zellige: 0.16,
  terracotta: 0.12,
  cement: 0.025,
  stone: 0.05,
  marble: 0.04,
};


function gridTile(X: number, Y: number, pw: number, ph: number, nx: number, ny: number, offset: boolean): void {
  const j = Math.floor(Y / ph);
  const ly = Y - j * ph;
  const jw = mod(j, ny);
  const xx = X + (offset && jw & 1 ? pw / 2 : 0);
  const i = Math.floor(xx / pw);
  const lx = xx - i * pw;
  const iw = mod(i, nx);
  TIL[0] = Math.min(lx, pw - lx, ly, ph - ly);
  TIL[1] = hashInt(iw, jw, 17);
  TIL[2] = lx;
  TIL[3] = ly;
  TIL[4] = lx / pw;
  TIL[5] = ly / ph;
  TIL[6] = (iw + jw) & 1;
}

/** Encaustic motif coverage for local tile coords (0..1): quarter rings at the corners join into
 * circles across four tiles, with a four-point star in the centre. */
function encausticMotif(u: number, v: number, aa: number): number {
  const du = Math.min(u, 1 - u), dv = Math.min(v, 1 - v);
  const rc = Math.sqrt(du * du + dv * dv);
  const ring = 1 - sstep(0.05 - aa, 0.05 + aa, Math.abs(rc - 0.36));
  const dot = 1 - sstep(0.12 - aa, 0.12 + aa, rc);
  const cu = Math.abs(u - 0.5), cv = Math.abs(v - 0.5);
  const star = 1 - sstep(0.2 - aa, 0.2 + aa, cu + cv + 3.2 * Math.min(cu, cv));
  const diamond = 1 - sstep(0.018 - aa, 0.018 + aa, Math.abs(cu + cv - 0.3));
  return Math.max(ring, dot, star, diamond);
}

function renderTiles(c: Ctx, t: TilesTexture): void {
  const { w, h, seed } = c;
  const [tr, tg, tb] = hexToRgb(t.tile);
  const [t2r, t2g, t2b] = t.tile2 ? hexToRgb(t.tile2) : [tr * 0.6, tg * 0.6, tb * 0.6];
  const [gr, gg, gb] = hexToRgb(t.grout);
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const G = t.groutCm, S = t.sizeCm, A = t.aspect ?? 2;
  const lay = t.layout;
  const fin = t.finish;
  // Repeat of the layout in cm (pitch includes one joint).
  let perX: number, perY: number, n = 2;
  const pw = lay === 'subway' || lay === 'stacked' ? S * A + G : S + G;
  const ph = S + G;
  const hexS = S + G, hexR = hexS / Math.sqrt(3);
  switch (lay) {
    case 'square':
    case 'encaustic':
      perX = pw;
      perY = ph;
      break;
    case 'checker':
      perX = 2 * pw;
      perY = 2 * ph;
      break;
    case 'subway':
      perX = pw;
      perY = 2 * ph;
      break;
    case 'stacked':
      perX = pw;
      perY = ph;
      break;
    case 'herringbone':
      n = Math.max(2, Math.round(A));
      perX = (S + G) * Math.SQRT2;
      perY = (S + G) * n * Math.SQRT2;
      break;
    case 'hex':
      perX = 3 * hexR;
      perY = hexS;
      break;
    case 'penny':
      perX = S + G;
      perY = (S + G) * Math.sqrt(3);
      break;
  }
  const nx = per(c.spanX, perX), ny = per(c.spanY, perY);
  const kx = (nx * perX) / c.spanX, ky = (ny * perY) / c.spanY;
  const repX = Math.round((nx * perX) / pw), repY = Math.round((ny * perY) / ph);
  const gh = G / 2;
  const aa = c.cm * 0.6;
  const variation = t.variation ?? TILE_VARIATION[fin];
  const bevel0 = fin === 'glossy' ? 0.3 : fin === 'zellige' ? 0.5 : fin === 'terracotta' ? 0.25 : fin === 'matte' ? 0.15 : 0.06;
  // A bevel steeper than the pixel grid would shade as a black or white line.
  const bevel = Math.max(Math.min(bevel0, S * 0.08), c.cm * 2);
  const sgx = per(c.spanX, 0.1), sgy = per(c.spanY, 0.1);
  const sin60 = Math.sqrt(3) / 2;
  for (let y = 0; y < h; y++) {
    const Y = (y + 0.5) * c.cm * ky;
    for (let x = 0; x < w; x++) {
      const X = (x + 0.5) * c.cm * kx;
      switch (lay) {
        case 'square':
        case 'encaustic':
        case 'checker':
          gridTile(X, Y, pw, ph, repX, repY, false);
          break;
        case 'stacked':
          gridTile(X, Y, pw, ph, repX, repY, false);
          break;
        case 'subway':
          gridTile(X, Y, pw, ph, repX, repY, true);
          break;
        case 'herringbone':
          herringbone(X, Y, S + G, n, nx, ny);
          TIL[0] = Math.min(LAY[0]!, LAY[2]! - LAY[0]!, LAY[1]!, LAY[3]! - LAY[1]!);
          TIL[1] = LAY[4]!;
          TIL[2] = LAY[5]! ? LAY[1]! : LAY[0]!;
          TIL[3] = LAY[5]! ? LAY[0]! : LAY[1]!;
          TIL[4] = LAY[0]! / LAY[2]!;
          TIL[5] = LAY[1]! / LAY[3]!;
          TIL[6] = LAY[5]!;
          break;
        case 'hex': {
          // Two rectangular sub-lattices of flat-top hexagons; the nearer centre wins.
          const ri = hexS / 2;
          const ia = Math.round(X / (3 * hexR)), ja = Math.round(Y / hexS);
          const ax = X - ia * 3 * hexR, ay = Y - ja * hexS;
          const ib = Math.round((X - 1.5 * hexR) / (3 * hexR)), jb = Math.round((Y - ri) / hexS);
          const bxx = X - 1.5 * hexR - ib * 3 * hexR, byy = Y - ri - jb * hexS;
          const na = Math.max(Math.abs(ay), Math.abs(ax) * sin60 + Math.abs(ay) / 2);
          const nb = Math.max(Math.abs(byy), Math.abs(bxx) * sin60 + Math.abs(byy) / 2);
          if (na <= nb) {
            TIL[0] = ri - na;
            TIL[1] = hashInt(mod(ia, nx), mod(ja, ny), 31);
            TIL[2] = ax;
            TIL[3] = ay;
          } else {
            TIL[0] = ri - nb;
            TIL[1] = hashInt(mod(ib, nx), mod(jb, ny), 37);
            TIL[2] = bxx;
            TIL[3] = byy;
          }
          TIL[4] = TIL[2]! / hexS + 0.5;
          TIL[5] = TIL[3]! / hexS + 0.5;
          TIL[6] = 0;
          break;
        }
        case 'penny': {
          const p = S + G, rowH = p * sin60 * 2;
          const ia = Math.round(X / p), ja = Math.round(Y / rowH);
          const ax = X - ia * p, ay = Y - ja * rowH;
          const ib = Math.round((X - p / 2) / p), jb = Math.round((Y - rowH / 2) / rowH);
          const bxx = X - p / 2 - ib * p, byy = Y - rowH / 2 - jb * rowH;
          const da = Math.sqrt(ax * ax + ay * ay), db = Math.sqrt(bxx * bxx + byy * byy);
          if (da <= db) {
            TIL[0] = p / 2 - da;
            TIL[1] = hashInt(mod(ia, nx), mod(ja, ny), 41);
            TIL[2] = ax;
            TIL[3] = ay;
          } else {
            TIL[0] = p / 2 - db;
            TIL[1] = hashInt(mod(ib, nx), mod(jb, ny), 43);
            TIL[2] = bxx;
            TIL[3] = byy;
          }
          TIL[4] = TIL[2]! / p + 0.5;
          TIL[5] = TIL[3]! / p + 0.5;
          TIL[6] = 0;
          break;
        }
      }
      const i = y * w + x, o = i * 3;
      const inTile = sstep(gh - aa, gh + aa, TIL[0]!);
      // Grout: sandy, slightly recessed.
      const sand = gradientNoise(((x + 0.5) / w) * sgx, ((y + 0.5) / h) * sgy, sgx, sgy, seed + 1);
      let r = gr * (1 + 0.05 * sand), g = gg * (1 + 0.05 * sand), b = gb * (1 + 0.05 * sand);
      let height = -0.05;
      if (inTile > 0) {
        const id = TIL[1]! ^ seed;
        const useAlt = lay === 'checker' && TIL[6]! === 1;
        let cr = useAlt ? t2r : tr, cg = useAlt ? t2g : tg, cb = useAlt ? t2b : tb;
        // Per-tile shade; handmade finishes also drift in hue.
        const tv = (hash2(id, 1, 5) - 0.5) * 2 * variation;
        const hv = fin === 'zellige' || fin === 'terracotta' ? (hash2(id, 2, 5) - 0.5) * variation * 0.25 : 0;
        let f = 1 + tv;
        cr *= f * (1 + hv);
        cg *= f;
        cb *= f * (1 - hv);
        const lx = TIL[2]! + hash2(id, 3, 5) * 97, ly = TIL[3]! + hash2(id, 4, 5) * 97;
        let surf = 0;
        const edgeIn = TIL[0]! - gh;
        switch (fin) {
          case 'glossy':
            surf = 0.012 * gradientNoise(lx / 6, ly / 6, NOWRAP, NOWRAP, id);
            break;
          case 'matte':
            surf = 0.02 * gradientNoise(lx / 0.15, ly / 0.15, NOWRAP, NOWRAP, id);
            break;
          case 'cement':
            surf = 0.03 * gradientNoise(lx / 0.12, ly / 0.12, NOWRAP, NOWRAP, id) + 0.03 * gradientNoise(lx / 12, ly / 12, NOWRAP, NOWRAP, id + 1);
            break;
          case 'stone':
            surf = 0.05 * fbm(lx / 9, ly / 9, NOWRAP, NOWRAP, id, 3) + 0.02 * gradientNoise(lx / 0.2, ly / 0.2, NOWRAP, NOWRAP, id + 1);
            break;
          case 'terracotta': {
            surf = 0.1 * fbm(lx / 5, ly / 5, NOWRAP, NOWRAP, id, 3) + 0.04 * gradientNoise(lx / 0.2, ly / 0.2, NOWRAP, NOWRAP, id + 1);
            // Darker fired edges.
            surf -= 0.08 * (1 - sstep(0, S * 0.2, edgeIn));
            break;
          }
          case 'zellige': {
            const wob = fbm(lx / (S * 0.45), ly / (S * 0.45), NOWRAP, NOWRAP, id, 3);
            // Glaze pools thicker (darker) towards the edges; tiny bubbles.
            surf = 0.1 * wob - 0.2 * (1 - sstep(0, S * 0.22, edgeIn));
            height = 0.1 * wob;
            break;
          }
          case 'marble': {
            const q = gradientNoise(lx / 6, ly / 6, NOWRAP, NOWRAP, id);
            const nv = fbm(lx / 4 + q, ly / 4 - q, NOWRAP, NOWRAP, id + 1, 3);
            const vein = 0.75 * Math.exp(-Math.abs(nv) / 0.03);
            cr += (t2r - cr) * vein;
            cg += (t2g - cg) * vein;
            cb += (t2b - cb) * vein;
            surf = 0.02 * q;
            break;
          }
        }
        if (lay === 'encaustic') {
          const m = encausticMotif(TIL[4]!, TIL[5]!, aa / S);
          const ink = 1 + 0.04 * gradientNoise(lx / 0.3, ly / 0.3, NOWRAP, NOWRAP, id + 2);
          cr += (t2r * ink - cr) * m;
          cg += (t2g * ink - cg) * m;
          cb += (t2b * ink - cb) * m;
        }
        f = 1 + surf;
        cr *= f;
        cg *= f;
        cb *= f;
        r += (cr - r) * inTile;
        g += (cg - g) * inTile;
        b += (cb - b) * inTile;
        height += (0.03 + Math.min(0.15, S * 0.02) * sstep(0, bevel, edgeIn)) * inTile;
      }
      col[o] = r;
      col[o + 1] = g;
      col[o + 2] = b;
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, fin === 'glossy' || fin === 'zellige' ? 0.9 : 0.6);
}

// ---------------------------------------------------------------------------------------------
// Brick
// ---------------------------------------------------------------------------------------------

function renderBrick(c: Ctx, t: BrickTexture): void {
  const { w, h, seed } = c;
  const [b1r, b1g, b1b] = hexToRgb(t.brick);
  const [b2r, b2g, b2b] = hexToRgb(t.brick2);
  const [mr, mg, mb] = hexToRgb(t.mortar);
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const L = t.lengthCm ?? 21.5, H = t.heightCm ?? 6.5, M = 1;
  const course = H + M;
  const header = (L - M) / 2 + M;
  const unit = t.bond === 'flemish' ? L + M + header : L + M;
  let nU: number, nC: number, kx: number, ky: number, hbN = 3;
  if (t.bond === 'herringbone') {
    hbN = Math.max(2, Math.round((L + M) / course));
    nU = per(c.spanX, course * Math.SQRT2);
    nC = per(c.spanY, course * hbN * Math.SQRT2);
    kx = (nU * course * Math.SQRT2) / c.spanX;
    ky = (nC * course * hbN * Math.SQRT2) / c.spanY;
  } else {
    nU = per(c.spanX, unit);
    nC = t.bond === 'stack' ? per(c.spanY, course) : perMul(c.spanY, course, 2);
    kx = (nU * unit) / c.spanX;
    ky = (nC * course) / c.spanY;
  }
  const mx = per(c.spanX, 3), my = per(c.spanY, 3);
  const wx = per(c.spanX, 4), wy = per(c.spanY, 4);
  const sx = per(c.spanX, 0.15), sy = per(c.spanY, 0.15);
  const px = per(c.spanX, 0.8), py = per(c.spanY, 0.8);
  const aaP = (px / w) * 0.75;
  const hm = M / 2;
  const surfF = fbmField(c, mx, my, seed + 2, 3, (u, v) => {
    XY[0] = u * mx;
    XY[1] = v * my;
  });
  const washF =
    t.finish === 'whitewashed'
      ? fbmField(c, wx, wy, seed + 4, 4, (u, v) => {
          XY[0] = u * wx;
          XY[1] = v * wy;
        })
      : surfF;
  for (let y = 0; y < h; y++) {
    const Y = (y + 0.5) * c.cm * ky;
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const X = (x + 0.5) * c.cm * kx;
      const u = (x + 0.5) / w;
      let ed: number, id: number;
      if (t.bond === 'herringbone') {
        herringbone(X, Y, course, hbN, nU, nC);
        ed = Math.min(LAY[0]!, LAY[2]! - LAY[0]!, LAY[1]!, LAY[3]! - LAY[1]!) - hm;
        id = LAY[4]!;
      } else {
        const j = Math.floor(Y / course);
        const ly = Y - j * course;
        const jw = mod(j, nC);
        const xx = X + (t.bond !== 'stack' && jw & 1 ? unit / 2 : 0);
        const k = Math.floor(xx / unit);
        let lx = xx - k * unit, len = unit, part = 0;
        if (t.bond === 'flemish' && lx >= L + M) {
          lx -= L + M;
          len = header;
          part = 1;
        } else if (t.bond === 'flemish') {
          len = L + M;
        }
        ed = Math.min(lx - hm, len - hm - lx, ly - hm, course - hm - ly);
        id = hashInt(mod(k, nU) * 2 + part, jw, 61);
      }
      id ^= seed;
      const i = y * w + x, o = i * 3;
      const grain = gradientNoise(u * sx, v * sy, sx, sy, seed + 1);
      const face = sstep(-0.08, 0.35, ed);
      // Mortar.
      let r = mr * (1 + 0.07 * grain), g = mg * (1 + 0.07 * grain), b = mb * (1 + 0.07 * grain);
      let height = 0.25 * grain * 0.1;
      if (face > 0) {
        const mix = Math.pow(hash2(id, 1, 3), 1.4);
        const tone = 1 + (hash2(id, 2, 3) - 0.5) * 0.2;
        let cr = (b1r + (b2r - b1r) * mix) * tone, cg = (b1g + (b2g - b1g) * mix) * tone, cb = (b1b + (b2b - b1b) * mix) * tone;
        const surf = surfF[i]!;
        const pit = dots(u * px, v * py, px, py, seed + 3, 0.35, 0.05, 0.16, aaP);
        let f: number;
        switch (t.finish) {
          case 'painted':
            f = 1 + 0.02 * surf - 0.08 * pit;
            cr = b1r;
            cg = b1g;
            cb = b1b;
            break;
          case 'glazed':
            f = 1 + 0.05 * surf - 0.12 * (1 - sstep(0, 0.8, ed));
            break;
          default:
            f = 1 + 0.14 * surf + 0.05 * grain - 0.25 * pit;
        }
        cr *= f;
        cg *= f;
        cb *= f;
        r += (cr - r) * face;
        g += (cg - g) * face;
        b += (cb - b) * face;
        height += face * (0.7 + 0.12 * surf) - 0.15 * pit;
      }
      if (t.finish === 'whitewashed') {
        // Thin lime wash: heavier on mortar and in patches, brick showing through elsewhere.
        const wash = sstep(-0.4, 0.4, washF[i]! + 0.25 * grain);
        const a = 0.55 + 0.38 * wash + 0.07 * (1 - face);
        r += (234 - r) * a;
        g += (230 - g) * a;
        b += (222 - b) * a;
      }
      col[o] = r;
      col[o + 1] = g;
      col[o + 2] = b;
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, 0.45);
}

// ---------------------------------------------------------------------------------------------
// Fabric and leather
// ---------------------------------------------------------------------------------------------

const THREAD_CM: Record<FabricTexture['weave'], number> = {
  plain: 0.1,
  linen: 0.14,
  twill: 0.09,
  herringbone: 0.12,
  basketweave: 0.3,
  boucle: 0.38,
  velvet: 0.05,
  leather: 0.3,
};

// Mean of the thread shading below, so the fabric averages to its recipe colour.
const WEAVE_NORM = 1 / ((0.68 + 0.32 * (Math.PI / 4)) * (0.9 + 0.1 * (2 / 3)));

function renderFabric(c: Ctx, t: FabricTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [wr, wg, wb] = t.thread ? hexToRgb(t.thread) : [br * 0.93, bg * 0.93, bb * 0.93];
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const p = t.threadCm ?? THREAD_CM[t.weave];
  const wv = t.weave;
  const HB = 6; // herringbone: warps per zig
  const k = wv === 'herringbone' ? 2 * HB : wv === 'twill' || wv === 'basketweave' ? 4 : 2;
  const nx = perMul(c.spanX, p, k), ny = perMul(c.spanY, p, k);
  const sx = per(c.spanX, 0.9), sy = per(c.spanY, 0.9); // slub length
  const mx = per(c.spanX, wv === 'leather' ? 8 : 9), my = per(c.spanY, wv === 'leather' ? 8 : 9);
  const lx = per(c.spanX, p), ly = per(c.spanY, p);
  const fx = per(c.spanX, 0.03), fy = per(c.spanY, 0.03);
  const slub = wv === 'linen' ? 0.16 : wv === 'basketweave' ? 0.12 : 0.06;
  let reliefK = 0.35;
  const velvet = wv === 'velvet';
  const velQ = velvet ? lowField(c, w / mx / 4, (u, v) => fbm(u * mx, v * my, mx, my, seed + 1, 3)) : new Float32Array(0);
  const velS = velvet
    ? fbmField(c, mx, my, seed + 2, 4, (u, v, i) => {
        const q = i >= 0 ? velQ[i]! : sampleField(velQ, w, h, u, v);
        XY[0] = u * mx + 0.8 * q;
        XY[1] = v * my + 0.8 * q;
      })
    : velQ;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      let r: number, g: number, b: number, height = 0;
      if (wv === 'boucle') {
        worley(u * lx, v * ly, lx, ly, seed + 1, 1, WOR);
        const l1 = 1 - WOR[0]!;
        worley(u * lx * 1.6 + 0.5, v * ly * 1.6, Math.round(lx * 1.6), Math.round(ly * 1.6), seed + 2, 1, WOR);
        const l2 = 1 - WOR[0]!;
        const loop = Math.max(l1 * l1, 0.85 * l2 * l2);
        const fib = gradientNoise(u * fx, v * fy, fx, fy, seed + 3);
        const f = 0.72 + 0.55 * loop + 0.05 * fib;
        r = br * f;
        g = bg * f;
        b = bb * f;
        height = 0.12 * loop;
        reliefK = 0.5;
      } else if (wv === 'velvet') {
        const s = velS[y * w + x]!;
        const fib = gradientNoise(u * fx, v * fy, fx, fy, seed + 3);
        const sheen = Math.tanh(2 * s);
        const f = 1 + 0.17 * sheen + 0.03 * fib;
        const add = 14 * Math.max(0, sheen) * Math.max(0, sheen);
        r = br * f + add;
        g = bg * f + add;
        b = bb * f + add;
        reliefK = 0;
      } else if (wv === 'leather') {
        worley(u * lx, v * ly, lx, ly, seed + 1, 0.9, WOR);
        const crease = 1 - sstep(0.0, 0.16, WOR[1]! - WOR[0]!);
        const dome = 1 - WOR[0]! * WOR[0]!;
        const mot = fbm(u * mx, v * my, mx, my, seed + 2, 4);
        const f = 1 + 0.12 * mot - 0.2 * crease + 0.05;
        r = br * f;
        g = bg * f;
        b = bb * f;
        height = 0.01 * dome - 0.012 * crease;
        reliefK = 0.9;
      } else {
        const gx = u * nx, gy = v * ny;
        const i = Math.floor(gx), j = Math.floor(gy);
        const fx0 = gx - i, fy0 = gy - j;
        let warpTop: boolean;
        switch (wv) {
          case 'twill':
            warpTop = ((i + j) & 3) < 3;
            break;
          case 'herringbone': {
            const zig = Math.floor(i / HB) & 1;
            warpTop = ((zig ? i - j : i + j) & 3) < 2;
            break;
          }
          case 'basketweave':
            warpTop = (((i >> 1) + (j >> 1)) & 1) === 0;
            break;
          default:
            warpTop = ((i + j) & 1) === 0;
        }
        // Rounded thread profile across, dipping where it passes under the crossing yarn.
        const across = warpTop ? fx0 : fy0, along = warpTop ? fy0 : fx0;
        const prof = Math.sqrt(4 * across * (1 - across));
        const dip = 4 * along * (1 - along);
        const thread = warpTop ? i : j;
        const axis = warpTop ? v : u;
        const slubN = gradientNoise(axis * (warpTop ? sy : sx), thread + 0.5, warpTop ? sy : sx, warpTop ? nx : ny, seed + (warpTop ? 1 : 2));
        const tv = (hash2(thread, warpTop ? 1 : 2, seed) - 0.5) * (wv === 'linen' ? 0.14 : 0.06);
        const f = (0.68 + 0.32 * prof) * (0.9 + 0.1 * dip) * WEAVE_NORM * (1 + tv + slub * slubN);
        if (warpTop) {
          r = br * f;
          g = bg * f;
          b = bb * f;
        } else {
          r = wr * f;
          g = wg * f;
          b = wb * f;
        }
        height = 0.02 * prof * (0.5 + 0.5 * dip);
        reliefK = 0.25;
      }
      const i2 = y * w + x, o = i2 * 3;
      col[o] = r;
      col[o + 1] = g;
      col[o + 2] = b;
      hgt[i2] = height;
    }
  }
  relief(c, col, hgt, reliefK);
}

// ---------------------------------------------------------------------------------------------
// Metal
// ---------------------------------------------------------------------------------------------

function renderMetal(c: Ctx, t: MetalTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const [pr, pg, pb] = t.patina ? hexToRgb(t.patina) : [br * 0.5, bg * 0.5, bb * 0.5];
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const fin = t.finish;
  // Brushing: streaks ~10 cm long, a fraction of a millimetre (but at least ~1.5 px) high.
  const strH = Math.max(0.025, c.cm * 1.5);
  const bx = per(c.spanX, 10), by = per(c.spanY, strH);
  const b2x = per(c.spanX, 3), b2y = per(c.spanY, strH * 3);
  const rx = per(c.spanX, 35), ry = per(c.spanY, 35);
  const hx = per(c.spanX, 1.3), hy = per(c.spanY, 1.3);
  const px = per(c.spanX, 18), py = per(c.spanY, 18);
  const gx = per(c.spanX, Math.max(0.12, c.cm * 2.5)), gy = per(c.spanY, Math.max(0.12, c.cm * 2.5));
  let reliefK = 0;
  const broadF = lowField(c, w / rx / 4, (u, v) => fbm(u * rx, v * ry, rx, ry, seed + 1, 3));
  const qF = fin === 'patina' || fin === 'blackened' ? lowField(c, w / px / 8, (u, v) => fbm(u * px, v * py, px, py, seed + 6, fin === 'patina' ? 3 : 5)) : broadF;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const broad = broadF[y * w + x]!;
      let f = 1, add = 0, pat = 0, patTone = 1, height = 0;
      switch (fin) {
        case 'brushed':
        case 'satin': {
          const s1 = gradientNoise(u * bx, v * by, bx, by, seed + 2);
          const s2 = gradientNoise(u * b2x, v * b2y, b2x, b2y, seed + 3);
          const amp = fin === 'brushed' ? 1 : 0.45;
          f = 1 + amp * (0.09 * s1 + 0.06 * s2) + 0.1 * broad;
          add = 4 * amp * s1; // keeps the grain visible on near-black finishes
          break;
        }
        case 'polished': {
          // Mirror finish: contrasty stretched reflections of the room.
          const r1 = fbm(u * rx, v * ry * 2 + 0.4 * broad, rx, ry * 2, seed + 4, 4);
          const s = Math.tanh(3.2 * r1);
          f = 1 + 0.38 * s;
          add = 38 * Math.max(0, s - 0.55);
          break;
        }
        case 'hammered': {
          worley(u * hx, v * hy, hx, hy, seed + 5, 0.85, WOR);
          height = -0.18 * (1 - WOR[0]! * WOR[0]!);
          f = 1 + 0.12 * broad;
          reliefK = 1.4;
          break;
        }
        case 'patina': {
          const q = qF[y * w + x]!;
          const m = fbm(u * px + 0.5 * q, v * py + 0.5 * q, px, py, seed + 7, 6);
          const grain = gradientNoise(u * gx, v * gy, gx, gy, seed + 8);
          pat = sstep(-0.12, 0.25, m + 0.1 * grain);
          f = 1 + 0.1 * broad + 0.05 * grain;
          patTone = 0.8 + 0.4 * sstep(-0.3, 0.4, q + 0.5 * grain);
          height = 0.02 * pat;
          reliefK = 0.6;
          break;
        }
        case 'blackened': {
          const q = qF[y * w + x]!;
          const s1 = gradientNoise(u * bx, v * by, bx, by, seed + 2);
          f = 1 + 0.16 * q + 0.03 * s1;
          add = 10 * sstep(0.1, 0.5, q); // blue-grey mill scale
          break;
        }
      }
      let r = br * f + add, g = bg * f + add, b = bb * f + add * (fin === 'blackened' ? 1.35 : 1);
      if (pat > 0) {
        r += (pr * patTone - r) * pat;
        g += (pg * patTone - g) * pat;
        b += (pb * patTone - b) * pat;
      }
      const i = y * w + x;
      putRgb(col, i * 3, r, g, b);
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, reliefK);
}

// ---------------------------------------------------------------------------------------------
// Glass and mirror
// ---------------------------------------------------------------------------------------------

function renderGlass(c: Ctx, t: GlassTexture): void {
  const { w, h, seed } = c;
  const [tr, tg, tb] = hexToRgb(t.tint);
  const tR = tr / 255, tG = tg / 255, tB = tb / 255;
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const st = t.style;
  // Soft out-of-focus "room" seen through the glass.
  const ex = per(c.spanX, 25), ey = per(c.spanY, 25);
  const pitch = st === 'fluted' ? 2.6 : 1.2;
  const nr = per(c.spanX, pitch);
  const gx = per(c.spanX, 0.06), gy = per(c.spanY, 0.06);
  const dx = per(c.spanX, 1.1), dy = per(c.spanY, 1.1);
  const fx = per(c.spanX, 9), fy = per(c.spanY, 9);
  const sx = per(c.spanX, 0.7), sy = per(c.spanY, 0.7);
  const aaS = (sx / w) * 0.75;
  let reliefK = 0;
  const envF = lowField(c, w / ex / 4, (u, v) => 0.8 + 0.16 * fbm(u * ex, v * ey, ex, ey, seed + 1, 3) + 0.05 * Math.cos(v * Math.PI * 2));
  const env = (u: number, v: number): number => sampleField(envF, w, h, u, v);
  const foxF = st === 'antique_mirror' ? lowField(c, w / fx / 4, (u, v) => fbm(u * fx, v * fy, fx, fy, seed + 4, 3)) : envF;
  const foxM =
    st === 'antique_mirror'
      ? fbmField(c, fx, fy, seed + 5, 5, (u, v, i) => {
          const q = i >= 0 ? foxF[i]! : sampleField(foxF, w, h, u, v);
          XY[0] = u * fx + 1.8 * q;
          XY[1] = v * fy - 1.8 * q;
        })
      : envF;
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      let L: number, add = 0, height = 0, smoke = 0;
      switch (st) {
        case 'clear': {
          L = envF[y * w + x]!;
          const band = 0.5 + 0.5 * Math.sin((u + v) * Math.PI * 2);
          add = 40 * Math.pow(band, 10) + 12 * band * band;
          break;
        }
        case 'frosted': {
          L = 0.9 + 0.05 * fbm(u * ex, v * ey, ex, ey, seed + 1, 2) + 0.03 * gradientNoise(u * gx, v * gy, gx, gy, seed + 2);
          add = 12;
          break;
        }
        case 'reeded':
        case 'fluted': {
          const gxr = u * nr;
          const i = Math.floor(gxr);
          const f = gxr - i;
          // Each reed is a cylindrical lens: it shows a squeezed, mirrored slice of the room.
          const lens = st === 'reeded' ? -0.7 : 1.6;
          const us = (i + 0.5 + (f - 0.5) * lens) / nr;
          L = env(us, v);
          const prof = Math.sqrt(4 * f * (1 - f));
          const edge = Math.min(f, 1 - f);
          if (st === 'reeded') {
            L *= 0.82 + 0.2 * prof;
            add = 45 * Math.exp(-(((f - 0.3) / 0.08) ** 2)) - 55 * Math.exp(-((edge / 0.05) ** 2));
          } else {
            L *= 0.9 + 0.14 * (f - 0.5);
            add = 38 * Math.exp(-((edge / 0.04) ** 2)) - 18 * Math.exp(-(((f - 0.75) / 0.12) ** 2));
          }
          break;
        }
        case 'textured': {
          worley(u * dx, v * dy, dx, dy, seed + 3, 0.9, WOR);
          const dome = 1 - WOR[0]! * WOR[0]!;
          L = env(u + (WOR[3]! * 0.6) / dx, v + (WOR[4]! * 0.6) / dy);
          height = 0.12 * dome;
          reliefK = 0.9;
          add = 8;
          break;
        }
        case 'mirror':
        case 'antique_mirror': {
          // Reflection of a soft room: lighter above, a window-like glow, subtle streaks.
          L = 0.82 + 0.1 * Math.cos(v * Math.PI * 2) + 0.1 * (envF[y * w + x]! - 0.8 - 0.05 * Math.cos(v * Math.PI * 2)) / 0.16;
          const band = 0.5 + 0.5 * Math.sin((u * 2 - v) * Math.PI * 2);
          add = 18 * Math.pow(band, 8);
          if (st === 'antique_mirror') {
            const q = foxF[y * w + x]!;
            const m = foxM[y * w + x]!;
            smoke = 0.65 * sstep(0.1, 0.45, m) + 0.25 * sstep(-0.1, 0.3, q);
            smoke += 0.7 * dots(u * sx, v * sy, sx, sy, seed + 6, 0.2, 0.04, 0.12, aaS);
            smoke = Math.min(1, smoke);
          }
          break;
        }
      }
      // Transmission/reflection is multiplicative with the tint (normalised to light tints).
      const base = 232 * L;
      let r = base * tR + add, g = base * tG + add, b = base * tB + add;
      if (smoke > 0) {
        // Oxidised silver: smoky brown-black.
        r += (tr * 0.3 + 10 - r) * smoke;
        g += (tg * 0.27 + 8 - g) * smoke;
        b += (tb * 0.22 + 4 - b) * smoke;
      }
      const i = y * w + x;
      putRgb(col, i * 3, r, g, b);
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, reliefK);
}

// ---------------------------------------------------------------------------------------------
// Wallpaper
// ---------------------------------------------------------------------------------------------

/** Botanical design: 16 leaves on a 4×4 jittered grid per repeat (cx, cy, cos, sin, 1/len, priority, ink). */
const LEAVES = (() => {
  const G = 4, ds = 7919;
  const t = new Float64Array(G * G * 7);
  for (let j = 0; j < G; j++) {
    for (let i = 0; i < G; i++) {
      const hsh = hashInt(i, j, ds);
      const k = (j * G + i) * 7;
      const ang = (((hsh >>> 16) & 0xff) / 255) * Math.PI * 2;
      t[k] = 0.5 + ((hsh & 0xff) / 255 - 0.5) * 0.6;
      t[k + 1] = 0.5 + (((hsh >>> 8) & 0xff) / 255 - 0.5) * 0.6;
      t[k + 2] = Math.cos(ang);
      t[k + 3] = Math.sin(ang);
      t[k + 4] = 1 / (0.75 + 0.35 * ((hsh >>> 24) / 255));
      t[k + 5] = hsh & 0xfff;
      t[k + 6] = (hsh >>> 12) & 1 ? 2 : 1;
    }
  }
  return t;
})();

/** Botanical: the highest-priority leaf covering (su, sv) wins; veins let the ground show through.
 * Returns coverage; MISC[1] says which ink. */
function leafAt(su: number, sv: number, aa: number): number {
  const G = 4;
  const gx = su * G, gy = sv * G;
  const ci = Math.floor(gx), cj = Math.floor(gy);
  let best = 0, bestPri = -1;
  for (let dj = -1; dj <= 1; dj++) {
    for (let di = -1; di <= 1; di++) {
      const ii = ci + di, jj = cj + dj;
      const k = (mod(jj, G) * G + mod(ii, G)) * 7;
      const pri = LEAVES[k + 5]!;
      if (pri <= bestPri) continue;
      const px = gx - (ii + LEAVES[k]!), py = gy - (jj + LEAVES[k + 1]!);
      const ca = LEAVES[k + 2]!, sa = LEAVES[k + 3]!, il = LEAVES[k + 4]!;
      const lx = (px * ca + py * sa) * il, ly = (-px * sa + py * ca) * il;
      if (lx < -1 || lx > 1) continue;
      const half = 0.34 * (1 - lx * lx) * (1 + 0.25 * lx);
      const inside = 1 - sstep(half - aa, half + aa, Math.abs(ly));
      if (inside <= 0) continue;
      bestPri = pri;
      const rib = 1 - sstep(0.012, 0.012 + aa, Math.abs(ly));
      const sv2 = Math.abs((((lx * 2 + Math.abs(ly) * 2.4) * 3) % 1) - 0.5);
      const side = Math.abs(ly) < half * 0.85 ? 1 - sstep(0.05, 0.05 + aa * 4, sv2) : 0;
      MISC[1] = LEAVES[k + 6]!;
      best = inside * (1 - 0.85 * Math.max(rib, side * 0.7));
    }
  }
  return best;
}

function renderWallpaper(c: Ctx, t: WallpaperTexture): void {
  const { w, h, out, seed } = c;
  const [gr, gg, gb] = hexToRgb(t.ground);
  const [ir, ig, ib] = hexToRgb(t.ink);
  const [jr, jg, jb] = t.ink2 ? hexToRgb(t.ink2) : [ir, ig, ib];
  const R = t.repeatCm;
  const nx = per(c.spanX, R);
  const ny = t.motif === 'deco_fan' ? perMul(c.spanY, R / 2, 2) : per(c.spanY, R);
  const px = per(c.spanX, 0.12), py = per(c.spanY, 0.12);
  const fx = per(c.spanX, 35), fy = per(c.spanY, Math.max(0.18, c.cm * 1.5));
  const aaR = (nx / w) * 0.8; // half a pixel in repeat units
  const ds = 7919; // fixed design seed: the printed motif is the same for every seed
  // Damask ornament noise in motif coordinates (half-drop, mirrored); smooth, so sampled coarsely.
  const motifUV = (u: number, v: number): void => {
    const ru = u * nx, rv = v * ny;
    const ci = Math.floor(ru);
    let sv = rv - Math.floor(rv);
    if (ci & 1) sv = (sv + 0.5) % 1;
    XY[0] = Math.abs(ru - ci - 0.5) * 2;
    XY[1] = sv;
  };
  const damask = t.motif === 'damask';
  const repPx = w / nx;
  const damN = damask
    ? lowField(c, repPx / 20, (u, v) => {
        motifUV(u, v);
        return fbm(XY[0]! * 2.6, XY[1]! * 4.2, NOWRAP, NOWRAP, ds, 4);
      })
    : new Float32Array(0);
  const damH = damask
    ? lowField(c, repPx / 28, (u, v) => {
        motifUV(u, v);
        return fbm(XY[0]! * 4.5 + 7, XY[1]! * 7, NOWRAP, NOWRAP, ds + 1, 3);
      })
    : new Float32Array(0);
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const ru = u * nx, rv = v * ny;
      const ci = Math.floor(ru), cj = Math.floor(rv);
      let su = ru - ci, sv = rv - cj;
      let a1 = 0, a2 = 0; // coverage of ink, ink2
      const paper = gradientNoise(u * px, v * py, px, py, seed) * 3;
      let r = gr + paper, g = gg + paper, b = gb + paper;
      switch (t.motif) {
        case 'stripes': {
          a1 = sstep(0.12 - aaR, 0.12 + aaR, su) * (1 - sstep(0.48 - aaR, 0.48 + aaR, su));
          const p1 = Math.abs(su - 0.06), p2 = Math.abs(su - 0.54);
          a2 = 1 - sstep(0.012 - aaR, 0.012 + aaR, Math.min(p1, p2));
          break;
        }
        case 'damask': {
          if (ci & 1) sv = (sv + 0.5) % 1; // half-drop repeat
          const sx = Math.abs(su - 0.5) * 2; // mirrored about the vertical axis
          // Pointed-oval silhouette: widest a little below the middle, a finial at top and bottom.
          const prof = 0.8 * Math.sin(Math.PI * clamp01((sv - 0.04) / 0.92)) * (1 + 0.15 * Math.sin(sv * Math.PI * 6));
          const env = 1 - sx / Math.max(prof, 1e-3);
          const n = damN[y * w + x]!;
          const shape = 0.85 * env + 0.6 * n;
          a1 = sstep(0.1 - aaR * 3, 0.1 + aaR * 3, shape);
          // Symmetric cut-outs and an inner contour give the lacy, engraved look.
          const holes = damH[y * w + x]!;
          a1 *= 1 - sstep(0.25, 0.4, env) * sstep(0.16, 0.2, holes);
          a1 *= 1 - 0.9 * (1 - sstep(0.015, 0.015 + aaR * 3, Math.abs(shape - 0.42)));
          // Small diamond in the gaps of the half-drop.
          const gu = Math.abs(su - 0.5), gv = Math.abs(sv - 0.5);
          const dd = Math.abs(0.5 - gu) + Math.abs(0.5 - gv) * 0.7;
          a1 = Math.max(a1, 1 - sstep(0.07 - aaR, 0.07 + aaR, dd));
          break;
        }
        case 'trellis': {
          // Ogee lattice: two cosine families touching at the cell edges.
          const cosv = Math.cos(su * Math.PI * 2), sinv = Math.sin(su * Math.PI * 2);
          const slope = Math.sqrt(1 + (0.25 * Math.PI * 2 * sinv) ** 2);
          const fA = 0.25 + 0.25 * cosv, fB = 0.75 - 0.25 * cosv;
          const dA = Math.min(Math.abs(sv - fA), Math.abs(sv - fA - 1), Math.abs(sv - fA + 1)) / slope;
          const dB = Math.min(Math.abs(sv - fB), Math.abs(sv - fB - 1), Math.abs(sv - fB + 1)) / slope;
          a1 = 1 - sstep(0.014 - aaR, 0.014 + aaR, Math.min(dA, dB));
          const knot = Math.hypot(Math.min(su, 1 - su), sv - 0.5);
          a1 = Math.max(a1, 1 - sstep(0.04 - aaR, 0.04 + aaR, knot));
          break;
        }
        case 'botanical': {
          const l = leafAt(su, sv, aaR * 4);
          if (MISC[1]! === 2) a2 = l;
          else a1 = l;
          break;
        }
        case 'grasscloth': {
          const n = fbm(u * fx, v * fy, fx, fy, seed + 1, 4);
          const slub = gradientNoise(u * fx * 4, v * fy * 0.5, fx * 4, Math.max(1, Math.round(fy * 0.5)), seed + 2);
          a1 = sstep(-0.25, 0.45, n + 0.3 * slub);
          // Panel seams, one per repeat width.
          const seam = Math.min(su, 1 - su) * R;
          if (seam < Math.max(0.1, c.cm)) {
            a1 = 1;
          }
          break;
        }
        case 'dots': {
          if (cj & 1) su = (su + 0.5) % 1;
          const d = Math.hypot(su - 0.5, sv - 0.5);
          a1 = 1 - sstep(0.17 - aaR, 0.17 + aaR, d);
          break;
        }
        case 'deco_fan': {
          // Overlapping full discs on a (2r, r) lattice; the lower row sits in front.
          const rr = 0.5; // radius in repeat units (repeat = fan width)
          const rowF = rv / rr;
          let drawn = false;
          for (let k = 1; k >= 0 && !drawn; k--) {
            const j = Math.floor(rowF) + k;
            const off = mod(j, 2) === 1 ? 0.5 : 0;
            const cxr = Math.round(ru - off) + off;
            const dxr = ru - cxr, dyr = rv - j * rr;
            const d = Math.sqrt(dxr * dxr + dyr * dyr) / rr;
            if (d < 1) {
              drawn = true;
              const ringN = d * 5;
              const ring = Math.abs(ringN - Math.round(ringN));
              const line = 1 - sstep(0.06, 0.06 + aaR * 10, ring);
              const ang = Math.atan2(dyr, dxr) / Math.PI * 12;
              const spoke = d < 0.6 ? 1 - sstep(0.05, 0.05 + aaR * 12, Math.abs(ang - Math.round(ang)) * d) : 0;
              const rim = 1 - sstep(0.95 - aaR * 4, 0.97, d);
              a1 = Math.max(line * (d > 0.15 ? 1 : 0), spoke, 1 - rim);
            }
          }
          break;
        }
      }
      if (a2 > 0) {
        r += (jr - r) * a2;
        g += (jg - g) * a2;
        b += (jb - b) * a2;
      }
      if (a1 > 0) {
        r += (ir + paper - r) * a1;
        g += (ig + paper - g) * a1;
        b += (ib + paper - b) * a1;
      }
      putRgb(out, (y * w + x) * 3, r, g, b);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Panelling
// ---------------------------------------------------------------------------------------------

function renderPanel(c: Ctx, t: PanelTexture): void {
  const { w, h, seed } = c;
  const [br, bg, bb] = hexToRgb(t.base);
  const col = new Float32Array(w * h * 3);
  const hgt = new Float32Array(w * h);
  const P = t.pitchCm;
  const st = t.style;
  const horizontal = st === 'shiplap';
  const n = horizontal ? per(c.spanY, P) : per(c.spanX, P);
  const pAdj = horizontal ? c.spanY / n : c.spanX / n;
  // Wainscot panels are taller than wide.
  const nv = per(c.spanY, P * 1.3);
  const pV = c.spanY / nv;
  const sx = per(c.spanX, 0.3), sy = per(c.spanY, 0.3);
  for (let y = 0; y < h; y++) {
    const v = (y + 0.5) / h;
    const Y = (y + 0.5) * c.cm;
    for (let x = 0; x < w; x++) {
      const u = (x + 0.5) / w;
      const X = (x + 0.5) * c.cm;
      const coord = horizontal ? Y : X;
      const k = Math.floor(coord / pAdj);
      const l = coord - k * pAdj; // cm inside the repeat
      let height = 0, ao = 1;
      switch (st) {
        case 'fluted': {
          // Convex half-round reeds separated by a narrow groove.
          const g = 0.18;
          const tt = (l - g / 2) / (pAdj - g);
          if (tt > 0 && tt < 1) height = Math.sqrt(tt * (1 - tt)) * pAdj * 0.45;
          ao = 0.78 + 0.22 * sstep(0, 0.35, Math.sqrt(Math.max(0, tt * (1 - tt))) * 2);
          break;
        }
        case 'shiplap': {
          // Shadow gap at the top of each board.
          const gap = 0.6;
          if (l < gap) {
            height = -0.8;
            ao = 0.45 + 0.3 * (l / gap);
          } else {
            height = 0.1 * sstep(gap, gap + 0.4, l);
          }
          break;
        }
        case 'beadboard': {
          // V-groove at each board joint plus a bead mid-board.
          const e = Math.min(l, pAdj - l);
          height = -0.25 * (1 - sstep(0, 0.3, e));
          const bead = Math.abs(l - pAdj / 2);
          if (bead < 0.5) height = Math.sqrt(Math.max(0, 0.25 - bead * bead)) * 0.5 - 0.15 * (bead > 0.4 ? 1 : 0);
          ao = 0.7 + 0.3 * sstep(0, 0.35, e);
          break;
        }
        case 'wainscot': {
          // Stiles and rails frame a raised, bevelled field.
          const kv = Math.floor(Y / pV);
          const lv = Y - kv * pV;
          const frame = pAdj * 0.13;
          const ex = Math.min(l, pAdj - l) - frame / 2, ey = Math.min(lv, pV - lv) - frame / 2;
          const e = Math.min(ex, ey);
          if (e < 0) {
            height = 1.2;
          } else {
            height = 0.3 + 0.8 * sstep(0.4, 3.5, e);
            ao = 0.72 + 0.28 * sstep(0, 1.2, e);
          }
          break;
        }
        case 'board_and_batten': {
          const bw = 6;
          const e = Math.min(l, bw - l);
          if (l < bw) height = 1.6 * sstep(0, 0.25, e);
          ao = l < bw ? 1 : 0.8 + 0.2 * sstep(0, 1.2, Math.min(l - bw, pAdj - l));
          break;
        }
      }
      const stip = fbm(u * sx, v * sy, sx, sy, seed, 2);
      const f = ao * (1 + 0.02 * stip);
      const i = y * w + x, o = i * 3;
      col[o] = br * f;
      col[o + 1] = bg * f;
      col[o + 2] = bb * f;
      hgt[i] = height;
    }
  }
  relief(c, col, hgt, 0.3);
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/** Real-world width (cm) a swatch of this texture spans by default: a few planks, tiles, veins. */
export function defaultSpanCm(t: MaterialTexture): number {
  switch (t.kind) {
    case 'paint':
      return 60;
    case 'plaster':
      return 90;
    case 'concrete':
      return t.style === 'board_formed' ? 120 : 100;
    case 'terrazzo':
      return t.chipCm * 25;
    case 'wood': {
      const { pattern, widthCm, lengthCm, gapCm } = t.plank;
      switch (pattern) {
        case 'straight':
          return Math.min(160, Math.max(30, widthCm * 5.5));
        case 'herringbone':
          return Math.max(50, lengthCm * 2);
        case 'chevron':
          return lengthCm * 2.2;
        case 'basketweave':
          return lengthCm * 3;
        case 'slats':
          return (widthCm + (gapCm ?? 1)) * 14;
        case 'veneer':
          return t.figure === 'burl' ? 40 : 60;
      }
      break;
    }
    case 'marble':
      return Math.min(150, Math.max(40, t.veinScale * 3));
    case 'stone':
      return t.style === 'slate' || t.style === 'sandstone' ? 80 : t.style === 'granite' || t.style === 'quartz' || t.style === 'basalt' ? 40 : 60;
    case 'tiles': {
      const A = t.aspect ?? 2;
      switch (t.layout) {
        case 'subway':
        case 'stacked':
          return t.sizeCm * A * 4;
        case 'herringbone':
          return t.sizeCm * A * 3;
        case 'penny':
          return t.sizeCm * 10;
        case 'hex':
          return t.sizeCm * 4;
        default:
          return t.sizeCm * 4.5;
      }
    }
    case 'brick':
      return (t.lengthCm ?? 21.5) * 4.5;
    case 'fabric': {
      // Enough threads to read as cloth rather than a grid: ~70 across for fine weaves.
      const p = t.threadCm ?? THREAD_CM[t.weave];
      const k = t.weave === 'plain' || t.weave === 'linen' || t.weave === 'twill' ? 70 : t.weave === 'boucle' ? 30 : 45;
      return t.weave === 'velvet' ? 30 : t.weave === 'leather' ? 12 : p * k;
    }
    case 'metal':
      return t.finish === 'brushed' || t.finish === 'satin' ? 30 : t.finish === 'hammered' ? 25 : 60;
    case 'glass':
      return t.style === 'mirror' || t.style === 'antique_mirror' ? 60 : 40;
    case 'wallpaper':
      return t.motif === 'grasscloth' ? t.repeatCm : Math.max(30, t.repeatCm * 2);
    case 'panel':
      return t.style === 'wainscot' ? t.pitchCm * 2.5 : t.style === 'fluted' ? t.pitchCm * 12 : t.pitchCm * 6;
  }
  return 60;
}

/**
 * Renders a material recipe to raw RGB pixels (row-major, 3 bytes per pixel).
 * Deterministic for a given (texture, size, seed, spanCm) and tileable.
 */
export function renderSwatch(texture: MaterialTexture, width: number, height: number, seed = 1, options: RenderSwatchOptions = {}): SwatchImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 8192 || height > 8192) {
    throw new RangeError(`Invalid swatch size ${width}×${height}`);
  }
  const spanX = options.spanCm ?? defaultSpanCm(texture);
  if (!(spanX > 0)) throw new RangeError('spanCm must be positive');
  const out = new Uint8ClampedArray(width * height * 3);
  const cm = spanX / width;
  // Keep the internal seed a small int32 so hot loops never see a boxed double.
  const c: Ctx = { w: width, h: height, seed: (Math.imul(seed | 0, 7919) + 17) & 0x3fffffff, spanX, spanY: cm * height, cm, out };
  IMG_W = width;
  IMG_H = height;
  switch (texture.kind) {
    case 'paint':
      renderPaint(c, texture);
      break;
    case 'plaster':
      renderPlaster(c, texture);
      break;
    case 'concrete':
      renderConcrete(c, texture);
      break;
    case 'terrazzo':
      renderTerrazzo(c, texture);
      break;
    case 'wood':
      renderWood(c, texture);
      break;
    case 'marble':
      renderMarble(c, texture);
      break;
    case 'stone':
      renderStone(c, texture);
      break;
    case 'tiles':
      renderTiles(c, texture);
      break;
    case 'brick':
      renderBrick(c, texture);
      break;
    case 'fabric':
      renderFabric(c, texture);
      break;
    case 'metal':
      renderMetal(c, texture);
      break;
    case 'glass':
      renderGlass(c, texture);
      break;
    case 'wallpaper':
      renderWallpaper(c, texture);
      break;
    case 'panel':
      renderPanel(c, texture);
      break;
    default: {
      const never: never = texture;
      throw new Error(`Unknown texture kind: ${JSON.stringify(never)}`);
    }
  }
  return { data: Buffer.from(out.buffer, out.byteOffset, out.byteLength), width, height, channels: 3 };
}

/**
 * The single colour a recipe is "about", where the swatch's average should land near it;
 * null where the average is a blend by design (glass, patterned wallpaper, terrazzo, washes…).
 */
export function textureNominalColor(t: MaterialTexture): string | null {
  switch (t.kind) {
    case 'paint':
      return t.color;
    case 'plaster':
    case 'concrete':
    case 'marble':
    case 'stone':
    case 'wood':
    case 'metal':
    case 'panel':
      if (t.kind === 'metal' && t.finish === 'patina') return null;
      if (t.kind === 'wood' && (t.plank.pattern === 'slats' || t.figure === 'burl')) return null;
      if (t.kind === 'marble' && t.style === 'breccia') return null;
      return t.base;
    case 'fabric':
      return t.thread ? null : t.base;
    case 'tiles':
      return t.layout === 'checker' || t.layout === 'encaustic' || t.layout === 'penny' ? null : t.tile;
    case 'brick':
      return t.finish === 'painted' ? t.brick : null;
    case 'terrazzo':
    case 'glass':
    case 'wallpaper':
      return null;
  }
}

/** Seed derived from a material id (FNV-1a), so a material always looks the same. */
export function materialSeed(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 1) % 1000003;
}

const meanCache = new WeakMap<MaterialTexture, Lab>();

/** Mean L*a*b* of a 64×64 render (cached per recipe object): a cheap colour summary for engines. */
export function swatchMeanLab(texture: MaterialTexture): Lab {
  const hit = meanCache.get(texture);
  if (hit) return hit;
  const { data } = renderSwatch(texture, 64, 64, 1);
  let r = 0, g = 0, b = 0;
  for (let i = 0; i < data.length; i += 3) {
    r += data[i]!;
    g += data[i + 1]!;
    b += data[i + 2]!;
  }
  const n = data.length / 3;
  const lab = rgbToLab(r / n, g / n, b / n);
  meanCache.set(texture, lab);
  return lab;
}

const pngCache = new Map<string, Promise<Buffer>>();
const PNG_CACHE_MAX = 512;

/**
 * PNG preview of a catalogue material (withdrawn ones included, so old generations still show).
 * Cached in memory per (id, size). Throws for unknown ids.
 */
export function swatchPng(materialId: string, size = 256): Promise<Buffer> {
  const material = getEditMaterial(materialId);
  if (!material) return Promise.reject(new Error(`Unknown material: ${materialId}`));
  if (!Number.isInteger(size) || size < 8 || size > 2048) return Promise.reject(new RangeError(`Invalid swatch size: ${size}`));
  const key = `${materialId}:${size}`;
  const hit = pngCache.get(key);
  if (hit) return hit;
  const img = renderSwatch(material.texture, size, size, materialSeed(materialId));
  const p = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  if (pngCache.size >= PNG_CACHE_MAX) {
    const first = pngCache.keys().next();
    if (!first.done) pngCache.delete(first.value);
  }
  pngCache.set(key, p);
  // Don't keep a failed encode around.
  p.catch(() => pngCache.delete(key));
  return p;
}
