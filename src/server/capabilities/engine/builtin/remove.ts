/**
 * remove: fill the masked area from its surroundings.
 *
 * 1. The mask is dilated a little so object edges (anti-aliasing, halos) go too.
 * 2. Only a window around the hole (its bbox plus a margin) is processed.
 * 3. Multi-scale PatchMatch completion (Wexler et al. 2007, Barnes et al. 2009, with the
 *    texture features of Newson et al. 2014): a coarse-to-fine pyramid; at each level an EM
 *    loop of nearest-neighbour-field search (propagation + random search, 7x7 patches, sources
 *    restricted to patches without hole pixels, a mild preference for nearby sources) and
 *    similarity-weighted voting. Patches carry colour plus local gradient energy, so a
 *    textured floor is not filled with flat patches. The coarsest level is initialised by a
 *    Criminisi-style priority onion peel (structure-first), which carries straight edges such
 *    as skirting boards across the hole.
 *
 * Limits (honest): the fill re-uses texture that exists around the hole; it cannot invent
 * structure that is not there (a hidden door, the rest of a unique object), and long
 * perspective lines (floor boards converging to a vanishing point) are continued only roughly.
 * Holes above `maxFullResHole` pixels are completed at a reduced resolution and enlarged
 * (softer); holes over `maxHoleFraction` of the image get a smooth push-pull fill only.
 */
import { assertImage, assertMask, type Mask, type RawImage } from './types';
import { SRGB_TO_LINEAR, linToByte } from './color';
import { dilate, maskBBox, expandBBox, type BBox } from './masks';
import { maskedBlur, boxBlurFloat } from './filters';
import { rng } from './noise';

export type RemoveOptions = {
  /** Dilation of the mask in pixels (default ~0.4% of the long side, at least 2). */
  dilate?: number;
  /** Largest hole (pixels) completed at full resolution (default 300k). */
  maxFullResHole?: number;
  /** Above this share of the image, fall back to the smooth fill (default 0.35). */
  maxHoleFraction?: number;
  seed?: number;
  /**
   * Also lift the object's cast shadow: pixels next to the area that look like a darker copy
   * of what surrounds them are relit (default true). This changes pixels outside the area,
   * as the spec allows for remove/replace ("the whole designated object").
   */
  castShadows?: boolean;
};

export type RemoveInfo = {
  method: 'patchmatch' | 'patchmatch-reduced' | 'diffusion' | 'none';
  holePixels: number;
  /** Pixels outside the hole brightened because they were the object's cast shadow. */
  shadowLifted: number;
  window: BBox | null;
  levels: number;
  /** Pyramid level whose result was enlarged to full size (0 = full resolution). */
  finestLevel: number;
  ms: number;
};

/** Channels per pixel: r, g, b, then gradient energy along x and y (texture features). */
const NC = 5;
/** Weight of the texture features relative to colour (both in 0..255 units). */
const FEAT_W = 10;
const PR = 3; // patch radius: 7x7 patches
/** Hole extent (px) at the coarsest level, where the onion peel lays out the structure. */
const COARSE_SPAN = 40;
/** Cast-shadow search: band width, ratio smoothing radius (x long side), attenuation threshold. */
const SH_R = 0.05, SH_S = 0.004, SH_T = 0.92;

type Level = { w: number; h: number; img: Float32Array; hole: Uint8Array };

export function removeArea(img: RawImage, mask: Mask, opts: RemoveOptions = {}): RawImage {
  return removeAreaWithInfo(img, mask, opts).image;
}

