import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { encodeOutput, outputSizeForQuality, outputSizeForScale, webpEffortFor } from './encode';
import { makeInteriorScene } from '../../../../../test/helpers/engine-scenes';
import type { RawImage } from './types';

describe('encodeOutput', () => {
  it('encodes WebP with the right size', async () => {
    const img = makeInteriorScene(320, 240).image;
    const out = await encodeOutput(img);
    expect(out.contentType).toBe('image/webp');
    const meta = await sharp(out.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([320, 240]);
    expect([out.width, out.height]).toEqual([320, 240]);
  });

  it('falls back to JPEG above 16383 px per side (PNG when there is alpha)', async () => {
    const rgb: RawImage = { data: new Uint8Array(16400 * 8 * 3).fill(120), width: 16400, height: 8, channels: 3 };
    const j = await encodeOutput(rgb);
    expect(j.contentType).toBe('image/jpeg');
    const m = await sharp(j.bytes).metadata();
    expect([m.format, m.width, m.height]).toEqual(['jpeg', 16400, 8]);
    const rgba: RawImage = { data: new Uint8Array(8 * 16400 * 4).fill(200), width: 8, height: 16400, channels: 4 };
    const p = await encodeOutput(rgba);
    expect(p.contentType).toBe('image/png');
    expect((await sharp(p.bytes).metadata()).height).toBe(16400);
  });

  it('chooses a cheaper effort for bigger images', () => {
    expect(webpEffortFor(1e6)).toBeGreaterThan(webpEffortFor(12e6));
    expect(webpEffortFor(36e6)).toBe(0);
  });
});

describe('output sizes', () => {
  it('quality sets the long side and keeps the aspect', () => {
    expect(outputSizeForQuality(4000, 3000, '1k')).toEqual({ width: 1024, height: 768 });
    expect(outputSizeForQuality(3000, 4000, '2k')).toEqual({ width: 1536, height: 2048 });
    expect(outputSizeForQuality(1920, 1080, '4k')).toEqual({ width: 4096, height: 2304 });
    expect(outputSizeForQuality(1000, 1000, '8k')).toEqual({ width: 8192, height: 8192 });
    expect(outputSizeForQuality(1999, 1001, '1k')).toEqual({ width: 1024, height: 513 });
  });
  it('scale multiplies both sides', () => {
    expect(outputSizeForScale(1024, 768, 2)).toEqual({ width: 2048, height: 1536 });
    expect(outputSizeForScale(1024, 768, 4)).toEqual({ width: 4096, height: 3072 });
  });
});
