/** Tiles (ceramic, porcelain, cement, terracotta in their layouts, grout included) and brick. */
import { gradientNoise, hash2, hashInt, NOWRAP } from '@/server/capabilities/engine/builtin/noise';
import type { BrickTexture, TilesTexture } from '@/server/capabilities/reference/texture-schema';
import { LAY, TIL, XY, dots, fbm, fbmField, herringbone, hexToRgb, mod, per, perMul, relief, sstep, type Ctx } from './kit';

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

export function renderTiles(c: Ctx, t: TilesTexture): void {
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

export function renderBrick(c: Ctx, t: BrickTexture): void {
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