export function removeAreaWithInfo(img: RawImage, mask: Mask, opts: RemoveOptions = {}): { image: RawImage; info: RemoveInfo } {
  const t0 = performance.now();
  assertImage(img);
  assertMask(img, mask);
  const { width: W, height: H, channels: C } = img;
  const out = Uint8Array.from(img.data);
  const long = Math.max(W, H);
  const bin = new Uint8Array(W * H);
  for (let i = 0; i < bin.length; i++) if (mask.alpha[i]! >= 128) bin[i] = 255;
  const dil = opts.dilate ?? Math.max(2, Math.round(long * 0.004));
  const holeFull = dilate(bin, W, H, dil);
  const hb = maskBBox(holeFull, W, H, 128);
  if (!hb) {
    return { image: { data: out, width: W, height: H, channels: C }, info: { method: 'none', holePixels: 0, shadowLifted: 0, window: null, levels: 0, finestLevel: 0, ms: performance.now() - t0 } };
  }
  let holePixels = 0;
  for (let i = 0; i < holeFull.length; i++) if (holeFull[i]! >= 128) holePixels++;
  const rand = rng(opts.seed ?? 0x5eed);

  const maxFrac = opts.maxHoleFraction ?? 0.35;
  const diffusionOnly = holePixels > maxFrac * W * H;
  // Window: hole bbox plus a margin proportional to the hole, so sources are nearby.
  const bw0 = hb.x1 - hb.x0, bh0 = hb.y1 - hb.y0;
  const margin = diffusionOnly ? Math.max(bw0, bh0) : Math.max(24, Math.round(0.75 * Math.max(bw0, bh0)));
  const win = expandBBox(hb, margin, W, H);
  const w = win.x1 - win.x0, h = win.y1 - win.y0;
  // Cast shadow first: the fill then samples unshadowed surroundings.
  const shadowLifted = diffusionOnly || !(opts.castShadows ?? true) ? 0 : liftCastShadow(img, out, holeFull, long);
  const L0: Level = { w, h, img: new Float32Array(w * h * NC), hole: new Uint8Array(w * h) };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const gi = (win.y0 + y) * W + win.x0 + x;
      const li = y * w + x;
      L0.img[li * NC] = out[gi * C]!;
      L0.img[li * NC + 1] = out[gi * C + 1]!;
      L0.img[li * NC + 2] = out[gi * C + 2]!;
      L0.hole[li] = holeFull[gi]! >= 128 ? 1 : 0;
    }
  }

  let method: RemoveInfo['method'] = 'patchmatch';
  let levels = 1, finest = 0;
  if (diffusionOnly) {
    method = 'diffusion';
    pushPullFill(L0, 3);
  } else {
    addTextureFeatures(L0);
    const pyr: Level[] = [L0];
    for (;;) {
      const last = pyr[pyr.length - 1]!;
      const b = holeBBox(last);
      const span = b ? Math.max(b.x1 - b.x0, b.y1 - b.y0) : 0;
      if (span <= COARSE_SPAN || Math.min(last.w, last.h) < 8 * PR * 2 + 4) break;
      pyr.push(downsample(last));
    }
    levels = pyr.length;
    const maxFull = opts.maxFullResHole ?? 300_000;
    while (finest < pyr.length - 1 && countHole(pyr[finest]!) > maxFull) finest++;
    if (finest > 0) method = 'patchmatch-reduced';
    let nnf: Int32Array | null = null;
    for (let l = pyr.length - 1; l >= finest; l--) {
      const L = pyr[l]!;
      const coarsest = l === pyr.length - 1;
      if (coarsest) pushPullFill(L, NC); // smooth estimate that guides the onion peel
      else upsampleInto(pyr[l + 1]!, L);
      nnf = completeLevel(L, nnf, pyr[l + 1] ?? null, rand, {
        em: coarsest ? 5 : l === finest ? 2 : 3,
        passes: coarsest ? 3 : 2,
        // coarse levels search widely; the finest level only refines around the upsampled
        // field (its structure was decided above), which halves its cost
        radius: coarsest ? Math.max(L.w, L.h) : l === finest ? 8 : Math.max(4, Math.round(Math.max(L.w, L.h) / 16)),
        // the finest level compares colour only: features matter for the layout, and skipping
        // them there saves 40% of the most expensive level
        distChannels: l === finest && l < pyr.length - 1 ? 3 : NC,
        onion: coarsest,
      });
    }
    // A reduced-resolution completion is enlarged level by level (bilinear) into the hole.
    for (let l = finest - 1; l >= 0; l--) upsampleInto(pyr[l + 1]!, pyr[l]!);
  }

  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const li = y * w + x;
      if (!L0.hole[li]) continue;
      const o = ((win.y0 + y) * W + win.x0 + x) * C;
      for (let c = 0; c < 3; c++) {
        const v = L0.img[li * NC + c]!;
        out[o + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
      }
    }
  }
  return {
    image: { data: out, width: W, height: H, channels: C },
    info: { method, holePixels, shadowLifted, window: win, levels, finestLevel: finest, ms: performance.now() - t0 },
  };
}

