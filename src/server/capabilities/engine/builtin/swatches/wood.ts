/** Wood: planks, parquet layouts (herringbone, chevron, basketweave), slats and veneers, with their figure. */
import { gradientNoise, hash2, hashInt, NOWRAP, worley } from '@/server/capabilities/engine/builtin/noise';
import type { WoodTexture } from '@/server/capabilities/reference/texture-schema';
import { LAY, WOR, XY, basketweave, chevron, fbm, fbmField, herringbone, hexToRgb, lowField, mod, per, perMul, sampleField, sstep, type Ctx } from './kit';

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

export function renderWood(c: Ctx, t: WoodTexture): void {
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
