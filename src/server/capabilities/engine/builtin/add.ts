/**
 * add / replace: place an element image (a product photo or a cut-out) in the painted area.
 *
 * The element's background is removed when it has no transparency (colour estimated from its
 * border, flood fill from the border with a soft threshold, edge colours un-mixed from the
 * background), it is trimmed, fitted into the area's bounding box keeping its aspect,
 * bottom-aligned (objects stand on the floor), gently matched to the local light, and
 * composited over a soft contact shadow. Everything is clipped to the painted area dilated by
 * a few pixels; pixels outside that are unchanged. The engine has no 3D: no perspective or
 * lighting direction is inferred, the element is pasted as photographed.
 */
import { assertImage, assertMask, type Mask, type RawImage } from './types';
import { SRGB_TO_LINEAR, linToByte } from './color';
import { dilate, featherInside, maskBBox } from './masks';
import { resampleLanczos3 } from './resample';
import { removeArea, type RemoveOptions } from './remove';
import { boxBlurFloat } from './filters';

export type AddOptions = {
  /** Dilation (px) of the painted area that bounds every change (default ~1% of the long side). */
  clipDilate?: number;
  /**
   * 'area' (add): changes stay inside the painted area (dilated). 'bbox' (replace): the old
   * object is gone, so the new one may use the whole bounding box of the area (dilated).
   */
  clipTo?: 'area' | 'bbox';
  /** Contact shadow strength 0..1 (default 0.55). */
  shadow?: number;
};

export type ElementCutout = { rgba: RawImage; backgroundRemoved: boolean; background: [number, number, number] | null };

/**
 * RGBA cut-out of an element. Keeps a real alpha channel; otherwise estimates the background
 * from the border and removes it when the border is uniform enough to be a backdrop.
 */
export function cutoutElement(el: RawImage): ElementCutout {
  assertImage(el, 'element');
  const { width: w, height: h, channels: c } = el;
  const n = w * h;
  const rgba = new Uint8Array(n * 4);
  let hasAlpha = false;
  for (let i = 0; i < n; i++) {
    rgba[i * 4] = el.data[i * c]!;
    rgba[i * 4 + 1] = el.data[i * c + 1]!;
    rgba[i * 4 + 2] = el.data[i * c + 2]!;
    const a = c === 4 ? el.data[i * 4 + 3]! : 255;
    rgba[i * 4 + 3] = a;
    if (a < 250) hasAlpha = true;
  }
  const img: RawImage = { data: rgba, width: w, height: h, channels: 4 };
  if (hasAlpha) return { rgba: img, backgroundRemoved: false, background: null };

  // Border colour: per-channel median of a 2-px frame.
  const border: number[] = [];
  const bw = Math.max(1, Math.min(2, Math.floor(Math.min(w, h) / 8)));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (x >= bw && y >= bw && x < w - bw && y < h - bw) continue;
    border.push(y * w + x);
  }
  const med = (ch: number): number => {
    const v = border.map((i) => rgba[i * 4 + ch]!).sort((a, b) => a - b);
    return v[v.length >> 1]!;
  };
  const bg: [number, number, number] = [med(0), med(1), med(2)];
  const dist = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    dist[i] = Math.hypot(rgba[i * 4]! - bg[0], rgba[i * 4 + 1]! - bg[1], rgba[i * 4 + 2]! - bg[2]);
  }
  let uniform = 0;
  for (const i of border) if (dist[i]! < 30) uniform++;
  if (uniform < border.length * 0.6) return { rgba: img, backgroundRemoved: false, background: null };

  // Flood fill the background from the border through pixels close to its colour.
  const tLo = 14, tHi = 42;
  const isBg = new Uint8Array(n);
  const stack: number[] = [];
  for (const i of border) if (dist[i]! < tHi && !isBg[i]) {
    isBg[i] = 1;
    stack.push(i);
  }
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % w, y = (i / w) | 0;
    const visit = (j: number): void => {
      if (!isBg[j] && dist[j]! < tHi) {
        isBg[j] = 1;
        stack.push(j);
      }
    };
    if (x > 0) visit(i - 1);
    if (x < w - 1) visit(i + 1);
    if (y > 0) visit(i - w);
    if (y < h - 1) visit(i + w);
  }
  // Backdrop seen through gaps (between leaves, inside a handle) is not connected to the
  // border: small enclosed islands of (almost exactly) the backdrop colour go too. Large ones
  // are kept: they are more likely a white part of the object itself.
  const seen = new Uint8Array(n);
  const maxIsland = Math.max(16, Math.round(n * 0.03));
  for (let s0 = 0; s0 < n; s0++) {
    if (isBg[s0] || seen[s0] || dist[s0]! >= tLo) continue;
    const comp: number[] = [s0];
    seen[s0] = 1;
    for (let k = 0; k < comp.length; k++) {
      const i = comp[k]!;
      const x = i % w, y = (i / w) | 0;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
        if (j < 0 || seen[j] || isBg[j] || dist[j]! >= tHi) continue;
        seen[j] = 1;
        comp.push(j);
      }
    }
    if (comp.length <= maxIsland) for (const i of comp) isBg[i] = 1;
  }
  for (let i = 0; i < n; i++) {
    if (!isBg[i]) continue;
    const d = dist[i]!;
    const a = d <= tLo ? 0 : (d - tLo) / (tHi - tLo);
    rgba[i * 4 + 3] = Math.round(a * 255);
    if (a > 0) {
      // un-mix the backdrop from the edge colour: c = a*fg + (1-a)*bg
      for (let ch = 0; ch < 3; ch++) {
        const v = (rgba[i * 4 + ch]! - (1 - a) * bg[ch]!) / a;
        rgba[i * 4 + ch] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  }
  return { rgba: img, backgroundRemoved: true, background: bg };
}

/** Crop to the bounding box of alpha > 8. */
function trim(img: RawImage): RawImage {
  const { width: w, height: h } = img;
  const a = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) a[i] = img.data[i * 4 + 3]!;
  const b = maskBBox(a, w, h, 9);
  if (!b) return img;
  const cw = b.x1 - b.x0, ch = b.y1 - b.y0;
  const out = new Uint8Array(cw * ch * 4);
  for (let y = 0; y < ch; y++) out.set(img.data.subarray(((b.y0 + y) * w + b.x0) * 4, ((b.y0 + y) * w + b.x1) * 4), y * cw * 4);
  return { data: out, width: cw, height: ch, channels: 4 };
}