/** Gradient energy |dY/dx|, |dY/dy| averaged over 5x5 known pixels (hole pixels get 0). */
function addTextureFeatures(L: Level): void {
  const { w, h, img, hole } = L;
  const n = w * h;
  const gx = new Float32Array(n), gy = new Float32Array(n), known = new Float32Array(n);
  const Y = (i: number): number => (img[i * NC]! + img[i * NC + 1]! + img[i * NC + 2]!) / 3;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (hole[i]) continue;
      known[i] = 1;
      if (x > 0 && x < w - 1 && !hole[i - 1] && !hole[i + 1]) gx[i] = Math.abs(Y(i + 1) - Y(i - 1)) / 2;
      if (y > 0 && y < h - 1 && !hole[i - w] && !hole[i + w]) gy[i] = Math.abs(Y(i + w) - Y(i - w)) / 2;
    }
  }
  const bx = maskedBlur(gx, known, w, h, 2, 1);
  const by = maskedBlur(gy, known, w, h, 2, 1);
  for (let i = 0; i < n; i++) {
    if (hole[i]) continue;
    img[i * NC + 3] = bx[i]! * FEAT_W;
    img[i * NC + 4] = by[i]! * FEAT_W;
  }
}

function countHole(L: Level): number {
  let n = 0;
  for (let i = 0; i < L.hole.length; i++) n += L.hole[i]!;
  return n;
}

function holeBBox(L: Level): BBox | null {
  let x0 = L.w, y0 = L.h, x1 = -1, y1 = -1;
  for (let y = 0; y < L.h; y++) for (let x = 0; x < L.w; x++) {
    if (!L.hole[y * L.w + x]) continue;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return x1 < 0 ? null : { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

/** Half-size level: known pixels average their known children; any hole child makes a hole. */
function downsample(L: Level): Level {
  const w = Math.ceil(L.w / 2), h = Math.ceil(L.h / 2);
  const img = new Float32Array(w * h * NC);
  const hole = new Uint8Array(w * h);
  const acc = new Float32Array(NC);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      acc.fill(0);
      let n = 0, anyHole = 0;
      for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) {
        const sx = 2 * x + dx, sy = 2 * y + dy;
        if (sx >= L.w || sy >= L.h) continue;
        const si = sy * L.w + sx;
        if (L.hole[si]) {
          anyHole = 1;
          continue;
        }
        for (let c = 0; c < NC; c++) acc[c]! += L.img[si * NC + c]!;
        n++;
      }
      const i = y * w + x;
      hole[i] = anyHole;
      if (n) for (let c = 0; c < NC; c++) img[i * NC + c] = acc[c]! / n;
    }
  }
  return { w, h, img, hole };
}

/** Bilinear enlargement of the coarse level into the fine level's hole pixels. */
function upsampleInto(coarse: Level, fine: Level): void {
  const { w, h } = fine;
  const cw = coarse.w, ci = coarse.img;
  for (let y = 0; y < h; y++) {
    const cy = Math.min(coarse.h - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(cy), y1 = Math.min(coarse.h - 1, y0 + 1), fy = cy - y0;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!fine.hole[i]) continue;
      const cx = Math.min(cw - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
      const x0 = Math.floor(cx), x1 = Math.min(cw - 1, x0 + 1), fx = cx - x0;
      for (let c = 0; c < NC; c++) {
        const a = ci[(y0 * cw + x0) * NC + c]!, b = ci[(y0 * cw + x1) * NC + c]!;
        const d = ci[(y1 * cw + x0) * NC + c]!, e = ci[(y1 * cw + x1) * NC + c]!;
        const top = a + (b - a) * fx, bot = d + (e - d) * fx;
        fine.img[i * NC + c] = top + (bot - top) * fy;
      }
    }
  }
}

/**
 * Push-pull fill (pyramid diffusion) of the first `nc` channels: hole pixels get a smooth
 * interpolation of the known ones. Starts the coarsest level; the large-hole fallback.
 */
