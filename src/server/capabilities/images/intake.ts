/**
 * Checking received image bytes (a multipart file part or a download) against the spec's
 * "Input images" rules, cheapest and safest checks first:
 *   1. size            > 10 MB                          → 413 image_too_large
 *   2. format          magic bytes only (JPEG/PNG/WebP) → 415 unsupported_image_type
 *   3. dimensions      header only, no pixel decode     → 400 image_dimensions_invalid
 *   4. full decode     truncated / corrupt data         → 400 image_unreadable
 * Step 3 runs before any decode, so a decompression bomb (a few KB declaring 30000×30000)
 * is refused in about a millisecond without allocating its pixels.
 */
import sharp, { type Metadata } from 'sharp';

import { DomainError, invalidParam } from '@/server/platform/errors';
import { dimensionsOverLimit, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_IMAGE_URL_LENGTH, sniffImageFormat, type ImageFormat } from '@/shared/images/image-limits';

export { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, MAX_IMAGE_URL_LENGTH, sniffImageFormat, type ImageFormat } from '@/shared/images/image-limits';

export interface ImageInfo {
  format: ImageFormat;
  /** After EXIF orientation (swapped for orientations 5–8). */
  width: number;
  height: number;
  /** As stored, before orientation. */
  rawWidth: number;
  rawHeight: number;
  /** EXIF orientation 1–8 (1 when absent). */
  orientation: number;
  hasAlpha: boolean;
  /** Size of the encoded input. */
  bytes: number;
}

export function assertDimensions(width: number, height: number, param: string): void {
  if (dimensionsOverLimit(width, height)) {
    throw new DomainError(
      'image_dimensions_invalid',
      `The image is ${width}×${height}: at most ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS} pixels in total.`,
      { param },
    );
  }
}

function unreadable(param: string, what = 'image'): DomainError {
  return new DomainError('image_unreadable', `The ${what} could not be read (corrupt or truncated data).`, {
    param,
  });
}

/**
 * Header-only read: sharp's metadata() parses headers without decoding pixels. The pixel
 * limit is lifted here on purpose so an oversized header gives image_dimensions_invalid
 * (our rule) rather than a generic sharp error; the limit is enforced by us right after.
 */
async function readHeader(bytes: Buffer): Promise<Metadata | null> {
  try {
    return await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
}

/**
 * Full decode of every pixel row without keeping the raster: extracting the last row with
 * sequential read makes libvips decode the whole image top to bottom (so truncation and
 * corrupt data surface) while allocating one row. Measured on 6000×6000: JPEG ~60 ms,
 * PNG ~15–30 ms, WebP ~0.5 s (stats() takes over a second). A baseline JPEG is decoded at 1/8
 * scale instead (libjpeg's DCT scaling: every entropy-coded segment is still read, so a cut or
 * a corrupt stream fails the same, tested; about a quarter less CPU on a 2800×2100 photo, which
 * admission pays on every upload).
 */
async function decodesFully(bytes: Buffer, format: ImageFormat, rawWidth: number, rawHeight: number): Promise<boolean> {
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true });
    const decoded =
      format === 'jpeg' && rawWidth >= 64
        ? image.resize({ width: Math.ceil(rawWidth / 8), kernel: 'nearest', fastShrinkOnLoad: true })
        : image.extract({ left: 0, top: rawHeight - 1, width: Math.min(rawWidth, 1), height: 1 });
    await decoded.raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Check received image bytes. `param` names the field in errors (image, mask,
 * layers[0].element). Throws DomainError; returns what later stages need.
 *
 * Decision: animated WebP/PNG are accepted; only the first frame is used downstream.
 */
export async function inspectImage(bytes: Buffer, param: string): Promise<ImageInfo> {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new DomainError('image_too_large', `The image is larger than 10 MB (${MAX_IMAGE_BYTES} bytes).`, { param });
  }
  const format = sniffImageFormat(bytes);
  if (!format) {
    throw new DomainError('unsupported_image_type', 'The image must be JPEG, PNG or WebP.', { param });
  }
  const meta = await readHeader(bytes);
  // A header sharp reads as another format than the magic bytes said is not a valid file.
  if (!meta || meta.format !== format || !meta.width || !meta.height) throw unreadable(param);

  const rawWidth = meta.width;
  const rawHeight = meta.height;
  const orientation = meta.orientation && meta.orientation >= 1 && meta.orientation <= 8 ? meta.orientation : 1;
  const swapped = orientation >= 5;
  const width = swapped ? rawHeight : rawWidth;
  const height = swapped ? rawWidth : rawHeight;
  assertDimensions(width, height, param);

  if (!(await decodesFully(bytes, format, rawWidth, rawHeight))) throw unreadable(param);

  return { format, width, height, rawWidth, rawHeight, orientation, hasAlpha: meta.hasAlpha, bytes: bytes.length };
}

export interface StraightenedImage {
  /** Raw interleaved 8-bit sRGB pixels, row-major, no metadata of any kind. */
  data: Buffer;
  info: { width: number; height: number; channels: 3 | 4 };
}

/**
 * Before generation: apply the EXIF orientation and drop every metadata block.
 *
 * Decision: returns RAW pixels (what the engine consumes), 8-bit sRGB with 3 channels, or
 * 4 when the input has alpha. Raw data cannot carry EXIF/XMP/IPTC/ICC at all, so stripping
 * is structural, not a flag someone can forget. Colour-managed inputs (embedded ICC, CMYK)
 * are converted to sRGB by libvips on the way. Call inspectImage first: the pixel limit
 * here is a second guard, not the check.
 */
export async function straighten(bytes: Buffer): Promise<StraightenedImage> {
  const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
    .autoOrient()
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels === 4 ? 4 : 3;
  if (info.channels !== channels) throw new Error(`straighten: unexpected ${info.channels} channels`);
  return { data, info: { width: info.width, height: info.height, channels } };
}

/**
 * Encoded variant for storage or hand-off: straightened, lossless PNG, metadata stripped
 * (sharp writes none unless asked; the test checks it). PNG encoding of 36 Mpx takes
 * seconds: prefer `straighten` on the hot path.
 */
export async function straightenToPng(bytes: Buffer): Promise<Buffer> {
  const { data, info } = await straighten(bytes);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * Shape check of an image field given as text: an https URL, at most 2048 characters.
 * Refusals are 400 parameter_invalid on `param`: base64 data URIs ("base64 images are
 * refused"), anything that is not an https URL. Port, credentials and address rules are the
 * downloader's (net/safe-http) and give image_url_unreachable there. Returns the URL as sent.
 */
export function validateImageUrlString(value: unknown, param: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidParam(param, `${param} must be an https URL or a file.`);
  }
  if (/^\s*data:/i.test(value)) throw invalidParam(param, 'base64 images are refused: send an https URL or a file.');
  if (value.length > MAX_IMAGE_URL_LENGTH) {
    throw invalidParam(param, `${param} must be an https URL of at most ${MAX_IMAGE_URL_LENGTH} characters.`);
  }
  if (value.trim() !== value) throw invalidParam(param, `${param} must be an https URL without surrounding spaces.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParam(param, `${param} must be an https URL or a file.`);
  }
  if (url.protocol !== 'https:' || url.hostname === '') {
    throw invalidParam(param, `${param} must be an https URL or a file.`);
  }
  return value;
}
