/**
 * The noise library of the engine and the material swatches: string seeds, integer hashes,
 * value noise, periodic gradient noise and cellular (Worley) noise.
 * Everything is integer/float arithmetic without Math.random, so the same seed gives the
 * same bytes on every run.
 */

/** FNV-1a 32-bit of a string. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for procedural textures. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit integer hash of a lattice point and a seed: the one hash of every texture and swatch. */
export function hashInt(x: number, y: number, seed: number): number {
  let h = Math.imul(x | 0, 0x27d4eb2d) ^ Math.imul(y | 0, 0x165667b1) ^ Math.imul(seed | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const INV_2_32 = 1 / 4294967296;

/** Integer lattice hash -> [0,1). */
export function hash2(x: number, y: number, seed: number): number {
  return hashInt(x, y, seed) * INV_2_32;
}

/**
 * Smooth value noise in [0,1), lattice spacing 1, optionally periodic (integer periods in
 * lattice units, per axis) so textures can tile seamlessly.
 */
export function valueNoise(x: number, y: number, seed: number, periodX = 0, periodY = periodX): number {
  const xi = Math.floor(x), yi = Math.floor(y);
  const fx = x - xi, fy = y - yi;
  const sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
  let x0 = xi, y0 = yi, x1 = xi + 1, y1 = yi + 1;
  if (periodX > 0) {
    x0 = ((x0 % periodX) + periodX) % periodX;
    x1 = ((x1 % periodX) + periodX) % periodX;
  }
  if (periodY > 0) {
    y0 = ((y0 % periodY) + periodY) % periodY;
    y1 = ((y1 % periodY) + periodY) % periodY;
  }
  const a = hash2(x0, y0, seed), b = hash2(x1, y0, seed);
  const c = hash2(x0, y1, seed), d = hash2(x1, y1, seed);
  const top = a + (b - a) * sx, bot = c + (d - c) * sx;
  return top + (bot - top) * sy;
}

/** Fractal sum of value noise, roughly in [-1, 1], periodic when the periods are > 0. */
export function fbm(x: number, y: number, seed: number, octaves: number, periodX = 0, periodY = periodX): number {
  let sum = 0, amp = 1, norm = 0, f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * (valueNoise(x * f, y * f, seed + o * 101, periodX * f, periodY * f) * 2 - 1);
    norm += amp;
    amp *= 0.5;
    f *= 2;
  }
  return sum / norm;
}

/** A period so large it never wraps in practice (local noise that need not tile). */
export const NOWRAP = 1 << 20;

const GRAD_X = new Float64Array(16);
const GRAD_Y = new Float64Array(16);
for (let k = 0; k < 16; k++) {
  GRAD_X[k] = Math.cos(((k + 0.5) * Math.PI) / 8);
  GRAD_Y[k] = Math.sin(((k + 0.5) * Math.PI) / 8);
}

// Permutation table (fixed shuffle of 0..1023, doubled): two table loads hash a lattice corner,
// much cheaper than the integer hash in the innermost noise loop.
const PERM = new Uint16Array(2048);
{
  for (let i = 0; i < 1024; i++) PERM[i] = i;
  let st = 0x2545f491;
  for (let i = 1023; i > 0; i--) {
    st = (Math.imul(st, 1664525) + 1013904223) | 0;
    const j = (st >>> 0) % (i + 1);
    const tmp = PERM[i]!;
    PERM[i] = PERM[j]!;
    PERM[j] = tmp;
  }
  for (let i = 0; i < 1024; i++) PERM[i + 1024] = PERM[i]!;
}

/** Periodic 2-D gradient noise, roughly in [-1, 1]; px, py are integer periods in lattice cells. */
export function gradientNoise(x: number, y: number, px: number, py: number, s: number): number {
  const xf = Math.floor(x), yf = Math.floor(y);
  const fx = x - xf, fy = y - yf;
  let x0 = xf % px;
  if (x0 < 0) x0 += px;
  let y0 = yf % py;
  if (y0 < 0) y0 += py;
  const x1 = x0 + 1 >= px ? 0 : x0 + 1;
  const y1 = y0 + 1 >= py ? 0 : y0 + 1;
  const sa = Math.imul(s, 0x9e3779b1) >>> 22, sb = Math.imul(s ^ 0x5bd1e995, 0x85ebca6b) >>> 22;
  const a0 = PERM[(x0 + sa) & 1023]!, a1 = PERM[(x1 + sa) & 1023]!;
  const b0 = (y0 + sb) & 1023, b1 = (y1 + sb) & 1023;
  const h00 = PERM[a0 + b0]! & 15, h10 = PERM[a1 + b0]! & 15;
  const h01 = PERM[a0 + b1]! & 15, h11 = PERM[a1 + b1]! & 15;
  const g00 = GRAD_X[h00]! * fx + GRAD_Y[h00]! * fy;
  const g10 = GRAD_X[h10]! * (fx - 1) + GRAD_Y[h10]! * fy;
  const g01 = GRAD_X[h01]! * fx + GRAD_Y[h01]! * (fy - 1);
  const g11 = GRAD_X[h11]! * (fx - 1) + GRAD_Y[h11]! * (fy - 1);
  const u = fx * fx * fx * (fx * (fx * 6 - 15) + 10);
  const v = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
  const a = g00 + u * (g10 - g00);
  const b = g01 + u * (g11 - g01);
  return (a + v * (b - a)) * 1.45;
}

/**
 * Fractal sum of `oct` octaves of gradientNoise, normalised to about [-1, 1] (typical sd ≈ 0.25).
 * For image-periodic lattices (px, py = cells across an image of width × height pixels), octaves
 * finer than about 1.5 px are skipped (invisible, aliased, slow).
 */
export function gradientFbm(x: number, y: number, px: number, py: number, s: number, oct: number, width: number, height: number): number {
  let sum = 0, amp = 1, norm = 0;
  const limited = px < NOWRAP;
  for (let i = 0; i < oct; i++) {
    if (i > 0 && limited && (width < px * 1.5 || height < py * 1.5)) break;
    sum += amp * gradientNoise(x, y, px, py, s + i * 131);
    norm += amp;
    x *= 2;
    y *= 2;
    px *= 2;
    py *= 2;
    amp *= 0.5;
  }
  return sum / norm;
}

/**
 * Periodic cellular noise: writes into `out` the distances (cell units) to the nearest and
 * second-nearest feature points, the nearest point's hash, and the offset (dx, dy) to it.
 */
export function worley(x: number, y: number, px: number, py: number, s: number, jitter: number, out: Float64Array): void {
  const xi = Math.floor(x), yi = Math.floor(y);
  let f1 = 1e9, f2 = 1e9, id = 0, bx = 0, by = 0;
  for (let dy = -1; dy <= 1; dy++) {
    const cy = yi + dy;
    let wy = cy % py;
    if (wy < 0) wy += py;
    for (let dx = -1; dx <= 1; dx++) {
      const cx = xi + dx;
      let wx = cx % px;
      if (wx < 0) wx += px;
      const h = hashInt(wx, wy, s);
      const ox = cx + 0.5 + ((h & 0xffff) / 65536 - 0.5) * jitter - x;
      const oy = cy + 0.5 + ((h >>> 16) / 65536 - 0.5) * jitter - y;
      const d = ox * ox + oy * oy;
      if (d < f1) {
        f2 = f1;
        f1 = d;
        id = h;
        bx = ox;
        by = oy;
      } else if (d < f2) {
        f2 = d;
      }
    }
  }
  out[0] = Math.sqrt(f1);
  out[1] = Math.sqrt(f2);
  out[2] = id;
  out[3] = bx;
  out[4] = by;
}
