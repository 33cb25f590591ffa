/** Metals (brushed, polished, hammered, patinated) and glass and mirror. */
import { gradientNoise, worley } from '@/server/capabilities/engine/builtin/noise';
import type { GlassTexture, MetalTexture } from '@/server/capabilities/reference/texture-schema';
import { WOR, XY, dots, fbm, fbmField, hexToRgb, lowField, per, putRgb, relief, sampleField, sstep, type Ctx } from './kit';

// ---------------------------------------------------------------------------------------------
// Metal
// ---------------------------------------------------------------------------------------------

export function renderMetal(c: Ctx, t: MetalTexture): void {
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

export function renderGlass(c: Ctx, t: GlassTexture): void {
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
