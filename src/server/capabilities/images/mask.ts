/**
 * Mask analysis for POST /v1/edits (spec "Mask rules"):
 *  - PNG only (else, or unreadable: 400 mask_invalid);
 *  - proportions of the image after EXIF orientation, within 1%; long side ≥ 512 px, or ≥ the
 *    image's long side when the image is smaller (else 400 mask_dimensions_mismatch);
 *  - brought to the image's size by nearest neighbour (never smoothed: smoothing would invent
 *    in-between colours at area borders);
 *  - a pixel is painted with palette colour C when alpha ≥ 50 % (≥ 128) and each of r, g, b
 *    is within 48 of C; a colour covering < 0.01 % of the image's pixels counts as unpainted.
 *
 * Speed: classification at mask resolution with per-channel lookup tables (three loads and
 * two ANDs per pixel), then an index-only nearest-neighbour map to the image size.
 */
import sharp, { type Metadata, type OutputInfo } from 'sharp';

import { DomainError, invalidParam } from '@/server/platform/errors';

import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, assertDimensions, sniffImageFormat } from './intake';

import { MASK_CHANNEL_TOLERANCE, MASK_MIN_ALPHA, MASK_MIN_COVERAGE, MASK_MIN_LONG_SIDE, MASK_PALETTE, MASK_PROPORTION_TOLERANCE, type MaskColor } from '@/shared/images/mask-palette';

export { MASK_CHANNEL_TOLERANCE, MASK_MIN_ALPHA, MASK_MIN_COVERAGE, MASK_MIN_LONG_SIDE, MASK_PALETTE, MASK_PROPORTION_TOLERANCE, type MaskColor };

export interface MaskAnalysis {
  /** Painted palette colours, uppercase #RRGGBB, in palette order. */
  paintedColors: MaskColor[];
  /** Fraction of the image's pixels per painted colour (only painted colours are listed). */
  coverage: Partial<Record<MaskColor, number>>;
  /** Image size: the size of `labels`. */
  width: number;
  height: number;
  /** Row-major, image size: 0 = unpainted, i + 1 = MASK_PALETTE[i]. Sub-threshold colours are 0. */
  labels: Uint8Array;
  /** The mask as received (after its own EXIF orientation, if any). */
  maskWidth: number;
  maskHeight: number;
}

function paletteRgb(hex: string): [number, number, number] {
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}

/** lut[channel][value] = bit i set when value is within tolerance of palette colour i. */
const LUTS: [Uint8Array, Uint8Array, Uint8Array] = (() => {
  const luts: [Uint8Array, Uint8Array, Uint8Array] = [new Uint8Array(256), new Uint8Array(256), new Uint8Array(256)];
  MASK_PALETTE.forEach((hex, i) => {
    const rgb = paletteRgb(hex);
    for (let c = 0; c < 3; c++) {
      const lut = luts[c as 0 | 1 | 2];
      const centre = rgb[c as 0 | 1 | 2];
      for (let v = Math.max(0, centre - MASK_CHANNEL_TOLERANCE); v <= Math.min(255, centre + MASK_CHANNEL_TOLERANCE); v++) {
        lut[v] = (lut[v] ?? 0) | (1 << i);
      }
    }
  });
  return luts;
})();

/**
 * bits → label. The palette colours are more than 2 × 48 apart on at least one channel, so
 * at most one bit survives the AND; the table still resolves ties to the first colour.
 */
const BITS_TO_LABEL: Uint8Array = (() => {
  const t = new Uint8Array(32);
  for (let bits = 1; bits < 32; bits++) t[bits] = Math.log2(bits & -bits) + 1;
  return t;
})();

function maskInvalid(param: string, message: string): DomainError {
  return new DomainError('mask_invalid', message, { param });
}

function dimensionsMismatch(param: string, message: string): DomainError {
  return new DomainError('mask_dimensions_mismatch', message, { param });
}

