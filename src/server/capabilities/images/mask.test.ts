// @node-lines same: our mask rules on sharp's pixels; sharp's binding runs under both lines in src/server/capabilities/images/intake.test.ts
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';
import {
  MASK_PALETTE,
  analyzeMask,
  matchLayersToMask,
  validateLayerMaskColors,
  validateMaskColor,
  type MaskAnalysis,
} from './mask';

type Rgba = [number, number, number, number];
const RED: Rgba = [255, 0, 0, 255];
const LIME: Rgba = [0xcc, 0xff, 0x00, 255];
const GREEN: Rgba = [0x00, 0xff, 0x66, 255];
const BLUE: Rgba = [0x00, 0x66, 0xff, 255];
const PURPLE: Rgba = [0xcc, 0x00, 0xff, 255];
const CLEAR: Rgba = [0, 0, 0, 0];

/** RGBA PNG whose pixel (x, y) is paint(x, y). */
async function maskPng(width: number, height: number, paint: (x: number, y: number) => Rgba): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(paint(x, y), (y * width + x) * 4);
  }
  return sharp(raw, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 1 }).toBuffer();
}

async function refusal(fn: () => unknown): Promise<ApiError> {
  let err: unknown = null;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DomainError);
  return toHttpError(err as DomainError);
}

async function expectRefused(fn: () => unknown, status: number, code: string, param: string): Promise<ApiError> {
  const e = await refusal(fn);
  expect({ status: e.status, code: e.code, param: e.param }).toEqual({ status, code, param });
  return e;
}

function labelAt(a: MaskAnalysis, x: number, y: number): number {
  return a.labels[y * a.width + x] as number;
}

describe('analyzeMask: format', () => {
  it('JPEG, WebP, GIF and garbage masks → 400 mask_invalid', async () => {
    const base = sharp({ create: { width: 512, height: 512, channels: 3, background: '#ff0000' } });
    for (const bytes of [
      await base.clone().jpeg().toBuffer(),
      await base.clone().webp().toBuffer(),
      await base.clone().gif().toBuffer(),
      Buffer.from('not an image'),
    ]) {
      await expectRefused(() => analyzeMask(bytes, { width: 512, height: 512 }), 400, 'mask_invalid', 'mask');
    }
  });

  it('a PNG signature with garbage, or a truncated PNG → mask_invalid', async () => {
    const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await expectRefused(() => analyzeMask(Buffer.concat([sig, Buffer.alloc(100, 7)]), { width: 512, height: 512 }), 400, 'mask_invalid', 'mask');
    const noisy = Buffer.alloc(512 * 512 * 4);
    for (let i = 0; i < noisy.length; i++) noisy[i] = (i * 7919) % 251;
    const png = await sharp(noisy, { raw: { width: 512, height: 512, channels: 4 } }).png().toBuffer();
    await expectRefused(() => analyzeMask(png.subarray(0, png.length >> 1), { width: 512, height: 512 }), 400, 'mask_invalid', 'mask');
  });

  it('uses the given param name', async () => {
    await expectRefused(() => analyzeMask(Buffer.from('x'), { width: 10, height: 10 }, 'the_mask'), 400, 'mask_invalid', 'the_mask');
  });

  it('accepts RGB (no alpha) and palette PNGs; an opaque RGB pixel counts as opaque', async () => {
    const rgb = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#0066ff' } }).png().toBuffer();
    const a = await analyzeMask(rgb, { width: 600, height: 400 });
    expect(a.paintedColors).toEqual(['#0066FF']);
    const indexed = await sharp(await maskPng(600, 400, (x) => (x < 300 ? RED : CLEAR)))
      .png({ palette: true })
      .toBuffer();
    expect((await sharp(indexed).metadata()).isPalette).toBe(true);
    const b = await analyzeMask(indexed, { width: 600, height: 400 });
    expect(b.paintedColors).toEqual(['#FF0000']);
    expect(b.coverage['#FF0000']).toBeCloseTo(0.5, 3);
  });
});

