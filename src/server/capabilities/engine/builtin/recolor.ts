/**
 * modify + color: recolour the masked area while keeping its lighting and texture.
 *
 * In CIE Lab: a/b take the target's chroma (plus a quarter of the area's own chroma
 * variation, so coloured light such as a warm window glow survives), and
 * L = target L + (original L - mean L of the area) * k, where k and an optional procedural
 * texture depend on the finish. The mask edge is feathered inwards only: pixels with
 * alpha 0 are copied byte for byte.
 */
import { assertImage, assertMask, type Finish, type Mask, type RawImage } from './types';
import { SRGB_TO_LINEAR, linToByte, parseHex, srgbBytesToLab, labF } from './color';
import { featherInside, maskBBox } from './masks';
import { sampleTile, textureTile, type TextureKind } from './textures';

type FinishParams = {
  /** Gain on the original lightness variation. */
  k: number;
  /** Share of the original a/b variation kept around the target chroma. */
  chromaKeep: number;
  /** Texture and its amplitude in L units (texture values have std ~0.5). */
  texture?: TextureKind;
  amp: number;
  /** Texel size in units of longSide/1024 pixels. */
  texel: number;
  /** Glossy: highlight boost above mean + 1 std, and whitening of those highlights. */
  specular: number;
  /** Chroma multiplier applied with the texture (darker grain slightly richer, etc.). */
  textureChroma: number;
};

const PARAMS: Record<Finish, FinishParams> = {
  // keeps the original surface finish: all of its lightness variation
  default: { k: 1, chromaKeep: 0.25, amp: 0, texel: 1, specular: 0, textureChroma: 0 },
  // matte: flattened shading, highlights compressed (see below)
  solid_matte: { k: 0.45, chromaKeep: 0.1, amp: 0, texel: 1, specular: 0, textureChroma: 0 },
  // glossy: more contrast plus a specular lift of the original's highlights
  solid_glossy: { k: 1.2, chromaKeep: 0.25, amp: 0, texel: 1, specular: 1.6, textureChroma: 0 },
  wood: { k: 0.8, chromaKeep: 0.15, texture: 'wood', amp: 7, texel: 1, specular: 0, textureChroma: 0.02 },
  stone: { k: 0.85, chromaKeep: 0.15, texture: 'stone', amp: 7, texel: 1, specular: 0, textureChroma: 0.01 },
  metal: { k: 1.1, chromaKeep: 0.1, texture: 'metal', amp: 6, texel: 1, specular: 0.8, textureChroma: 0 },
  fabric: { k: 0.75, chromaKeep: 0.15, texture: 'fabric', amp: 7, texel: 0.75, specular: 0, textureChroma: 0.01 },
  concrete: { k: 0.8, chromaKeep: 0.1, texture: 'concrete', amp: 7, texel: 1, specular: 0, textureChroma: 0 },
};

const XN = 0.95047, ZN = 1.08883;

/** Feather radius of the soft edge, a couple of pixels at 1-2k, more on big images. */
export function featherRadiusFor(width: number, height: number): number {
  return Math.min(6, Math.max(2, Math.round(Math.max(width, height) / 1000)));
}