/** Classify RGBA pixels into labels (0 = unpainted). */
function classify(rgba: Buffer, pixels: number): Uint8Array {
  const labels = new Uint8Array(pixels);
  const [lr, lg, lb] = LUTS;
  for (let p = 0, o = 0; p < pixels; p++, o += 4) {
    if ((rgba[o + 3] as number) < MASK_MIN_ALPHA) continue;
    const bits = (lr[rgba[o] as number] as number) & (lg[rgba[o + 1] as number] as number) & (lb[rgba[o + 2] as number] as number);
    if (bits !== 0) labels[p] = BITS_TO_LABEL[bits] as number;
  }
  return labels;
}

/** Nearest-neighbour resample of a label plane (pixel-centre aligned). */
function resampleNearest(src: Uint8Array, sw: number, sh: number, dw: number, dh: number): Uint8Array {
  if (sw === dw && sh === dh) return src;
  const out = new Uint8Array(dw * dh);
  const xMap = new Uint32Array(dw);
  for (let x = 0; x < dw; x++) xMap[x] = Math.min(sw - 1, Math.floor(((x + 0.5) * sw) / dw));
  for (let y = 0; y < dh; y++) {
    const sy = Math.min(sh - 1, Math.floor(((y + 0.5) * sh) / dh));
    const srcRow = sy * sw;
    const dstRow = y * dw;
    for (let x = 0; x < dw; x++) out[dstRow + x] = src[srcRow + (xMap[x] as number)] as number;
  }
  return out;
}

/**
 * Analyse a mask for an image of `image.width × image.height` (after EXIF orientation).
 * The mask is itself an input image: the 10 MB and dimension limits apply (413
 * image_too_large / 400 image_dimensions_invalid, param = `param`), checked on the header
 * before any decode. A PNG mask's own EXIF orientation, if any, is applied too.
 */
export async function analyzeMask(
  maskBytes: Buffer,
  image: { width: number; height: number },
  param = 'mask',
  /** The image the minimum-size rule compares with: the received one (the job resizes first). */
  received: { width: number; height: number } = image,
): Promise<MaskAnalysis> {
  if (maskBytes.length > MAX_IMAGE_BYTES) {
    throw new DomainError('image_too_large', `The mask is larger than 10 MB (${MAX_IMAGE_BYTES} bytes).`, { param });
  }
  if (sniffImageFormat(maskBytes) !== 'png') throw maskInvalid(param, 'The mask must be a PNG.');

  let meta: Metadata;
  try {
    meta = await sharp(maskBytes, { limitInputPixels: false }).metadata();
  } catch {
    throw maskInvalid(param, 'The mask could not be read.');
  }
  if (meta.format !== 'png' || !meta.width || !meta.height) throw maskInvalid(param, 'The mask could not be read.');
  const swapped = (meta.orientation ?? 1) >= 5;
  const mw = swapped ? meta.height : meta.width;
  const mh = swapped ? meta.width : meta.height;
  assertDimensions(mw, mh, param);

  const { width: iw, height: ih } = image;
  // |mask ratio − image ratio| / image ratio, without division by a possibly tiny number.
  const proportionError = Math.abs(mw * ih - iw * mh) / (iw * mh);
  if (proportionError > MASK_PROPORTION_TOLERANCE) {
    throw dimensionsMismatch(
      param,
      `The mask (${mw}×${mh}) must have the image's proportions (${iw}×${ih}) within 1%.`,
    );
  }
  const needed = Math.min(MASK_MIN_LONG_SIDE, Math.max(received.width, received.height));
  if (Math.max(mw, mh) < needed) {
    throw dimensionsMismatch(param, `The mask's long side must be at least ${needed} pixels (it is ${Math.max(mw, mh)}).`);
  }

  let rgba: Buffer;
  let info: OutputInfo;
  try {
    ({ data: rgba, info } = await sharp(maskBytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .autoOrient()
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true }));
  } catch {
    throw maskInvalid(param, 'The mask could not be read.');
  }
  if (info.channels !== 4 || info.width !== mw || info.height !== mh) {
    throw maskInvalid(param, 'The mask could not be read.');
  }

  const labels = resampleNearest(classify(rgba, mw * mh), mw, mh, iw, ih);

  const counts = new Float64Array(MASK_PALETTE.length + 1);
  for (let p = 0; p < labels.length; p++) {
    const l = labels[p] as number;
    counts[l] = (counts[l] as number) + 1;
  }
  const total = iw * ih;
  const paintedColors: MaskColor[] = [];
  const coverage: Partial<Record<MaskColor, number>> = {};
  const dropped = new Uint8Array(MASK_PALETTE.length + 1);
  let anyDropped = false;
  MASK_PALETTE.forEach((color, i) => {
    const count = counts[i + 1] as number;
    if (count === 0) return;
    const fraction = count / total;
    if (fraction < MASK_MIN_COVERAGE) {
      dropped[i + 1] = 1;
      anyDropped = true;
      return;
    }
    paintedColors.push(color);
    coverage[color] = fraction;
  });
  // Specks below the threshold are not painted: clear them so nothing downstream edits them.
  if (anyDropped) {
    for (let p = 0; p < labels.length; p++) if (dropped[labels[p] as number]) labels[p] = 0;
  }

  return { paintedColors, coverage, width: iw, height: ih, labels, maskWidth: mw, maskHeight: mh };
}

