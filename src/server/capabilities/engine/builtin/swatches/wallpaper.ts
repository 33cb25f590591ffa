/** Wallpaper: stripes, damasks, botanicals, geometrics and grasscloth. */
import { gradientNoise, hashInt, NOWRAP } from '@/server/capabilities/engine/builtin/noise';
import type { WallpaperTexture } from '@/server/capabilities/reference/texture-schema';
import { MISC, XY, clamp01, fbm, hexToRgb, lowField, mod, per, perMul, putRgb, sstep, type Ctx } from './kit';

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

export function renderWallpaper(c: Ctx, t: WallpaperTexture): void {
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