export function recolorArea(img: RawImage, mask: Mask, targetHex: string, finish: Finish = 'default'): RawImage {
  assertImage(img);
  assertMask(img, mask);
  const p = PARAMS[finish];
  if (!p) throw new RangeError(`unknown finish ${String(finish)}`);
  const [tr, tg, tb] = parseHex(targetHex);
  const { width: W, height: H, channels: C } = img;
  const src = img.data;
  const out = Uint8Array.from(src);
  const result: RawImage = { data: out, width: W, height: H, channels: C };
  const bb = maskBBox(mask.alpha, W, H);
  if (!bb) return result;

  const target = srgbBytesToLab(tr, tg, tb);
  const weight = featherInside(mask.alpha, W, H, featherRadiusFor(W, H));

  // Pass 1: Lab of every touched pixel in the bbox; statistics over the painted core.
  const bw = bb.x1 - bb.x0, bh = bb.y1 - bb.y0;
  const Ls = new Float32Array(bw * bh);
  const As = new Float32Array(bw * bh);
  const Bs = new Float32Array(bw * bh);
  let sL = 0, sL2 = 0, sA = 0, sB = 0, n = 0;
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const i = (bb.y0 + y) * W + bb.x0 + x;
      if (weight[i] === 0 && mask.alpha[i] === 0) continue;
      const o = i * C;
      const r = SRGB_TO_LINEAR[src[o]!]!, g = SRGB_TO_LINEAR[src[o + 1]!]!, b = SRGB_TO_LINEAR[src[o + 2]!]!;
      const fx = labF((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / XN);
      const fy = labF(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
      const fz = labF((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / ZN);
      const L = 116 * fy - 16, A = 500 * (fx - fy), B = 200 * (fy - fz);
      const j = y * bw + x;
      Ls[j] = L;
      As[j] = A;
      Bs[j] = B;
      if (mask.alpha[i]! >= 128) {
        sL += L;
        sL2 += L * L;
        sA += A;
        sB += B;
        n++;
      }
    }
  }
  if (n === 0) n = 1;
  const meanL = sL / n, meanA = sA / n, meanB = sB / n;
  const stdL = Math.sqrt(Math.max(0, sL2 / n - meanL * meanL));

  const tex = p.texture ? textureTile(p.texture) : null;
  const texScale = 1 / ((Math.max(W, H) / 1024) * p.texel);
  const specT = meanL + Math.max(2, stdL);

  // Pass 2: new Lab -> linear RGB -> sRGB, blended by the feathered weight.
  for (let y = 0; y < bh; y++) {
    const gy = bb.y0 + y;
    for (let x = 0; x < bw; x++) {
      const gx = bb.x0 + x;
      const i = gy * W + gx;
      const wgt = weight[i]!;
      if (wgt === 0) continue;
      const j = y * bw + x;
      const L0 = Ls[j]!;
      const dev = L0 - meanL;
      let L = target.L + dev * p.k;
      let chroma = 1;
      if (finish === 'solid_matte' && dev > 0) L -= dev * p.k * 0.35; // matte: highlights fold in
      if (p.specular > 0 && L0 > specT) {
        const s = L0 - specT;
        L += s * p.specular;
        chroma = Math.max(0.35, 1 - s / 25); // reflections are the light's colour, not the paint's
      }
      if (tex) {
        const t = sampleTile(tex, gx * texScale, gy * texScale);
        L += t * p.amp;
        chroma *= 1 - t * p.textureChroma * 4;
      }
      if (L < 0) L = 0;
      else if (L > 100) L = 100;
      const a = (target.a + (As[j]! - meanA) * p.chromaKeep) * chroma;
      const b = (target.b + (Bs[j]! - meanB) * p.chromaKeep) * chroma;
      // Lab -> XYZ -> linear sRGB
      const fy = (L + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
      const fx3 = fx * fx * fx, fy3 = fy * fy * fy, fz3 = fz * fz * fz;
      const X = (fx3 > 0.008856 ? fx3 : (116 * fx - 16) / 903.3) * XN;
      const Y = fy3 > 0.008856 ? fy3 : (116 * fy - 16) / 903.3;
      const Z = (fz3 > 0.008856 ? fz3 : (116 * fz - 16) / 903.3) * ZN;
      const r = 3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z;
      const g = -0.969266 * X + 1.8760108 * Y + 0.041556 * Z;
      const bl = 0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z;
      const o = i * C;
      const R = linToByte(r), G = linToByte(g), B = linToByte(bl);
      if (wgt === 255) {
        out[o] = R;
        out[o + 1] = G;
        out[o + 2] = B;
      } else {
        const f = wgt / 255;
        out[o] = Math.round(src[o]! + (R - src[o]!) * f);
        out[o + 1] = Math.round(src[o + 1]! + (G - src[o + 1]!) * f);
        out[o + 2] = Math.round(src[o + 2]! + (B - src[o + 2]!) * f);
      }
    }
  }
  return result;
}