/**
 * A layer's mask_color: "#RRGGBB" from the palette (any case, returned uppercase), not used
 * by an earlier layer. 400 parameter_invalid on `param`.
 */
export function validateMaskColor(value: unknown, param: string, taken: readonly string[] = []): MaskColor {
  if (typeof value !== 'string' || !/^#[0-9A-Fa-f]{6}$/.test(value)) {
    throw invalidParam(param, `${param} must be a palette color: ${MASK_PALETTE.join(', ')}.`);
  }
  const upper = value.toUpperCase();
  const color = MASK_PALETTE.find((c) => c === upper);
  if (!color) throw invalidParam(param, `${param} must be a palette color: ${MASK_PALETTE.join(', ')}.`);
  if (taken.includes(color)) throw invalidParam(param, `${color} is already used by another layer.`);
  return color;
}

/** All layers' mask colours, params layers[i].mask_color. */
export function validateLayerMaskColors(values: readonly unknown[]): MaskColor[] {
  const out: MaskColor[] = [];
  values.forEach((v, i) => out.push(validateMaskColor(v, `layers[${i}].mask_color`, out)));
  return out;
}

/**
 * Painted colours vs layers (400 mask_colors_mismatch):
 *  - mask mode: every layer's colour must be painted (param layers[i].mask_color), then every
 *    painted colour must have a layer (param mask);
 *  - prompt mode with a mask: exactly one painted colour (param mask); layers are not allowed
 *    in prompt mode (checked by the request schema), so layerColors is ignored.
 * Layer colours are compared case-insensitively (validate them first with validateMaskColor).
 */
export function matchLayersToMask(
  analysis: Pick<MaskAnalysis, 'paintedColors'>,
  layerColors: readonly string[],
  mode: 'prompt' | 'mask',
): void {
  const painted = new Set<string>(analysis.paintedColors);
  if (mode === 'prompt') {
    if (painted.size !== 1) {
      throw new DomainError(
        'mask_colors_mismatch',
        `In prompt mode the mask must be painted in exactly one palette color (found ${painted.size}).`,
        { param: 'mask' },
      );
    }
    return;
  }
  const layers = layerColors.map((c) => c.toUpperCase());
  layers.forEach((color, i) => {
    if (!painted.has(color)) {
      throw new DomainError('mask_colors_mismatch', `The mask has no area painted in ${color}.`, {
        param: `layers[${i}].mask_color`,
      });
    }
  });
  for (const color of analysis.paintedColors) {
    if (!layers.includes(color)) {
      throw new DomainError('mask_colors_mismatch', `The mask is painted in ${color} but no layer uses it.`, {
        param: 'mask',
      });
    }
  }
}
