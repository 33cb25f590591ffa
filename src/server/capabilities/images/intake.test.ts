import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';
import {
  MAX_IMAGE_BYTES,
  inspectImage,
  sniffImageFormat,
  straighten,
  straightenToPng,
  validateImageUrlString,
} from './intake';
import { bilevelPng } from '../../../../test/helpers/bilevel-png';

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  let err: unknown = null;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DomainError);
  return toHttpError(err as DomainError);
}

async function expectRefused(p: Promise<unknown>, status: number, code: string, param = 'image'): Promise<void> {
  const e = await refusal(p);
  expect({ status: e.status, code: e.code, param: e.param }).toEqual({ status, code, param });
}

function solid(width: number, height: number, channels: 3 | 4 = 3) {
  return sharp({
    create: { width, height, channels, background: channels === 4 ? { r: 10, g: 20, b: 30, alpha: 0.5 } : '#336699' },
  });
}

describe('inspectImage: formats', () => {
  it('accepts JPEG, PNG (with alpha) and WebP', async () => {
    const jpeg = await inspectImage(await solid(64, 48).jpeg().toBuffer(), 'image');
    expect(jpeg).toMatchObject({ format: 'jpeg', width: 64, height: 48, rawWidth: 64, rawHeight: 48, orientation: 1, hasAlpha: false });
    const pngBuf = await solid(40, 30, 4).png().toBuffer();
    const png = await inspectImage(pngBuf, 'image');
    expect(png).toMatchObject({ format: 'png', width: 40, height: 30, hasAlpha: true, bytes: pngBuf.length });
    const webp = await inspectImage(await solid(33, 77).webp().toBuffer(), 'mask');
    expect(webp).toMatchObject({ format: 'webp', width: 33, height: 77 });
    const lossless = await inspectImage(await solid(20, 20, 4).webp({ lossless: true }).toBuffer(), 'image');
    expect(lossless).toMatchObject({ format: 'webp', hasAlpha: true });
  });

  it('refuses GIF, BMP, TIFF, SVG, HEIC-like, text and empty with 415', async () => {
    const gif = await solid(10, 10).gif().toBuffer();
    const tiff = await solid(10, 10).tiff().toBuffer();
    const bmp = Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(60)]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(40)]);
    const riffWav = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WAVEfmt ', 'latin1')]);
    for (const bytes of [gif, tiff, bmp, svg, heic, riffWav, Buffer.from('hello, world'), Buffer.alloc(0), Buffer.from([0xff, 0xd8])]) {
      await expectRefused(inspectImage(bytes, 'layers[1].element'), 415, 'unsupported_image_type', 'layers[1].element');
    }
  });

  it('recognises a PNG named .jpg with a JPEG declared type by its content', async () => {
    const png = await solid(16, 16).png().toBuffer();
    // What a multipart part would carry: the name and type are lies, the bytes are not.
    const file = new File([new Uint8Array(png)], 'photo.jpg', { type: 'image/jpeg' });
    const info = await inspectImage(Buffer.from(await file.arrayBuffer()), 'image');
    expect(info.format).toBe('png');
    expect(sniffImageFormat(png)).toBe('png');
  });
});

