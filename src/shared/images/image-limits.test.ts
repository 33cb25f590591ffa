// @node-lines same: our header sniffing and size limits; sharp's binding runs under both lines in src/server/capabilities/images/intake.test.ts
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { dimensionsOverLimit, headerDimensions, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, sniffImageFormat } from './image-limits';

async function encoded(width: number, height: number, as: (s: Sharp) => Sharp, channels: 3 | 4 = 3): Promise<Uint8Array> {
  return new Uint8Array(await as(sharp({ create: { width, height, channels, background: { r: 120, g: 90, b: 60, alpha: 0.5 } } })).toBuffer());
}

describe('headerDimensions: the size a header declares, read without decoding (the console judges a chosen file with it)', () => {
  it.each([
    ['baseline JPEG', (s: Sharp) => s.jpeg(), 3, 'jpeg'],
    ['progressive JPEG with EXIF', (s: Sharp) => s.jpeg({ progressive: true }).withMetadata({ orientation: 6 }), 3, 'jpeg'],
    ['PNG', (s: Sharp) => s.png(), 4, 'png'],
    ['lossy WebP (VP8)', (s: Sharp) => s.webp({ quality: 70 }), 3, 'webp'],
    ['lossless WebP (VP8L)', (s: Sharp) => s.webp({ lossless: true }), 3, 'webp'],
    ['WebP with alpha (VP8X)', (s: Sharp) => s.webp({ quality: 70, alphaQuality: 50 }), 4, 'webp'],
  ] as const)('%s', async (_name, as, channels, format) => {
    const bytes = await encoded(1234, 567, as, channels);
    expect(sniffImageFormat(bytes)).toBe(format);
    expect(headerDimensions(bytes, format)).toEqual({ width: 1234, height: 567 });
  });

  it('a text file is no image format; a truncated header gives no size', () => {
    expect(sniffImageFormat(new TextEncoder().encode('Meeting notes: paint the hall.'))).toBeNull();
    expect(headerDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00]), 'jpeg')).toBeNull();
  });
});

describe('dimensionsOverLimit: the API rule of image_dimensions_invalid', () => {
  it('refuses over a side or over the pixel total, accepts the limits themselves', () => {
    expect(dimensionsOverLimit(MAX_IMAGE_SIDE, 4000)).toBe(false);
    expect(dimensionsOverLimit(MAX_IMAGE_SIDE + 1, 10)).toBe(true);
    expect(dimensionsOverLimit(6000, 6000)).toBe(false);
    expect(dimensionsOverLimit(9000, 7000)).toBe(true);
    expect(dimensionsOverLimit(6001, 6000)).toBe(MAX_IMAGE_PIXELS < 6001 * 6000);
  });
});
