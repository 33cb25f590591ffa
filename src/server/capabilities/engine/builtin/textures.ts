/**
 * Procedural, tileable lightness-modulation textures for the textured finishes.
 * Each is a TILE x TILE Float32 tile with values roughly in [-1, 1] and mean ~0, generated once
 * and cached. Callers sample it with a texel size proportional to the image size so a finish
 * looks the same at 1k and 4k.
 */
import { fbm, valueNoise, hash2 } from './noise';

export type TextureKind = 'wood' | 'stone' | 'metal' | 'fabric' | 'concrete';
export const TILE = 1024;

const cache = new Map<TextureKind, Float32Array>();

function normalise(t: Float32Array): Float32Array {
  let mean = 0;
  for (let i = 0; i < t.length; i++) mean += t[i]!;
  mean /= t.length;
  let v = 0;
  for (let i = 0; i < t.length; i++) {
    const d = t[i]! - mean;
    t[i] = d;
    v += d * d;
  }
  const inv = 1 / Math.sqrt(v / t.length || 1);
  for (let i = 0; i < t.length; i++) t[i]! *= inv * 0.5; // std 0.5 -> mostly within [-1, 1]
  return t;
}

function build(kind: TextureKind): Float32Array {
  const t = new Float32Array(TILE * TILE);
  const P = TILE;
  for (let y = 0; y < P; y++) {
    for (let x = 0; x < P; x++) {
      let v = 0;
      switch (kind) {
        case 'wood': {
          // Flat-sawn grain: many thin dark latewood lines running along x, gently wavy
          // (low-frequency warp of a fraction of a ring), plus fibres stretched ~60:1.
          const warp = fbm(x / 256, y / 128, 11, 3, P / 256, P / 128) * 0.9 + fbm(x / 64, y / 64, 14, 2, P / 64) * 0.12;
          const phase = (y / P) * 128 + warp * 2.5;
          const ring = 0.5 + 0.5 * Math.sin(phase * 2 * Math.PI);
          const late = Math.pow(ring, 5); // thin dark lines
          const fibre = valueNoise(x / 64, y, 12, P / 64, P) * 2 - 1;
          const fibre2 = valueNoise(x / 128, y / 2, 13, P / 128, P / 2) * 2 - 1;
          const tone = fbm(x / 512, y / 32, 15, 2, P / 512, P / 32);
          v = -0.8 * late + 0.3 * fibre + 0.25 * fibre2 + 0.35 * tone;
          break;
        }
        case 'stone': {
          // Speckle (grains) over soft clouds, with a few thin veins (ridged noise).
          const clouds = fbm(x / 128, y / 128, 21, 4, P / 128);
          const ridge = 1 - Math.abs(fbm(x / 256, y / 256, 22, 4, P / 256));
          const vein = Math.pow(Math.max(0, ridge - 0.82) / 0.18, 3);
          const speck = hash2(x, y, 23) * 2 - 1;
          const grain = valueNoise(x / 2, y / 2, 24, P / 2) * 2 - 1;
          v = 0.45 * clouds + 0.25 * speck + 0.3 * grain - 0.45 * vein;
          break;
        }
        case 'metal': {
          // Brushed: long horizontal streaks (noise stretched ~200:1), faint cross variation.
          const streak = valueNoise(x / 256, y, 31, P / 256, P) * 2 - 1;
          const streak2 = valueNoise(x / 64, y * 2, 32, P / 64, P * 2) * 2 - 1;
          const broad = fbm(x / 256, y / 256, 33, 2, P / 256);
          v = 0.55 * streak + 0.3 * streak2 + 0.25 * broad;
          break;
        }
        case 'fabric': {
          // Plain weave: alternating over/under threads (period 4 texels) with yarn noise.
          const px = 4;
          const cx = Math.floor(x / px), cy = Math.floor(y / px);
          const fx = (x % px) / px, fy = (y % px) / px;
          const over = (cx + cy) & 1;
          // thread profile: bright crest in the middle of each crossing
          const prof = over ? Math.sin(Math.PI * fx) : Math.sin(Math.PI * fy);
          const yarn = valueNoise(x / 8, y / 8, 41, P / 8) * 2 - 1;
          const slub = fbm(x / 64, y / 64, 42, 2, P / 64);
          v = 0.6 * (prof - 0.64) * 2 + 0.25 * yarn + 0.2 * slub;
          break;
        }
        case 'concrete': {
          // Mottling (low-frequency blotches), trowel clouds, fine aggregate and a few pores.
          const mottle = fbm(x / 256, y / 256, 51, 4, P / 256);
          const cloud = fbm(x / 32, y / 32, 52, 3, P / 32);
          const fine = hash2(x, y, 53) * 2 - 1;
          const pore = hash2(x >> 1, y >> 1, 54) > 0.998 ? -1 : 0;
          v = 0.55 * mottle + 0.25 * cloud + 0.15 * fine + pore * 0.35;
          break;
        }
      }
      t[y * P + x] = v;
    }
  }
  return normalise(t);
}

export function textureTile(kind: TextureKind): Float32Array {
  let t = cache.get(kind);
  if (!t) {
    t = build(kind);
    cache.set(kind, t);
  }
  return t;
}

/** Bilinear sample with wrap-around at texel coordinates (u, v). */
export function sampleTile(t: Float32Array, u: number, v: number): number {
  const x0f = Math.floor(u), y0f = Math.floor(v);
  const fx = u - x0f, fy = v - y0f;
  const x0 = x0f & (TILE - 1), y0 = y0f & (TILE - 1);
  const x1 = (x0 + 1) & (TILE - 1), y1 = (y0 + 1) & (TILE - 1);
  const a = t[y0 * TILE + x0]!, b = t[y0 * TILE + x1]!;
  const c = t[y1 * TILE + x0]!, d = t[y1 * TILE + x1]!;
  const top = a + (b - a) * fx;
  return top + (c + (d - c) * fx - top) * fy;
}