describe('inspectImage: size and dimensions', () => {
  it('10 MB + 1 byte → 413 image_too_large; exactly 10 MB is not refused for size', async () => {
    const over = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    over.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await expectRefused(inspectImage(over, 'image'), 413, 'image_too_large');
    const exact = Buffer.alloc(MAX_IMAGE_BYTES);
    exact.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const e = await refusal(inspectImage(exact, 'image'));
    expect(e.code).toBe('image_unreadable'); // got past the size check
    expect(MAX_IMAGE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('8193 pixels wide → 400 image_dimensions_invalid; 8192 ok', async () => {
    await expectRefused(inspectImage(bilevelPng(8193, 1), 'image'), 400, 'image_dimensions_invalid');
    await expectRefused(inspectImage(bilevelPng(1, 8193), 'mask'), 400, 'image_dimensions_invalid', 'mask');
    const ok = await inspectImage(bilevelPng(8192, 2), 'image');
    expect(ok).toMatchObject({ width: 8192, height: 2 });
  });

  it('6001×6001 (36.01 Mpx) → 400; 6000×6000 (36 Mpx) ok', async () => {
    await expectRefused(inspectImage(bilevelPng(6001, 6001), 'image'), 400, 'image_dimensions_invalid');
    const ok = await inspectImage(bilevelPng(6000, 6000), 'image');
    expect(ok).toMatchObject({ width: 6000, height: 6000 });
  });

  it('a decompression bomb (20000×20000 in a few KB per Mpx) is refused fast, without allocating', async () => {
    const bomb = bilevelPng(20000, 20000);
    expect(bomb.length).toBeLessThan(200 * 1024);
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    await expectRefused(inspectImage(bomb, 'image'), 400, 'image_dimensions_invalid');
    const grownMb = (process.memoryUsage().rss - rssBefore) / 1e6;
    expect(grownMb).toBeLessThan(50); // decoding would need 400 MB
  });
});

describe('inspectImage: decoding', () => {
  let noisyJpeg: Buffer;
  beforeAll(async () => {
    const w = 400;
    const h = 300;
    const raw = Buffer.alloc(w * h * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
    noisyJpeg = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg().toBuffer();
  });

  it('a truncated JPEG → 400 image_unreadable (even when only the end marker is missing)', async () => {
    await expectRefused(inspectImage(noisyJpeg.subarray(0, Math.floor(noisyJpeg.length * 0.6)), 'image'), 400, 'image_unreadable');
    await expectRefused(inspectImage(noisyJpeg.subarray(0, noisyJpeg.length - 10), 'image'), 400, 'image_unreadable');
    await expect(inspectImage(noisyJpeg, 'image')).resolves.toMatchObject({ format: 'jpeg' });
  });

  it('a baseline or progressive JPEG cut anywhere → image_unreadable (the 1/8-scale decode still reads every segment)', async () => {
    for (const progressive of [false, true]) {
      const jpeg = await sharp(noisyJpeg).jpeg({ quality: 90, progressive }).toBuffer();
      await expect(inspectImage(jpeg, 'image')).resolves.toMatchObject({ format: 'jpeg', width: 400, height: 300 });
      for (const cut of [2, 100, 1000, Math.floor(jpeg.length / 2)]) {
        await expectRefused(inspectImage(jpeg.subarray(0, jpeg.length - cut), 'image'), 400, 'image_unreadable');
      }
    }
  });

  it('truncated PNG and WebP, and a bare header → image_unreadable', async () => {
    const png = await sharp(noisyJpeg).png().toBuffer();
    await expectRefused(inspectImage(png.subarray(0, Math.floor(png.length * 0.7)), 'image'), 400, 'image_unreadable');
    const webp = await sharp(noisyJpeg).webp().toBuffer();
    await expectRefused(inspectImage(webp.subarray(0, Math.floor(webp.length * 0.9)), 'image'), 400, 'image_unreadable');
    await expectRefused(inspectImage(noisyJpeg.subarray(0, 3), 'image'), 400, 'image_unreadable');
  });
});

describe('EXIF orientation', () => {
  let rotated: Buffer;
  beforeAll(async () => {
    // Stored 300×200: left half red, right half blue; orientation 6 = display rotated 90° CW.
    const w = 300;
    const h = 200;
    const raw = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 3;
        raw[o] = x < w / 2 ? 255 : 0;
        raw[o + 2] = x < w / 2 ? 0 : 255;
      }
    }
    rotated = await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
      .toBuffer();
    const meta = await sharp(rotated).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.exif).toBeDefined();
    expect(meta.xmp).toBeDefined();
  });

  it('orientation 6 swaps width and height', async () => {
    const info = await inspectImage(rotated, 'image');
    expect(info).toMatchObject({ width: 200, height: 300, rawWidth: 300, rawHeight: 200, orientation: 6 });
  });

  it('straighten() rotates the pixels and keeps no metadata', async () => {
    const { data, info } = await straighten(rotated);
    expect(info).toEqual({ width: 200, height: 300, channels: 3 });
    const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    // The stored left (red) half is now on top, the blue half at the bottom.
    const top = px(100, 20);
    const bottom = px(100, 280);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);

    const png = await straightenToPng(rotated);
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 200, height: 300 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('straighten() keeps alpha as a 4th channel and turns greyscale into sRGB', async () => {
    const rgba = await straighten(await solid(8, 6, 4).png().toBuffer());
    expect(rgba.info).toEqual({ width: 8, height: 6, channels: 4 });
    const grey = await straighten(bilevelPng(10, 4));
    expect(grey.info).toEqual({ width: 10, height: 4, channels: 3 });
    expect(grey.data.length).toBe(10 * 4 * 3);
  });
});

describe('validateImageUrlString', () => {
  it('accepts an https URL and returns it unchanged', () => {
    expect(validateImageUrlString('https://cdn.example.com/a.jpg?x=1', 'image')).toBe('https://cdn.example.com/a.jpg?x=1');
    const long = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(validateImageUrlString(long, 'mask')).toBe(long);
  });

  it('refuses data URIs with "base64 images are refused"', async () => {
    const e = await refusal(() => validateImageUrlString('data:image/png;base64,iVBORw0KGgo=', 'layers[0].element'));
    expect({ status: e.status, code: e.code, param: e.param }).toEqual({
      status: 400,
      code: 'parameter_invalid',
      param: 'layers[0].element',
    });
    expect(e.message).toMatch(/base64 images are refused/);
    const upper = await refusal(() => validateImageUrlString('DATA:image/png;base64,AAAA', 'image'));
    expect(upper.message).toMatch(/base64 images are refused/);
  });

  it('refuses non-URLs, other schemes, over-long URLs and non-strings with parameter_invalid', async () => {
    const long = `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`;
    for (const value of ['not a url', 'http://example.com/a.jpg', 'ftp://example.com/a', '/relative/a.jpg', '', long, ' https://example.com/a.jpg', 42, null, { url: 'x' }]) {
      const e = await refusal(() => validateImageUrlString(value, 'image'));
      expect({ status: e.status, code: e.code, param: e.param }).toEqual({ status: 400, code: 'parameter_invalid', param: 'image' });
    }
  });
});
