/** Natural stone: marble (veined, breccia, onyx) and granite, quartz, slate, travertine, limestone and the like. */
import { gradientNoise, worley } from '@/server/capabilities/engine/builtin/noise';
import type { MarbleTexture, StoneTexture } from '@/server/capabilities/reference/texture-schema';
import { WOR, XY, dots, fbm, fbmField, hexToRgb, lowField, per, putRgb, relief, sampleField, sstep, type Ctx } from './kit';

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

export function renderMarble(c: Ctx, t: MarbleTexture): void {
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

export function renderStone(c: Ctx, t: StoneTexture): void {
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
