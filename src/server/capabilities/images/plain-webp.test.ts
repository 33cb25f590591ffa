// @node-lines same: our reading of WebP headers; sharp's binding runs under both lines in src/server/capabilities/images/intake.test.ts
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { plainWebpSize } from './plain-webp';

const photo = () => sharp({ create: { width: 320, height: 240, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 20 } } });

describe('plain WebP (served as it is)', () => {
  it('a lossy WebP without alpha or metadata: its size, from the header alone', async () => {
    expect(plainWebpSize(await photo().webp({ quality: 85 }).toBuffer())).toEqual({ width: 320, height: 240 });
    expect(plainWebpSize(await photo().resize(17, 9, { fit: 'fill' }).webp({ quality: 85 }).toBuffer())).toEqual({ width: 17, height: 9 });
  });

  it('cut off, or with bytes after the chunk: not plain', async () => {
    const webp = await photo().webp({ quality: 85 }).toBuffer();
    expect(plainWebpSize(webp.subarray(0, webp.length - 1))).toBeNull();
    expect(plainWebpSize(webp.subarray(0, 40))).toBeNull();
    expect(plainWebpSize(Buffer.concat([webp, Buffer.alloc(2)]))).toBeNull();
    // The RIFF size patched to match, the chunk still ends early: not plain either.
    const padded = Buffer.concat([webp, Buffer.alloc(2)]);
    padded.writeUInt32LE(padded.length - 8, 4);
    expect(plainWebpSize(padded)).toBeNull();
  });

  it('alpha, lossless, or metadata (EXIF orientation, ICC): not plain (the extended format)', async () => {
    const alpha = await sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } } }).webp({ quality: 85 }).toBuffer();
    expect(plainWebpSize(alpha)).toBeNull();
    expect(plainWebpSize(await photo().webp({ lossless: true }).toBuffer())).toBeNull();
    expect(plainWebpSize(await photo().withMetadata({ orientation: 6 }).webp({ quality: 85 }).toBuffer())).toBeNull();
    expect(plainWebpSize(await photo().withIccProfile('p3').webp({ quality: 85 }).toBuffer())).toBeNull();
  });

  it('other formats: not plain', async () => {
    expect(plainWebpSize(await photo().jpeg().toBuffer())).toBeNull();
    expect(plainWebpSize(await photo().png().toBuffer())).toBeNull();
    expect(plainWebpSize(Buffer.alloc(0))).toBeNull();
  });
});
