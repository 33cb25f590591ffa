/**
 * Deterministic pseudo-random helpers: string seeds, integer hashes, value noise.
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

/** Integer lattice hash -> [0,1). */
export function hash2(x: number, y: number, seed: number): number {
  let h = Math.imul(x | 0, 0x27d4eb2d) ^ Math.imul(y | 0, 0x165667b1) ^ Math.imul(seed | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
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