function pushPullFill(L: Level, nc: number): void {
  const { w, h, img, hole } = L;
  type P = { w: number; h: number; v: Float32Array; wt: Float32Array };
  const base: P = { w, h, v: new Float32Array(w * h * NC), wt: new Float32Array(w * h) };
  for (let i = 0; i < w * h; i++) {
    if (hole[i]) continue;
    base.wt[i] = 1;
    for (let c = 0; c < nc; c++) base.v[i * NC + c] = img[i * NC + c]!;
  }
  const pyr: P[] = [base];
  const acc = new Float32Array(NC);
  while (pyr[pyr.length - 1]!.w > 1 || pyr[pyr.length - 1]!.h > 1) {
    const p = pyr[pyr.length - 1]!;
    const cw = Math.ceil(p.w / 2), ch = Math.ceil(p.h / 2);
    const q: P = { w: cw, h: ch, v: new Float32Array(cw * ch * NC), wt: new Float32Array(cw * ch) };
    for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) {
      let s = 0;
      acc.fill(0);
      for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) {
        const sx = 2 * x + dx, sy = 2 * y + dy;
        if (sx >= p.w || sy >= p.h) continue;
        const si = sy * p.w + sx;
        const wt = p.wt[si]!;
        s += wt;
        for (let c = 0; c < nc; c++) acc[c]! += p.v[si * NC + c]! * wt;
      }
      const i = y * cw + x;
      if (s > 0) for (let c = 0; c < nc; c++) q.v[i * NC + c] = acc[c]! / s;
      q.wt[i] = Math.min(1, s);
    }
    pyr.push(q);
  }
  // Pull: each level's missing weight is filled from the (already filled) coarser level.
  for (let l = pyr.length - 2; l >= 0; l--) {
    const p = pyr[l]!, q = pyr[l + 1]!;
    for (let y = 0; y < p.h; y++) {
      const cy = Math.min(q.h - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
      const y0 = Math.floor(cy), y1 = Math.min(q.h - 1, y0 + 1), fy = cy - y0;
      for (let x = 0; x < p.w; x++) {
        const i = y * p.w + x;
        const wt = p.wt[i]!;
        if (wt >= 1) continue;
        const cx = Math.min(q.w - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
        const x0 = Math.floor(cx), x1 = Math.min(q.w - 1, x0 + 1), fx = cx - x0;
        for (let c = 0; c < nc; c++) {
          const a = q.v[(y0 * q.w + x0) * NC + c]!, b = q.v[(y0 * q.w + x1) * NC + c]!;
          const d = q.v[(y1 * q.w + x0) * NC + c]!, e = q.v[(y1 * q.w + x1) * NC + c]!;
          const top = a + (b - a) * fx;
          const up = top + (d + (e - d) * fx - top) * fy;
          p.v[i * NC + c] = p.v[i * NC + c]! * wt + up * (1 - wt);
        }
        p.wt[i] = 1;
      }
    }
  }
  for (let i = 0; i < w * h; i++) {
    if (!hole[i]) continue;
    for (let c = 0; c < nc; c++) img[i * NC + c] = base.v[i * NC + c]!;
  }
}

type EMParams = { em: number; passes: number; radius: number; distChannels: number; onion: boolean };

/**
 * One pyramid level of completion. Returns the nearest-neighbour field (source centre index per
 * target centre, -1 elsewhere) for the next, finer level.
 */
function completeLevel(L: Level, prevNnf: Int32Array | null, prev: Level | null, rand: () => number, prm: EMParams): Int32Array {
  const { w, h, img, hole } = L;
  const n = w * h;
  const ND = prm.distChannels;
  // Targets: centres whose patch touches the hole; sources: centres whose patch has no hole.
  const hole255 = new Uint8Array(n);
  for (let i = 0; i < n; i++) hole255[i] = hole[i] ? 255 : 0;
  const near = dilate(hole255, w, h, PR);
  const valid = new Uint8Array(n);
  const targetsArr: number[] = [];
  const validArr: number[] = [];
  for (let y = PR; y < h - PR; y++) for (let x = PR; x < w - PR; x++) {
    const i = y * w + x;
    if (near[i]) targetsArr.push(i);
    else {
      valid[i] = 1;
      validArr.push(i);
    }
  }
  const targets = Int32Array.from(targetsArr);
  const validList = Int32Array.from(validArr);
  const nnf = new Int32Array(n).fill(-1);
  const dist = new Float32Array(n);
  if (validList.length === 0 || targets.length === 0) return nnf;
  const randomValid = (): number => validList[Math.floor(rand() * validList.length)]!;

  const offs = new Int32Array((2 * PR + 1) * (2 * PR + 1));
  const offX = new Int32Array(offs.length), offY = new Int32Array(offs.length);
  {
    let k = 0;
    for (let dy = -PR; dy <= PR; dy++) for (let dx = -PR; dx <= PR; dx++) {
      offX[k] = dx;
      offY[k] = dy;
      offs[k++] = dy * w + dx;
    }
  }
  const K = offs.length;
  // Mild preference for nearby sources: a source `spread` (1/4 of the level's diagonal) away
  // costs as much as a 4-level difference on every channel of the patch, so unrelated
  // look-alikes far away (a picture frame for a wall edge) lose to what is next to the hole.
  const spread = 0.25 * Math.hypot(w, h);
  const penPix = (ND * 16) / (spread * spread);

  if (prm.onion) onionPeel(L, valid, validList, offX, offY, nnf, rand, penPix);

  // Initial field: from the coarser level when there is one (or the onion peel), else random.
  for (let t = 0; t < targets.length; t++) {
    const p = targets[t]!;
    let q = -1;
    if (prevNnf && prev) {
      const x = p % w, y = (p / w) | 0;
      const cp = (y >> 1) * prev.w + (x >> 1);
      const cq = cp < prevNnf.length ? prevNnf[cp]! : -1;
      if (cq >= 0) {
        const qx = Math.min(w - PR - 1, Math.max(PR, 2 * (cq % prev.w) + (x & 1)));
        const qy = Math.min(h - PR - 1, Math.max(PR, 2 * ((cq / prev.w) | 0) + (y & 1)));
        const cand = qy * w + qx;
        if (valid[cand]) q = cand;
      }
    }
    if (q < 0 && nnf[p]! >= 0 && valid[nnf[p]!]) q = nnf[p]!;
    nnf[p] = q >= 0 ? q : randomValid();
  }

  const penK = penPix * K;
  const side = 2 * PR + 1;
  const rowSkip = (w - side) * NC;
  const corner = PR * w + PR;
  // Patch distance, row by row (early exit per row), channels unrolled.
  const D = (p: number, q: number, limit: number): number => {
    const ddx = (p % w) - (q % w), ddy = ((p / w) | 0) - ((q / w) | 0);
    let s = penK * (ddx * ddx + ddy * ddy);
    let a = (p - corner) * NC, b = (q - corner) * NC;
    if (ND === 3) {
      for (let dy = 0; dy < side; dy++) {
        for (let dx = 0; dx < side; dx++) {
          const d0 = img[a]! - img[b]!, d1 = img[a + 1]! - img[b + 1]!, d2 = img[a + 2]! - img[b + 2]!;
          s += d0 * d0 + d1 * d1 + d2 * d2;
          a += NC;
          b += NC;
        }
        if (s >= limit) return s;
        a += rowSkip;
        b += rowSkip;
      }
    } else {
      for (let dy = 0; dy < side; dy++) {
        for (let dx = 0; dx < side; dx++) {
          const d0 = img[a]! - img[b]!, d1 = img[a + 1]! - img[b + 1]!, d2 = img[a + 2]! - img[b + 2]!;
          const d3 = img[a + 3]! - img[b + 3]!, d4 = img[a + 4]! - img[b + 4]!;
          s += d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3 + d4 * d4;
          a += NC;
          b += NC;
        }
        if (s >= limit) return s;
        a += rowSkip;
        b += rowSkip;
      }
    }
    return s;
  };

  const acc = new Float32Array(n * NC);
  const wsum = new Float32Array(n);
  const vote = (): void => {
    // Each hole pixel averages what the patches covering it propose, weighted by patch
    // similarity (sigma from the 75th percentile of the distances).
    const sample = new Float32Array(Math.min(4096, targets.length));
    for (let s = 0; s < sample.length; s++) sample[s] = dist[targets[Math.floor((s * targets.length) / sample.length)]!]!;
    sample.sort();
    const sigma2 = Math.max(1, sample[Math.floor(sample.length * 0.75)]!);
    acc.fill(0);
    wsum.fill(0);
    for (let t = 0; t < targets.length; t++) {
      const p = targets[t]!, q = nnf[p]!;
      const wt = Math.exp(-dist[p]! / (2 * sigma2));
      for (let k = 0; k < K; k++) {
        const x = p + offs[k]!;
        if (!hole[x]) continue;
        const a = x * NC, b = (q + offs[k]!) * NC;
        acc[a]! += wt * img[b]!;
        acc[a + 1]! += wt * img[b + 1]!;
        acc[a + 2]! += wt * img[b + 2]!;
        if (ND > 3) {
          // features only matter for the levels still to come
          acc[a + 3]! += wt * img[b + 3]!;
          acc[a + 4]! += wt * img[b + 4]!;
        }
        wsum[x]! += wt;
      }
    }
    for (let i = 0; i < n; i++) {
      if (!hole[i] || wsum[i]! <= 0) continue;
      const inv = 1 / wsum[i]!;
      for (let c = 0; c < ND; c++) img[i * NC + c] = acc[i * NC + c]! * inv;
    }
  };
  const refreshDist = (): void => {
    for (let t = 0; t < targets.length; t++) {
      const p = targets[t]!;
      dist[p] = D(p, nnf[p]!, Infinity);
    }
  };

  if (prevNnf) {
    // Rebuild the hole from the upsampled field with this level's sharp source pixels before
    // searching; searching against the blurry enlarged estimate would favour flat patches.
    refreshDist();
    vote();
  }
  for (let em = 0; em < prm.em; em++) {
    refreshDist();
    for (let pass = 0; pass < prm.passes; pass++) {
      const fwd = (pass & 1) === 0;
      const dir = fwd ? 1 : -1;
      for (let tt = 0; tt < targets.length; tt++) {
        const p = targets[fwd ? tt : targets.length - 1 - tt]!;
        let best = nnf[p]!, bestD = dist[p]!;
        // propagation from the already-visited neighbours (left/up, or right/down)
        const ql = nnf[p - dir]!, qu = nnf[p - dir * w]!;
        if (ql >= 0) {
          const c = ql + dir;
          if (c !== best && valid[c]) {
            const d = D(p, c, bestD);
            if (d < bestD) { bestD = d; best = c; }
          }
        }
        if (qu >= 0) {
          const c = qu + dir * w;
          if (c !== best && valid[c]) {
            const d = D(p, c, bestD);
            if (d < bestD) { bestD = d; best = c; }
          }
        }
        // random search around the current best, radius halving
        const bx = best % w, by = (best / w) | 0;
        for (let rad = prm.radius; rad >= 1; rad >>= 1) {
          let qx = bx + Math.round((rand() * 2 - 1) * rad);
          let qy = by + Math.round((rand() * 2 - 1) * rad);
          qx = qx < PR ? PR : qx >= w - PR ? w - PR - 1 : qx;
          qy = qy < PR ? PR : qy >= h - PR ? h - PR - 1 : qy;
          const c = qy * w + qx;
          if (c === best || !valid[c]) continue;
          const d = D(p, c, bestD);
          if (d < bestD) { bestD = d; best = c; }
        }
        // an occasional global jump escapes local minima at the fine levels
        if (rand() < 0.1) {
          const c = randomValid();
          const d = D(p, c, bestD);
          if (d < bestD) { bestD = d; best = c; }
        }
        nnf[p] = best;
        dist[p] = bestD;
      }
    }
    vote();
  }
  return nnf;
}

/**
 * Criminisi-style priority onion peel on the (small) coarsest level: front pixels are filled
 * in order of confidence x data term (isophotes hitting the front first, so straight edges
 * propagate before flat areas close over them), each copied from the source patch that best
 * matches its filled neighbours (unfilled pixels, holding the smooth push-pull estimate, count
 * a quarter). Candidates: a subsample of all sources plus the coherent continuations of the
 * neighbours' choices.
 */
function onionPeel(
  L: Level, valid: Uint8Array, validList: Int32Array, offX: Int32Array, offY: Int32Array,
  nnf: Int32Array, rand: () => number, penPix: number,
): void {
  const { w, h, img, hole } = L;
  const n = w * h;
  const filled = new Uint8Array(n);
  const conf = new Float32Array(n);
  const src = new Int32Array(n).fill(-1);
  let remaining = 0;
  for (let i = 0; i < n; i++) {
    if (hole[i]) remaining++;
    else {
      filled[i] = 1;
      conf[i] = 1;
    }
  }
  const maxCand = 1500;
  const step = Math.max(1, Math.floor(validList.length / maxCand));
  const K = offX.length;
  const Y = (i: number): number => (img[i * NC]! + img[i * NC + 1]! + img[i * NC + 2]!) / 3;
  const wts = new Float32Array(K);
  const tis = new Int32Array(K);

  while (remaining > 0) {
    const front: number[] = [];
    for (let i = 0; i < n; i++) {
      if (filled[i]) continue;
      const x = i % w, y = (i / w) | 0;
      if ((x > 0 && filled[i - 1]) || (x < w - 1 && filled[i + 1]) || (y > 0 && filled[i - w]) || (y < h - 1 && filled[i + w])) front.push(i);
    }
    if (front.length === 0) break;
    const pri = new Float32Array(front.length);
    const cpatch = new Float32Array(front.length);
    for (let f = 0; f < front.length; f++) {
      const p = front[f]!;
      const px = p % w, py = (p / w) | 0;
      let cs = 0, cn = 0;
      for (let k = 0; k < K; k++) {
        const tx = px + offX[k]!, ty = py + offY[k]!;
        if (tx < 0 || ty < 0 || tx >= w || ty >= h) continue;
        cs += conf[ty * w + tx]!;
        cn++;
      }
      // front normal from the filled mask, isophote = strongest filled gradient nearby
      const fm = (x: number, y: number): number => (x < 0 || y < 0 || x >= w || y >= h ? 0 : filled[y * w + x]!);
      let nx = fm(px + 1, py) - fm(px - 1, py), ny = fm(px, py + 1) - fm(px, py - 1);
      const nl = Math.hypot(nx, ny) || 1;
      nx /= nl;
      ny /= nl;
      let data = 0;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
        const x = px + dx, y = py + dy;
        if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) continue;
        const i = y * w + x;
        if (!filled[i] || !filled[i - 1] || !filled[i + 1] || !filled[i - w] || !filled[i + w]) continue;
        const gx = (Y(i + 1) - Y(i - 1)) / 2, gy = (Y(i + w) - Y(i - w)) / 2;
        const d = Math.abs(-gy * nx + gx * ny); // isophote (-gy, gx) . normal
        if (d > data) data = d;
      }
      cpatch[f] = cs / cn;
      pri[f] = cpatch[f]! * (data / 255 + 0.02);
    }
    const order = Array.from(front.keys()).sort((a, b) => pri[b]! - pri[a]!);
    const take = Math.max(1, Math.ceil(front.length * 0.1));
    for (let oi = 0; oi < take; oi++) {
      const f = order[oi]!;
      const p = front[f]!;
      const px = p % w, py = (p / w) | 0;
      let wsum = 0, m = 0;
      for (let k = 0; k < K; k++) {
        const tx = px + offX[k]!, ty = py + offY[k]!;
        if (tx < 0 || ty < 0 || tx >= w || ty >= h) continue;
        const ti = ty * w + tx;
        const wk = filled[ti] ? 1 : 0.25;
        wts[m] = wk;
        tis[m] = k;
        wsum += wk;
        m++;
      }
      let best = -1, bestD = Infinity;
      const tryQ = (q: number): void => {
        const qx = q % w, qy = (q / w) | 0;
        const ddx = px - qx, ddy = py - qy;
        const limit = (bestD - penPix * (ddx * ddx + ddy * ddy)) * wsum;
        let s = 0;
        for (let j = 0; j < m; j++) {
          const k = tis[j]!;
          const a = ((py + offY[k]!) * w + px + offX[k]!) * NC;
          const b = ((qy + offY[k]!) * w + qx + offX[k]!) * NC;
          let e = 0;
          for (let c = 0; c < NC; c++) {
            const d = img[a + c]! - img[b + c]!;
            e += d * d;
          }
          s += wts[j]! * e;
          if (s >= limit) return;
        }
        const d = s / wsum + penPix * (ddx * ddx + ddy * ddy);
        if (d < bestD) {
          bestD = d;
          best = q;
        }
      };
      // coherent continuations of filled neighbours' sources
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const x = px + dx, y = py + dy;
        if ((dx === 0 && dy === 0) || x < 0 || y < 0 || x >= w || y >= h) continue;
        const s = src[y * w + x]!;
        if (s < 0) continue;
        const c = s - dy * w - dx;
        if (c >= 0 && c < n && valid[c]) tryQ(c);
      }
      const jitter = Math.floor(rand() * step);
      for (let c = jitter; c < validList.length; c += step) tryQ(validList[c]!);
      if (best >= 0) {
        for (let c = 0; c < NC; c++) img[p * NC + c] = img[best * NC + c]!;
        src[p] = best;
        if (px >= PR && py >= PR && px < w - PR && py < h - PR) nnf[p] = best;
      }
      filled[p] = 1;
      conf[p] = cpatch[f]!;
      remaining--;
    }
  }
}