describe('analyzeMask: dimensions', () => {
  it('2% off the image proportions → mask_dimensions_mismatch', async () => {
    const mask = await maskPng(1020, 1000, () => RED);
    const e = await expectRefused(() => analyzeMask(mask, { width: 1000, height: 1000 }), 400, 'mask_dimensions_mismatch', 'mask');
    expect(e.message).toMatch(/proportions/);
    // Also the other way round and against a rotated image's proportions.
    await expectRefused(() => analyzeMask(mask, { width: 1000, height: 1020 }), 400, 'mask_dimensions_mismatch', 'mask');
  });

  it('0.5% off → accepted and brought to the image size', async () => {
    const mask = await maskPng(1005, 1000, (x) => (x < 502 ? RED : BLUE));
    const a = await analyzeMask(mask, { width: 1000, height: 1000 });
    expect({ w: a.width, h: a.height, len: a.labels.length, mw: a.maskWidth }).toEqual({ w: 1000, h: 1000, len: 1_000_000, mw: 1005 });
    expect(a.paintedColors).toEqual(['#FF0000', '#0066FF']);
  });

  it('long side 511 with a larger image → mismatch; 512 ok', async () => {
    const small = await maskPng(511, 383, () => RED);
    const e = await expectRefused(() => analyzeMask(small, { width: 4000, height: 3000 }), 400, 'mask_dimensions_mismatch', 'mask');
    expect(e.message).toMatch(/512/);
    const ok = await analyzeMask(await maskPng(512, 384, () => RED), { width: 4000, height: 3000 });
    expect(ok.paintedColors).toEqual(['#FF0000']);
    expect(ok.labels.length).toBe(12_000_000);
  });

  it('a smaller image: an equal-size mask is fine, a smaller mask is refused', async () => {
    const equal = await maskPng(300, 200, () => LIME);
    const a = await analyzeMask(equal, { width: 300, height: 200 });
    expect(a.paintedColors).toEqual(['#CCFF00']);
    expect(a.labels.length).toBe(60_000);
    const half = await maskPng(150, 100, () => LIME);
    await expectRefused(() => analyzeMask(half, { width: 300, height: 200 }), 400, 'mask_dimensions_mismatch', 'mask');
    // Larger than a small image is fine too (downsampled).
    const bigger = await maskPng(600, 400, () => LIME);
    expect((await analyzeMask(bigger, { width: 300, height: 200 })).labels.length).toBe(60_000);
  });

  it('resizing is nearest neighbour: no in-between colours, sharp border', async () => {
    // Left half red, right half blue; enlarged ×2 then reduced ×0.5.
    const mask = await maskPng(512, 512, (x) => (x < 256 ? RED : BLUE));
    const up = await analyzeMask(mask, { width: 1024, height: 1024 });
    expect(up.paintedColors).toEqual(['#FF0000', '#0066FF']);
    expect(labelAt(up, 511, 700)).toBe(1);
    expect(labelAt(up, 512, 700)).toBe(4);
    expect(new Set(up.labels)).toEqual(new Set([1, 4]));
    expect(up.coverage['#FF0000']).toBe(0.5);

    const checker = await maskPng(1024, 1024, (x, y) => ((x + y) % 2 === 0 ? PURPLE : GREEN));
    const down = await analyzeMask(checker, { width: 512, height: 512 });
    expect(new Set(down.labels).has(0)).toBe(false); // every output pixel copies one input pixel
  });

  it('a mask over the dimension limits is refused before decoding', async () => {
    // 9000×100 passes the 1% rule against a 9000×100 "image" but not the 8192 limit.
    const wide = await sharp({ create: { width: 9000, height: 100, channels: 4, background: '#ff0000' } }).png().toBuffer();
    await expectRefused(() => analyzeMask(wide, { width: 9000, height: 100 }), 400, 'image_dimensions_invalid', 'mask');
  });
});

describe('analyzeMask: painted pixels', () => {
  it('alpha 40% is unpainted, 60% painted (threshold 128)', async () => {
    // Four 500×1000 columns; image 2000×1000.
    const alphas = [102, 127, 128, 153]; // 40 %, just under 50 %, 50 %, 60 %
    const mask = await maskPng(2000, 1000, (x) => {
      const a = alphas[Math.floor(x / 500)] as number;
      return [255, 0, 0, a];
    });
    const r = await analyzeMask(mask, { width: 2000, height: 1000 });
    expect(labelAt(r, 100, 10)).toBe(0);
    expect(labelAt(r, 600, 10)).toBe(0);
    expect(labelAt(r, 1100, 10)).toBe(1);
    expect(labelAt(r, 1600, 10)).toBe(1);
    expect(r.coverage['#FF0000']).toBe(0.5);
  });

  it('a channel off by 48 is painted, by 49 unpainted (each channel, each direction)', async () => {
    const cases: Array<{ px: Rgba; painted: boolean }> = [
      { px: [255 - 48, 0, 0, 255], painted: true },
      { px: [255 - 49, 0, 0, 255], painted: false },
      { px: [255, 48, 0, 255], painted: true },
      { px: [255, 49, 0, 255], painted: false },
      { px: [255, 0, 48, 255], painted: true },
      { px: [255, 0, 49, 255], painted: false },
      { px: [0xcc + 48, 0xff - 48, 48, 255], painted: true }, // lime, all three off by 48
      { px: [0xcc - 49, 0xff, 0, 255], painted: false },
      { px: [48, 0x66 - 48, 0xff - 48, 255], painted: true }, // blue
      { px: [0, 0x66 + 49, 0xff, 255], painted: false },
    ];
    const width = 1000;
    const band = width / cases.length; // 100 px columns
    const mask = await maskPng(width, 600, (x) => cases[Math.floor(x / band)]?.px ?? CLEAR);
    const r = await analyzeMask(mask, { width, height: 600 });
    cases.forEach((c, i) => {
      const label = labelAt(r, i * band + 50, 300);
      expect(label > 0, `case ${i}: ${c.px.join(',')}`).toBe(c.painted);
    });
  });

  it('a colour under 0.01% of the pixels counts as unpainted and is cleared', async () => {
    // 1000×1000 = 1e6 pixels: 0.01 % = 100 px. Red blob 50 px (0.005 %), green blob 100 px.
    const mask = await maskPng(1000, 1000, (x, y) => {
      if (y === 10 && x < 50) return RED;
      if (y === 20 && x < 100) return GREEN;
      if (y >= 500) return PURPLE;
      return CLEAR;
    });
    const r = await analyzeMask(mask, { width: 1000, height: 1000 });
    expect(r.paintedColors).toEqual(['#00FF66', '#CC00FF']);
    expect(r.coverage).toEqual({ '#00FF66': 0.0001, '#CC00FF': 0.5 });
    expect(labelAt(r, 10, 10)).toBe(0); // the red speck is gone from the labels
    expect(labelAt(r, 10, 20)).toBe(3);
  });

  it('analyses a mask with all five colours, and one brought up from half the size', async () => {
    // All five colours in vertical bands plus a transparent band, with soft-edged noise. Its
    // cost at the largest size (4096×3072) is measured by `npm run bench -- --only validation`.
    const w = 1024;
    const h = 768;
    const colours = [RED, LIME, GREEN, BLUE, PURPLE, CLEAR];
    const mask = await maskPng(w, h, (x, y) => {
      const c = colours[Math.floor((x * colours.length) / w)] as Rgba;
      return (x ^ y) % 7 === 0 ? [c[0] ^ 0x20, c[1], c[2], c[3]] : c; // some off-by-32 pixels
    });
    const same = await analyzeMask(mask, { width: w, height: h });
    expect(same.paintedColors).toEqual([...MASK_PALETTE]);

    const half = await maskPng(w / 2, h / 2, (x) => colours[Math.floor((x * colours.length * 2) / w)] as Rgba);
    const up = await analyzeMask(half, { width: w, height: h });
    expect(up.labels.length).toBe(w * h);
  });

});

