import { MASK_PALETTE, MaskRaster, maskSizeProblem, opaquePixels } from './mask-raster';
import { checkImageFile } from './image-check';
import { percent } from './mask-tools';
import { problemSentence } from '@/console-client/problems';

export type MaskLoad = { ok: true; labels: Uint8Array; warning: string | null } | { ok: false; problem: string };

/**
 * A mask PNG read for a raster of the photo's mask size: the API's file limits first (10 MB,
 * PNG, dimensions, as at choice of the image), then the mask rules said before anything
 * changes (proportions, size, palette colours): a wrong mask is explained, never resampled away.
 */
export async function loadMaskFile(file: File, image: { width: number; height: number }, target: { width: number; height: number }): Promise<MaskLoad> {
  const check = await checkImageFile(file, { pngOnly: true });
  if (!check.ok) return { ok: false, problem: `${problemSentence(check.problem, 'mask')} The mask was not loaded.` };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, problem: `${file.name} could not be read as an image. The mask was not loaded.` };
  }
  const sizeProblem = maskSizeProblem(bitmap.width, bitmap.height, image.width, image.height);
  if (sizeProblem) return { ok: false, problem: sizeProblem };
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const c = canvas.getContext('2d');
  if (!c) return { ok: false, problem: 'This browser could not read the PNG. The mask was not loaded.' };
  c.drawImage(bitmap, 0, 0);
  const rgba = c.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const { opaque, offPalette } = opaquePixels(rgba);
  const loaded = MaskRaster.fromRgba(rgba, bitmap.width, bitmap.height, target.width, target.height);
  if (loaded.paintedColors().length === 0) {
    return {
      ok: false,
      problem:
        opaque === 0
          ? 'This PNG is transparent everywhere: nothing is painted. The mask was not loaded.'
          : `None of this PNG's opaque pixels is a palette colour (${MASK_PALETTE.join(', ')}, within 48 per channel). The mask was not loaded.`,
    };
  }
  return { ok: true, labels: loaded.labels, warning: offPalette > 0 ? `${percent(offPalette, opaque)} % of the opaque pixels are not palette colours: they stay unpainted.` : null };
}
