/** Raw interleaved 8-bit pixels (sRGB). channels 4 = RGBA, straight (not premultiplied) alpha. */
export type RawImage = {
  data: Buffer | Uint8Array;
  width: number;
  height: number;
  channels: 3 | 4;
};

/** Per-pixel coverage of one layer, image-sized, 0..255. */
export type Mask = { alpha: Uint8Array };

/** The finish values of a `modify` layer with `color` (spec: POST /v1/edits, layer object). */
export type Finish =
  | 'default'
  | 'solid_glossy'
  | 'solid_matte'
  | 'wood'
  | 'stone'
  | 'metal'
  | 'fabric'
  | 'concrete';

export const FINISHES: readonly Finish[] = [
  'default',
  'solid_glossy',
  'solid_matte',
  'wood',
  'stone',
  'metal',
  'fabric',
  'concrete',
];

export function assertImage(img: RawImage, what = 'image'): void {
  const { width, height, channels, data } = img;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`${what}: invalid size ${width}x${height}`);
  }
  if (channels !== 3 && channels !== 4) throw new RangeError(`${what}: channels must be 3 or 4`);
  if (data.length !== width * height * channels) {
    throw new RangeError(`${what}: data length ${data.length} != ${width}x${height}x${channels}`);
  }
}

export function assertMask(img: RawImage, mask: Mask): void {
  if (mask.alpha.length !== img.width * img.height) {
    throw new RangeError(`mask: ${mask.alpha.length} values for a ${img.width}x${img.height} image`);
  }
}

/** Byte copy of an image (the engine never mutates its inputs). */
export function cloneImage(img: RawImage): RawImage {
  return { data: Uint8Array.from(img.data), width: img.width, height: img.height, channels: img.channels };
}

/** Drop or add alpha so the rest of the code handles one layout. */
export function toRGB(img: RawImage): RawImage {
  if (img.channels === 3) return img;
  const n = img.width * img.height;
  const out = new Uint8Array(n * 3);
  const src = img.data;
  for (let i = 0, j = 0, k = 0; i < n; i++, j += 4, k += 3) {
    out[k] = src[j]!;
    out[k + 1] = src[j + 1]!;
    out[k + 2] = src[j + 2]!;
  }
  return { data: out, width: img.width, height: img.height, channels: 3 };
}
