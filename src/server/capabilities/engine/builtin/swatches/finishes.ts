/** Poured and applied finishes: paint, plaster (limewash, venetian, tadelakt, stucco, clay), concrete, terrazzo. */
import { gradientNoise, hash2, worley } from '@/server/capabilities/engine/builtin/noise';
import type { ConcreteTexture, PaintTexture, PlasterTexture, TerrazzoTexture } from '@/server/capabilities/reference/texture-schema';
import { WOR, XY, clamp01, dots, fbm, fbmField, hexToRgb, lowField, mod, per, putRgb, relief, sampleField, sstep, type Ctx } from './kit';

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

export function renderPaint(c: Ctx, t: PaintTexture): void {
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

export function renderPlaster(c: Ctx, t: PlasterTexture): void {
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

export function renderConcrete(c: Ctx, t: ConcreteTexture): void {
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

export function renderTerrazzo(c: Ctx, t: TerrazzoTexture): void {
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
