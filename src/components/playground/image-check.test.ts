// @node-lines same: the console's browser code: it runs in the browser, not on a Node line
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { problemSentence } from '@/console-client/problems';
import { MAX_IMAGE_BYTES } from '@/shared/images/image-limits';
import { checkImageFile } from './image-check';
import { bilevelPng } from '../../../test/helpers/bilevel-png';

const blob = (bytes: Uint8Array<ArrayBuffer> | string) => new Blob([bytes]);

describe('checkImageFile: a chosen file judged as the API would, before any upload', () => {
  it('accepts a JPEG and reports its size', async () => {
    const jpeg = await sharp({ create: { width: 960, height: 640, channels: 3, background: '#d8cbb0' } }).jpeg().toBuffer();
    expect(await checkImageFile(blob(new Uint8Array(jpeg)))).toEqual({ ok: true, format: 'jpeg', width: 960, height: 640 });
  });

  it('refuses a file over 10 MB first, whatever its content', async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set([0xff, 0xd8, 0xff]);
    const check = await checkImageFile(blob(big));
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problem.code).toBe('image_too_large');
    expect(problemSentence(check.problem, 'image')).toBe('This image is over 10 MB.');
  });

  it('refuses a text file (named .jpg or not) by its content', async () => {
    const check = await checkImageFile(blob('Meeting notes'));
    expect(check).toMatchObject({ ok: false, problem: { code: 'unsupported_image_type' } });
  });

  it('refuses 9000×7000 from the header, without decoding', async () => {
    const check = await checkImageFile(blob(new Uint8Array(bilevelPng(9000, 7000))));
    expect(check).toMatchObject({ ok: false, problem: { code: 'image_dimensions_invalid' } });
    if (check.ok) return;
    expect(problemSentence(check.problem, 'mask')).toBe('This mask is 9000×7000 pixels: the limit is 8,192 pixels a side and 36 million pixels in all.');
  });

  it('a mask must be a PNG', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f00' } }).jpeg().toBuffer();
    expect(await checkImageFile(blob(new Uint8Array(jpeg)), { pngOnly: true })).toMatchObject({ ok: false, problem: { code: 'mask_invalid', message: 'The mask must be a PNG.' } });
  });
});