/**
 * Lift the object's cast shadow (relight, do not repaint: the texture under a shadow is real).
 * In a band around the hole (3.5% of the long side) the unshadowed colour is interpolated
 * (push-pull) from a ring further out; the ratio actual/expected luminance, smoothed to ignore
 * texture, is the shadow's attenuation. Where it is below 0.9 and connected to the hole, the
 * pixels are divided by it, with a soft falloff. Conservative by design: a shadow inside a
 * larger shadow, or a dark object of another colour (chromaticity check), is left alone.
 * Writes into `out` (same layout as img); returns how many pixels changed.
 */
function liftCastShadow(img: RawImage, out: Uint8Array, hole: Uint8Array, long: number): number {
  const { width: W, height: H, channels: C } = img;
  const R = Math.max(4, Math.round(long * SH_R));
  const inner = dilate(hole, W, H, R);
  const outer = dilate(hole, W, H, 2 * R);
  const bb = maskBBox(outer, W, H, 1);
  if (!bb) return 0;
  const w = bb.x1 - bb.x0, h = bb.y1 - bb.y0;
  const L: Level = { w, h, img: new Float32Array(w * h * NC), hole: new Uint8Array(w * h) };
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const gi = (bb.y0 + y) * W + bb.x0 + x, li = y * w + x;
    const known = outer[gi]! > 0 && inner[gi]! === 0;
    L.hole[li] = known ? 0 : 1;
    if (known) for (let c = 0; c < 3; c++) L.img[li * NC + c] = SRGB_TO_LINEAR[img.data[gi * C + c]!]!;
  }
  pushPullFill(L, 3);
  // ratio actual/expected on band pixels that keep the expected chromaticity
  const ratio = new Float32Array(w * h), rw = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const gi = (bb.y0 + y) * W + bb.x0 + x, li = y * w + x;
    if (hole[gi]! || !inner[gi]!) continue;
    const er = L.img[li * NC]!, eg = L.img[li * NC + 1]!, eb = L.img[li * NC + 2]!;
    const ee = er * er + eg * eg + eb * eb;
    if (ee < 1e-6) continue;
    const r = SRGB_TO_LINEAR[img.data[gi * C]!]!, g = SRGB_TO_LINEAR[img.data[gi * C + 1]!]!, b = SRGB_TO_LINEAR[img.data[gi * C + 2]!]!;
    const k = (r * er + g * eg + b * eb) / ee;
    const res = Math.hypot(r - k * er, g - k * eg, b - k * eb) / Math.sqrt(ee);
    if (k > 0.2 && res < 0.08 * k + 0.03) {
      ratio[li] = Math.min(1.1, k);
      rw[li] = 1;
    }
  }
  const smooth = maskedBlur(ratio, rw, w, h, Math.max(1, Math.round(long * SH_S)), 2);
  // The interpolated 'expected' colour is slightly biased; normalise by the band's typical
  // unshadowed ratio (mean of the ratios above 0.95).
  let base = 0, bn = 0;
  for (let i = 0; i < w * h; i++) if (rw[i]! > 0 && ratio[i]! > 0.95) {
    base += ratio[i]!;
    bn++;
  }
  base = bn > 0 ? base / bn : 1;
  for (let i = 0; i < w * h; i++) smooth[i]! /= base;
  // core: attenuation < 0.9, connected to the hole
  const core = new Float32Array(w * h);
  const stack: number[] = [];
  const isCand = (li: number, gi: number): boolean => rw[li]! > 0 && smooth[li]! < SH_T && !hole[gi]! && inner[gi]! > 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const li = y * w + x, gi = (bb.y0 + y) * W + bb.x0 + x;
    if (!isCand(li, gi)) continue;
    const touch = (x > 0 && hole[gi - 1]!) || (x < w - 1 && hole[gi + 1]!) || (y > 0 && hole[gi - W]!) || (y < h - 1 && hole[gi + W]!);
    if (touch) {
      core[li] = 1;
      stack.push(li);
    }
  }
  while (stack.length) {
    const li = stack.pop()!;
    const x = li % w, y = (li / w) | 0;
    for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
      if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
      const ni = ny * w + nx;
      if (core[ni]! || !isCand(ni, (bb.y0 + ny) * W + bb.x0 + nx)) continue;
      core[ni] = 1;
      stack.push(ni);
    }
  }
  // soft extent: the core grown and blurred, so the penumbra is lifted too
  const reach = boxBlurFloat(boxBlurFloat(core, w, h, Math.max(2, Math.round(long * 0.008))), w, h, Math.max(2, Math.round(long * 0.008)));
  let changed = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const li = y * w + x, gi = (bb.y0 + y) * W + bb.x0 + x;
    if (hole[gi]! || !inner[gi]!) continue;
    const a = core[li]! ? 1 : Math.min(1, reach[li]! * 2);
    const sv = smooth[li]!;
    if (a <= 0 || sv >= 1) continue; // pixels that failed the colour test use their neighbours' ratio
    const gain = 1 / (1 - a * (1 - Math.max(0.25, sv)));
    for (let c = 0; c < 3; c++) out[gi * C + c] = linToByte(SRGB_TO_LINEAR[img.data[gi * C + c]!]! * gain);
    changed++;
  }
  return changed;
}