/** Lanczos resize of straight-alpha RGBA through premultiplied values (no dark/bright fringes). */
function resizeRGBA(img: RawImage, w: number, h: number): RawImage {
  const n = img.width * img.height;
  const pm = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const a = img.data[i * 4 + 3]! / 255;
    pm[i * 4] = Math.round(img.data[i * 4]! * a);
    pm[i * 4 + 1] = Math.round(img.data[i * 4 + 1]! * a);
    pm[i * 4 + 2] = Math.round(img.data[i * 4 + 2]! * a);
    pm[i * 4 + 3] = img.data[i * 4 + 3]!;
  }
  const r = resampleLanczos3({ data: pm, width: img.width, height: img.height, channels: 4 }, w, h);
  const d = r.data;
  for (let i = 0; i < w * h; i++) {
    const a = d[i * 4 + 3]!;
    if (a === 0) continue;
    for (let c = 0; c < 3; c++) d[i * 4 + c] = Math.min(255, Math.round((d[i * 4 + c]! * 255) / a));
  }
  return r;
}

export function addElement(img: RawImage, mask: Mask, element: RawImage, opts: AddOptions = {}): RawImage {
  assertImage(img);
  assertMask(img, mask);
  const { width: W, height: H, channels: C } = img;
  const out = Uint8Array.from(img.data);
  const result: RawImage = { data: out, width: W, height: H, channels: C };
  const box = maskBBox(mask.alpha, W, H, 128);
  if (!box) return result;
  const long = Math.max(W, H);
  const cut = trim(cutoutElement(element).rgba);

  // Fit (keep aspect) into the painted bbox, centred, standing on its bottom edge.
  const bw = box.x1 - box.x0, bh = box.y1 - box.y0;
  const s = Math.min(bw / cut.width, bh / cut.height);
  const tw = Math.max(1, Math.round(cut.width * s)), th = Math.max(1, Math.round(cut.height * s));
  const ry = Math.max(2, Math.round(th * 0.035));
  const ox = box.x0 + Math.round((bw - tw) / 2);
  const oy = Math.max(box.y0, box.y1 - th - Math.round(ry * 0.5));
  const el = resizeRGBA(cut, tw, th);

  // Clip: the painted area grown a little, with a soft inner edge; 0 outside.
  const clipR = opts.clipDilate ?? Math.max(2, Math.round(long * 0.01));
  let region = mask.alpha;
  if (opts.clipTo === 'bbox') {
    region = new Uint8Array(W * H);
    for (let y = box.y0; y < box.y1; y++) region.fill(255, y * W + box.x0, y * W + box.x1);
  }
  const grown = dilate(region, W, H, clipR);
  const clip = featherInside(grown, W, H, Math.max(1, Math.round(clipR / 2)));

  // Gentle light match: the element takes (local / global luminance)^0.5 of the scene.
  let gSum = 0, lSum = 0, lN = 0;
  const step = Math.max(1, Math.floor(Math.sqrt((W * H) / 40000)));
  for (let y = 0; y < H; y += step) for (let x = 0; x < W; x += step) {
    const o = (y * W + x) * C;
    const Y = 0.2126 * SRGB_TO_LINEAR[img.data[o]!]! + 0.7152 * SRGB_TO_LINEAR[img.data[o + 1]!]! + 0.0722 * SRGB_TO_LINEAR[img.data[o + 2]!]!;
    gSum += Y;
    if (x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1) {
      lSum += Y;
      lN++;
    }
  }
  const gMean = gSum / Math.max(1, Math.ceil(H / step) * Math.ceil(W / step));
  const lMean = lN ? lSum / lN : gMean;
  const gain = Math.min(1.1, Math.max(0.7, Math.sqrt(lMean / Math.max(1e-4, gMean))));

  // Contact shadow: an ellipse under the footprint plus a faint blurred silhouette.
  const foot: number[] = [];
  for (let x = 0; x < tw; x++) {
    for (let y = th - 1; y >= Math.max(0, th - Math.ceil(th * 0.04) - 1); y--) {
      if (el.data[(y * tw + x) * 4 + 3]! > 128) {
        foot.push(x);
        break;
      }
    }
  }
  const fx0 = foot.length ? foot[0]! : 0, fx1 = foot.length ? foot[foot.length - 1]! : tw - 1;
  const cx = ox + (fx0 + fx1) / 2, cy = oy + th - 1;
  const rx = Math.max(4, ((fx1 - fx0) / 2) * 1.2 + th * 0.03);
  const strength = opts.shadow ?? 0.55;
  const sil = new Float32Array(tw * th);
  for (let i = 0; i < tw * th; i++) sil[i] = el.data[i * 4 + 3]! / 255;
  const soft = boxBlurFloat(boxBlurFloat(sil, tw, th, Math.max(1, Math.round(th * 0.02))), tw, th, Math.max(1, Math.round(th * 0.02)));

  const y0 = Math.max(0, oy), y1 = Math.min(H, Math.ceil(cy + ry * 3) + 1);
  const x0 = Math.max(0, Math.floor(Math.min(ox, cx - rx * 1.5))), x1 = Math.min(W, Math.ceil(Math.max(ox + tw, cx + rx * 1.5)) + 1);
  const src = img.data;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * W + x;
      const k = clip[i]! / 255;
      if (k === 0) continue;
      const o = i * C;
      // shadow on the scene
      const dx = (x - cx) / rx, dy = (y - cy) / ry;
      let sh = y >= cy - ry ? Math.exp(-2 * (dx * dx + dy * dy)) * strength : 0;
      const ex = x - ox, ey = y - oy - Math.round(th * 0.01);
      if (ex >= 0 && ey >= 0 && ex < tw && ey < th) sh = Math.max(sh, soft[ey * tw + ex]! * strength * 0.25);
      let r = SRGB_TO_LINEAR[src[o]!]! * (1 - sh);
      let g = SRGB_TO_LINEAR[src[o + 1]!]! * (1 - sh);
      let b = SRGB_TO_LINEAR[src[o + 2]!]! * (1 - sh);
      // element over it
      const exx = x - ox, eyy = y - oy;
      if (exx >= 0 && eyy >= 0 && exx < tw && eyy < th) {
        const e = (eyy * tw + exx) * 4;
        const a = el.data[e + 3]! / 255;
        if (a > 0) {
          r = r * (1 - a) + SRGB_TO_LINEAR[el.data[e]!]! * gain * a;
          g = g * (1 - a) + SRGB_TO_LINEAR[el.data[e + 1]!]! * gain * a;
          b = b * (1 - a) + SRGB_TO_LINEAR[el.data[e + 2]!]! * gain * a;
        }
      }
      const R = linToByte(r), G = linToByte(g), B = linToByte(b);
      out[o] = Math.round(src[o]! + (R - src[o]!) * k);
      out[o + 1] = Math.round(src[o + 1]! + (G - src[o + 1]!) * k);
      out[o + 2] = Math.round(src[o + 2]! + (B - src[o + 2]!) * k);
    }
  }
  return result;
}

/** replace = remove what is painted, then add the element in the same area. */
export function replaceElement(img: RawImage, mask: Mask, element: RawImage, opts: AddOptions & { remove?: RemoveOptions } = {}): RawImage {
  const cleared = removeArea(img, mask, opts.remove);
  return addElement(cleared, mask, element, { clipTo: 'bbox', ...opts });
}
