import sharp, { type Sharp } from 'sharp';
import { analyzeMask } from '@/server/capabilities/images/mask';
import { plainWebpSize } from '@/server/capabilities/images/plain-webp';

import { encodeOutput, encodePipeline, type EncodedOutput } from '../builtin/encode';
import type { RawImage } from '../builtin/types';
import { BackendError } from './errors';

/**
 * The image rules every backend shares: what is sent (the straightened input, a binary mask),
 * and what is accepted back (the requested size exactly, aspect kept, WebP; pixels outside a
 * prompt edit's mask are the input's).
 */

/** Largest long side sent to a generative model: they work near 1–2 Mpx; the answer is resized to the target. */
export const MAX_SEND_SIDE = 2048;
/** An answer whose aspect differs more than this from the request's is refused, never stretched. */
export const ASPECT_TOLERANCE = 0.01;
/** Decoding limit for inputs (≤ 36 Mpx, checked at intake) and answers (a model may answer big). */
const MAX_ANSWER_PIXELS = 80_000_000;

export interface Size {
  width: number;
  height: number;
}

/** Decode `bytes` straightened, as opaque sRGB at exactly `size` (a libvips pipeline, not yet run). */
function opaqueAt(bytes: Buffer, size: Size): Sharp {
  return sharp(bytes, { limitInputPixels: MAX_ANSWER_PIXELS })
    .autoOrient()
    .toColourspace('srgb')
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .removeAlpha();
}

/** The input, straightened, as RGB at `size` (no alpha: models and compositing want opaque pixels). */
export async function rgbAt(bytes: Buffer, size: Size): Promise<RawImage> {
  const { data, info } = await opaqueAt(bytes, size).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** Straightened size of an input image. */
export async function straightSize(bytes: Buffer): Promise<Size> {
  const meta = await sharp(bytes).metadata();
  const turned = (meta.orientation ?? 1) >= 5;
  return turned ? { width: meta.height!, height: meta.width! } : { width: meta.width!, height: meta.height! };
}

/** The size sent to a model: the target, scaled down to MAX_SEND_SIDE, aspect kept. */
export function sendSizeFor(target: Size): Size {
  const scale = Math.min(1, MAX_SEND_SIDE / Math.max(target.width, target.height));
  return { width: Math.max(1, Math.round(target.width * scale)), height: Math.max(1, Math.round(target.height * scale)) };
}

export function encodeJpeg(img: RawImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } }).jpeg({ quality: 92 }).toBuffer();
}

/**
 * The input as the JPEG a model gets: the stored bytes themselves when they already are an
 * upright sRGB JPEG of `size` (a client's photo usually is), else decoded, resized and encoded.
 * Re-encoding an identical image would be a tenth of Roomtone's CPU per generation.
 */
export async function modelJpeg(bytes: Buffer, size: Size): Promise<Buffer> {
  const meta = await sharp(bytes).metadata();
  const asIs = meta.format === 'jpeg' && (meta.orientation ?? 1) === 1 && meta.space === 'srgb' && meta.channels === 3 && meta.width === size.width && meta.height === size.height;
  return asIs ? bytes : encodeJpeg(await rgbAt(bytes, size));
}

/** A prompt edit's mask (palette PNG, one painted colour) → alpha 0/255 at `size`. */
export async function maskAlpha(maskBytes: Buffer, size: Size): Promise<Uint8Array> {
  const { labels } = await analyzeMask(maskBytes, size, 'mask');
  const alpha = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) if (labels[i]! > 0) alpha[i] = 255;
  return alpha;
}

/** Alpha as the black-and-white PNG models expect (white = change here). */
export function maskPng(alpha: Uint8Array, size: Size): Promise<Buffer> {
  return sharp(Buffer.from(alpha), { raw: { width: size.width, height: size.height, channels: 1 } }).png().toBuffer();
}

/**
 * A backend's answer → the output: refused if its aspect is not the request's (a distorted or
 * cropped image is a failed generation, refunded), resized to exactly `target`, composited
 * over `source` outside `alpha`, encoded as the built-in engine encodes.
 *
 * An answer that already is the output (a plain lossy WebP of exactly `target`, nothing to
 * composite: what the render and decoration templates ask for) is kept byte for byte. Decoding
 * and re-encoding it was about 140 ms of CPU per 2k generation, most of Roomtone's own time
 * around a backend, and a second lossy generation of the same pixels.
 */
export async function finishOutput(answer: Buffer, target: Size, source: RawImage | null, alpha: Uint8Array | null): Promise<EncodedOutput> {
  if (!source || !alpha) {
    const plain = plainWebpSize(answer);
    if (plain && plain.width === target.width && plain.height === target.height) return { bytes: answer, contentType: 'image/webp', ...target };
  }
  let size: Size;
  try {
    size = await straightSize(answer);
  } catch (error) {
    throw new BackendError('failed', 'the backend answered something that is not an image', { cause: error });
  }
  const want = target.width / target.height;
  const got = size.width / size.height;
  if (Math.abs(got - want) / want > ASPECT_TOLERANCE) {
    throw new BackendError('failed', `the backend answered ${size.width}×${size.height}, not the aspect of ${target.width}×${target.height}`);
  }
  // Nothing to composite: decode, resize and encode in one pipeline (no raw copy in between).
  if (!source || !alpha) return encodePipeline(opaqueAt(answer, target), { ...target, hasAlpha: false });
  const img = await rgbAt(answer, target);
  const out = img.data;
  const src = source.data;
  for (let p = 0, i = 0; p < alpha.length; p++, i += 3) {
    const a = alpha[p]!;
    if (a === 255) continue;
    if (a === 0) {
      out[i] = src[i]!;
      out[i + 1] = src[i + 1]!;
      out[i + 2] = src[i + 2]!;
      continue;
    }
    for (let c = 0; c < 3; c++) out[i + c] = Math.round((src[i + c]! * (255 - a) + out[i + c]! * a) / 255);
  }
  return encodeOutput(img);
}