describe('matchLayersToMask', () => {
  const analysis = (colors: string[]) => ({ paintedColors: colors as MaskAnalysis['paintedColors'] });

  it('mask mode: a layer colour that is not painted → param layers[i].mask_color', async () => {
    await expectRefused(
      () => matchLayersToMask(analysis(['#FF0000']), ['#FF0000', '#0066FF'], 'mask'),
      400,
      'mask_colors_mismatch',
      'layers[1].mask_color',
    );
    await expectRefused(() => matchLayersToMask(analysis([]), ['#CCFF00'], 'mask'), 400, 'mask_colors_mismatch', 'layers[0].mask_color');
  });

  it('mask mode: a painted colour without a layer → param mask', async () => {
    await expectRefused(
      () => matchLayersToMask(analysis(['#FF0000', '#00FF66']), ['#FF0000'], 'mask'),
      400,
      'mask_colors_mismatch',
      'mask',
    );
  });

  it('mask mode: exact match passes, order and case do not matter', () => {
    expect(() => matchLayersToMask(analysis(['#FF0000', '#0066FF']), ['#0066ff', '#ff0000'], 'mask')).not.toThrow();
  });

  it('prompt mode: exactly one painted colour', async () => {
    expect(() => matchLayersToMask(analysis(['#CC00FF']), [], 'prompt')).not.toThrow();
    await expectRefused(() => matchLayersToMask(analysis([]), [], 'prompt'), 400, 'mask_colors_mismatch', 'mask');
    await expectRefused(() => matchLayersToMask(analysis(['#FF0000', '#CC00FF']), [], 'prompt'), 400, 'mask_colors_mismatch', 'mask');
  });

  it('end to end: a real mask against its layers', async () => {
    const mask = await maskPng(800, 600, (x) => (x < 400 ? RED : CLEAR));
    const a = await analyzeMask(mask, { width: 800, height: 600 });
    expect(() => matchLayersToMask(a, ['#FF0000'], 'mask')).not.toThrow();
    expect(() => matchLayersToMask(a, [], 'prompt')).not.toThrow();
  });
});

describe('validateMaskColor', () => {
  it('accepts palette colours in any case and returns uppercase', () => {
    expect(validateMaskColor('#ff0000', 'layers[0].mask_color')).toBe('#FF0000');
    expect(validateMaskColor('#CcFf00', 'layers[0].mask_color')).toBe('#CCFF00');
    expect(validateLayerMaskColors(['#00ff66', '#0066FF', '#cc00ff'])).toEqual(['#00FF66', '#0066FF', '#CC00FF']);
  });

  it('refuses colours outside the palette, bad syntax and repeats with the exact param', async () => {
    for (const v of ['#FF0001', '#000000', 'FF0000', 'red', '#F00', '#FF00000', '', 7, null]) {
      await expectRefused(() => validateMaskColor(v, 'layers[2].mask_color'), 400, 'parameter_invalid', 'layers[2].mask_color');
    }
    await expectRefused(
      () => validateLayerMaskColors(['#FF0000', '#0066FF', '#ff0000']),
      400,
      'parameter_invalid',
      'layers[2].mask_color',
    );
    await expectRefused(() => validateLayerMaskColors(['#FF0000', '#123456']), 400, 'parameter_invalid', 'layers[1].mask_color');
  });
});
