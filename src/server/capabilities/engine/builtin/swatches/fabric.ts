/** Fabrics and leather: woven textiles by weave, and hides. */
import { gradientNoise, hash2, worley } from '@/server/capabilities/engine/builtin/noise';
import type { FabricTexture } from '@/server/capabilities/reference/texture-schema';
import { WOR, XY, fbm, fbmField, hexToRgb, lowField, per, perMul, relief, sampleField, sstep, type Ctx } from './kit';

// ---------------------------------------------------------------------------------------------
// Fabric and leather
// ---------------------------------------------------------------------------------------------

export const THREAD_CM: Record<FabricTexture['weave'], number> = {
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

export function renderFabric(c: Ctx, t: FabricTexture): void {
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
