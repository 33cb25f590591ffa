/** Lanczos3 enlargement without the neural machinery (importable from workers). */
import { resampleLanczos3 } from './resample';
import { assertImage, type RawImage } from './types';

export type UpscaleScale = 2 | 4;

export function checkScale(scale: number): asserts scale is UpscaleScale {
  if (scale !== 2 && scale !== 4) throw new RangeError(`scale must be 2 or 4, got ${scale}`);
}

/** Centre-aligned separable Lanczos3 enlargement (see resample.ts). */
export function upscaleLanczos3(img: RawImage, scale: UpscaleScale): RawImage {
  assertImage(img);
  checkScale(scale);
  return resampleLanczos3(img, img.width * scale, img.height * scale);
}
