import { dimensionsOverLimit, headerDimensions, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, sniffImageFormat, type ImageFormat } from '@/shared/images/image-limits';
import type { Problem } from '@/console-client/problems';

export type ImageCheck = { ok: true; format: ImageFormat; width: number; height: number } | { ok: false; problem: Problem };

function refused(code: string, message: string): ImageCheck {
  return { ok: false, problem: { code, message, checkedInBrowser: true } };
}

/**
 * A chosen file judged as the API's intake would (images/intake.ts, same limits from
 * shared/images/image-limits.ts), before anything is uploaded: size, type by content (a text
 * file renamed .jpg is refused), then the header's dimensions, without decoding pixels.
 * `png` only for a mask. The codes are the API's, so the sentence shown is the same.
 */
export async function checkImageFile(file: Blob, options: { pngOnly?: boolean } = {}): Promise<ImageCheck> {
  if (file.size > MAX_IMAGE_BYTES) return refused('image_too_large', `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; the limit is 10 MB (${MAX_IMAGE_BYTES} bytes).`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = sniffImageFormat(bytes);
  if (!format || (options.pngOnly && format !== 'png')) {
    return options.pngOnly ? refused('mask_invalid', 'The mask must be a PNG.') : refused('unsupported_image_type', 'The image must be JPEG, PNG or WebP.');
  }
  const size = headerDimensions(bytes, format);
  if (!size || size.width < 1 || size.height < 1) return refused('image_unreadable', 'The image could not be read (corrupt or truncated data).');
  if (dimensionsOverLimit(size.width, size.height)) {
    return refused('image_dimensions_invalid', `The image is ${size.width}×${size.height}: at most ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS} pixels in total.`);
  }
  return { ok: true, format, ...size };
}
