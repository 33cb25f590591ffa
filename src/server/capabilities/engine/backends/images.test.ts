// @node-lines same: our size and compositing rules on sharp's pixels; sharp's binding runs under both lines in src/server/capabilities/images/intake.test.ts and src/server/capabilities/engine/builtin/encode.test.ts
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { finishOutput, rgbAt, sendSizeFor } from './images';
import { BackendError } from './errors';

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

describe('backend answers', () => {
  it('are resized to exactly the target and encoded as WebP', async () => {
    const out = await finishOutput(await solid(1024, 768, '#336699'), { width: 2048, height: 1536 }, null, null);
    expect(out).toMatchObject({ contentType: 'image/webp', width: 2048, height: 1536 });
    const meta = await sharp(out.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 2048, 1536]);
  });

  it('of another aspect are refused (failed), never stretched', async () => {
    const error = await finishOutput(await solid(1024, 1024, '#336699'), { width: 2048, height: 1536 }, null, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).kind).toBe('failed');
  });

  it('within 1 % of the aspect (a model rounding to multiples of 8) are accepted', async () => {
    const out = await finishOutput(await solid(1000, 664, '#336699'), { width: 1024, height: 683 }, null, null);
    expect([out.width, out.height]).toEqual([1024, 683]);
  });

  it('are composited over the source outside the mask', async () => {
    const target = { width: 64, height: 48 };
    const source = await rgbAt(await solid(64, 48, '#102030'), target);
    const alpha = new Uint8Array(64 * 48);
    for (let y = 10; y < 30; y++) for (let x = 20; x < 40; x++) alpha[y * 64 + x] = 255;
    const out = await finishOutput(await solid(64, 48, '#F0E0D0'), target, source, alpha);
    const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    expect(px(2, 2).map((v, i) => Math.abs(v - [0x10, 0x20, 0x30][i]!)).every((d) => d < 6)).toBe(true);
    expect(px(30, 20).map((v, i) => Math.abs(v - [0xf0, 0xe0, 0xd0][i]!)).every((d) => d < 6)).toBe(true);
  });

  it('the size sent to a model is the target capped at 2048 a side', () => {
    expect(sendSizeFor({ width: 4096, height: 3072 })).toEqual({ width: 2048, height: 1536 });
    expect(sendSizeFor({ width: 1024, height: 768 })).toEqual({ width: 1024, height: 768 });
  });
});

describe('backend answers that already are the output', () => {
  const webp = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#8a7f70', noise: { type: 'gaussian', mean: 128, sigma: 20 } } }).webp({ quality: 85 }).toBuffer();

  it('a plain WebP of exactly the target is kept byte for byte', async () => {
    const answer = await webp(1024, 768);
    const out = await finishOutput(answer, { width: 1024, height: 768 }, null, null);
    expect(out).toMatchObject({ contentType: 'image/webp', width: 1024, height: 768 });
    expect(out.bytes.equals(answer)).toBe(true);
  });

  it('a plain WebP of another size is resized to the target (new bytes)', async () => {
    const answer = await webp(512, 384);
    const out = await finishOutput(answer, { width: 1024, height: 768 }, null, null);
    expect(out.bytes.equals(answer)).toBe(false);
    const meta = await sharp(out.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1024, 768]);
  });

  it('a plain WebP of the target is still composited when there is a mask', async () => {
    const target = { width: 64, height: 48 };
    const answer = await sharp({ create: { ...target, channels: 3, background: '#F0E0D0' } }).webp({ quality: 90 }).toBuffer();
    const source = await rgbAt(await solid(64, 48, '#102030'), target);
    const alpha = new Uint8Array(64 * 48);
    for (let y = 10; y < 30; y++) for (let x = 20; x < 40; x++) alpha[y * 64 + x] = 255;
    const out = await finishOutput(answer, target, source, alpha);
    expect(out.bytes.equals(answer)).toBe(false);
    const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => [...data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    expect(px(2, 2).map((v, i) => Math.abs(v - [0x10, 0x20, 0x30][i]!)).every((d) => d < 6)).toBe(true);
  });

  it('a cut-off WebP of the target is not kept: it fails as an unreadable answer', async () => {
    const answer = await webp(1024, 768);
    const error = await finishOutput(answer.subarray(0, answer.length - 1000), { width: 1024, height: 768 }, null, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).kind).toBe('failed');
  });
});
