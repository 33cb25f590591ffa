/**
 * Output encoding and output sizes.
 *
 * WebP (quality 85) is the normal output (spec: output item content_type "normally
 * image/webp"). WebP encoding is single-threaded and its cost grows fast with `effort`, so the
 * effort is chosen by size from measurements on this machine (see WEBP_EFFORT_BY_SIZE).
 * WebP cannot exceed 16383 px per side: larger outputs are JPEG q90 (PNG when they carry alpha).
 */
import sharp, { type Sharp } from 'sharp';
import { assertImage, type RawImage } from './types';

export type OutputQuality = '1k' | '2k' | '4k' | '8k';
export type EncodedOutput = {
  bytes: Buffer;
  contentType: 'image/webp' | 'image/jpeg' | 'image/png';
  width: number;
  height: number;
};

export const WEBP_MAX_SIDE = 16383;
export const WEBP_QUALITY = 85;
export const JPEG_QUALITY = 90;

/**
 * Effort by output size. Measured here (interior fixture + sensor-like grain, q85, median of 3):
 *
 *   size     effort 0        effort 2        effort 4        (JPEG q90)
 *   1 Mpx    57 ms 117 KB    65 ms  92 KB    192 ms  90 KB   10 ms  181 KB
 *   4 Mpx    99 ms 331 KB   215 ms 333 KB    392 ms 333 KB   35 ms  661 KB
 *   12 Mpx  227 ms 1.0 MB   405 ms 0.9 MB   1058 ms 0.9 MB  113 ms  1.8 MB
 *   36 Mpx  621 ms 2.2 MB  1201 ms 2.6 MB   4980 ms 2.6 MB  423 ms  5.2 MB
 *
 * (Real photos cost ~2x more: 36 Mpx took 11.6 / 2.0 / 1.4 s at effort 4 / 2 / 0, see the
 * toolchain facts.) Effort 4 only pays below ~2 Mpx (-22% bytes at 1 Mpx); above, effort 2 saves
 * no bytes over effort 0 (4 Mpx: 333 vs 331 KB) for twice the time, so above 2 Mpx it is effort 0
 * (a 2k output, 3.1 Mpx, encodes in about half the time it took at effort 2).
 */
const WEBP_EFFORT_BY_SIZE: { maxPixels: number; effort: number }[] = [
  { maxPixels: 2e6, effort: 4 },
  { maxPixels: Infinity, effort: 0 },
];

export function webpEffortFor(pixels: number): number {
  for (const r of WEBP_EFFORT_BY_SIZE) if (pixels <= r.maxPixels) return r.effort;
  return 0;
}

const LONG_SIDE: Record<OutputQuality, number> = { '1k': 1024, '2k': 2048, '4k': 4096, '8k': 8192 };

/** Output size for an edit/render quality: long side 1024/2048/4096/8192, aspect kept. */
export function outputSizeForQuality(width: number, height: number, quality: OutputQuality): { width: number; height: number } {
  const long = LONG_SIDE[quality];
  if (!long) throw new RangeError(`unknown quality ${String(quality)}`);
  if (!(width > 0 && height > 0)) throw new RangeError(`invalid size ${width}x${height}`);
  if (width >= height) return { width: long, height: Math.max(1, Math.round((height * long) / width)) };
  return { width: Math.max(1, Math.round((width * long) / height)), height: long };
}

/** Output size of an upscale: exactly scale times the input. */
export function outputSizeForScale(width: number, height: number, scale: 2 | 4): { width: number; height: number } {
  if (scale !== 2 && scale !== 4) throw new RangeError(`scale must be 2 or 4, got ${String(scale)}`);
  return { width: width * scale, height: height * scale };
}

export async function encodeOutput(img: RawImage, opts: { effort?: number; quality?: number } = {}): Promise<EncodedOutput> {
  assertImage(img);
  const { width, height, channels } = img;
  return encodePipeline(sharp(img.data, { raw: { width, height, channels }, limitInputPixels: false }), { width, height, hasAlpha: channels === 4 }, opts);
}

/**
 * Encode what `pipeline` produces (`size`, with or without alpha) as an output: WebP, or
 * beyond WebP's side limit PNG (alpha) or JPEG. A pipeline from encoded bytes (decode, resize,
 * encode in one libvips run) skips the raw copy that `encodeOutput` starts from.
 */
export async function encodePipeline(pipeline: Sharp, size: { width: number; height: number; hasAlpha: boolean }, opts: { effort?: number; quality?: number } = {}): Promise<EncodedOutput> {
  const { width, height } = size;
  if (width <= WEBP_MAX_SIDE && height <= WEBP_MAX_SIDE) {
    const bytes = await pipeline.webp({ quality: opts.quality ?? WEBP_QUALITY, effort: opts.effort ?? webpEffortFor(width * height) }).toBuffer();
    return { bytes, contentType: 'image/webp', width, height };
  }
  if (size.hasAlpha) {
    const bytes = await pipeline.png({ compressionLevel: 3 }).toBuffer();
    return { bytes, contentType: 'image/png', width, height };
  }
  const bytes = await pipeline.jpeg({ quality: opts.quality ?? JPEG_QUALITY }).toBuffer();
  return { bytes, contentType: 'image/jpeg', width, height };
}
