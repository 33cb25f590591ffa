// @node-lines same: the console's browser code: it runs in the browser, not on a Node line
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { analyzeMask, matchLayersToMask, MASK_PALETTE } from '@/server/capabilities/images/mask';
import { labelOf, maskSizeProblem, MaskHistory, MaskRaster, maskSizeFor, opaquePixels, rectIsEmpty } from './mask-raster';

/** The painter's export as the browser sends it: its RGBA pixels encoded as a PNG. */
async function png(raster: MaskRaster): Promise<Buffer> {
  return sharp(Buffer.from(raster.toRgba().buffer), { raw: { width: raster.width, height: raster.height, channels: 4 } }).png().toBuffer();
}

describe('mask export against the server mask analysis', () => {
  it('brush strokes of two colours: the server finds exactly those two colours and accepts two layers for them', async () => {
    const size = maskSizeFor(3000, 2000);
    expect(size).toEqual({ width: 2048, height: 1365 });
    const raster = new MaskRaster(size.width, size.height);
    raster.stroke({ x: 100, y: 100 }, { x: 900, y: 300 }, 40, labelOf('#FF0000'));
    raster.polygon([{ x: 1200, y: 200 }, { x: 1800, y: 250 }, { x: 1500, y: 1100 }], labelOf('#0066FF'));
    const analysis = await analyzeMask(await png(raster), { width: 3000, height: 2000 });
    expect(analysis.paintedColors).toEqual(['#FF0000', '#0066FF']);
    expect(() => matchLayersToMask(analysis, ['#FF0000', '#0066FF'], 'mask')).not.toThrow();
    // A painted colour without a layer is what the painter flags before sending.
    expect(() => matchLayersToMask(analysis, ['#FF0000'], 'mask')).toThrow(expect.objectContaining({ code: 'mask_colors_mismatch', param: 'mask' }));
  });

  it('hard edges: every exported pixel is a palette colour at alpha 255 or fully transparent', async () => {
    const raster = new MaskRaster(600, 400);
    raster.disc(300, 200, 37.3, labelOf('#CCFF00'));
    raster.stroke({ x: 10, y: 390 }, { x: 590, y: 13 }, 7.7, labelOf('#CC00FF'));
    raster.polygon([{ x: 20.2, y: 20.7 }, { x: 200.4, y: 60.1 }, { x: 90.9, y: 180.3 }], labelOf('#00FF66'));
    const decoded = await sharp(await png(raster)).ensureAlpha().raw().toBuffer();
    const allowed = new Set(['0,0,0,0', ...MASK_PALETTE.map((hex) => `${parseInt(hex.slice(1, 3), 16)},${parseInt(hex.slice(3, 5), 16)},${parseInt(hex.slice(5, 7), 16)},255`)]);
    const seen = new Set<string>();
    for (let i = 0; i < decoded.length; i += 4) seen.add(`${decoded[i]},${decoded[i + 1]},${decoded[i + 2]},${decoded[i + 3]}`);
    for (const pixel of seen) expect(allowed.has(pixel), pixel).toBe(true);
    expect(seen.size).toBe(4); // transparent and the three colours used
    const analysis = await analyzeMask(await png(raster), { width: 600, height: 400 });
    expect(analysis.paintedColors).toEqual(['#CCFF00', '#00FF66', '#CC00FF']);
    // Coverage as the painter counts it is the server's coverage (same size: no resampling).
    const counts = raster.counts();
    expect(analysis.coverage['#CCFF00']).toBeCloseTo((counts[2] as number) / (600 * 400), 6);
  });

  it('proportions: the mask of any image is accepted for that image (within 1 %), small images keep their size', async () => {
    for (const [w, h] of [[4032, 3024], [1080, 1920], [8000, 1200], [300, 200], [513, 7000]] as const) {
      const size = maskSizeFor(w, h);
      const raster = new MaskRaster(size.width, size.height);
      raster.rect({ x: 0, y: 0 }, { x: size.width / 2, y: size.height / 2 }, labelOf('#00FF66'));
      const analysis = await analyzeMask(await png(raster), { width: w, height: h });
      expect(analysis.paintedColors).toEqual(['#00FF66']);
      if (Math.max(w, h) <= 2048) expect(size).toEqual({ width: w, height: h });
    }
  });

  it('eraser, flood fill, undo/redo and re-import of an exported mask', async () => {
    const raster = new MaskRaster(100, 80);
    const history = new MaskHistory();
    history.record(raster);
    raster.rect({ x: 10, y: 10 }, { x: 49, y: 49 }, labelOf('#FF0000'));
    expect(raster.counts()[1]).toBe(40 * 40);
    history.record(raster);
    raster.stroke({ x: 0, y: 30 }, { x: 99, y: 30 }, 3, 0); // eraser cuts the square in two
    const erased = raster.counts()[1] as number;
    expect(erased).toBeLessThan(1600);
    history.record(raster);
    // Flood fill of the top half only (the eraser line separates it).
    const filled = raster.flood({ x: 20, y: 15 }, labelOf('#0066FF'));
    expect(filled).toBeGreaterThan(0);
    expect((raster.counts()[4] as number) + (raster.counts()[1] as number)).toBe(erased);
    expect(raster.counts()[1]).toBeGreaterThan(0);
    expect(history.undo(raster)).toBe(true);
    expect(raster.counts()[4]).toBe(0);
    expect(history.redo(raster)).toBe(true);
    expect(raster.counts()[4]).toBe(filled);

    const reread = MaskRaster.fromRgba(await sharp(await png(raster)).ensureAlpha().raw().toBuffer(), 100, 80);
    expect(Array.from(reread.labels)).toEqual(Array.from(raster.labels));
    // Near-palette, semi-opaque pixels follow the server's rule: within 48 per channel and alpha ≥ 128.
    const near = MaskRaster.fromRgba(new Uint8Array([230, 40, 30, 200, 230, 40, 30, 100, 150, 0, 0, 255]), 3, 1);
    expect(Array.from(near.labels)).toEqual([1, 0, 0]);
  });
});

describe('a mask PNG chosen to start from', () => {
  it('of other proportions or too small is refused with the reason (the server refuses it the same way)', async () => {
    expect(maskSizeProblem(960, 640, 960, 640)).toBeNull();
    expect(maskSizeProblem(2048, 1365, 3000, 2000)).toBeNull(); // the painter's own export
    expect(maskSizeProblem(800, 800, 960, 640)).toMatch(/must have the photo's proportions \(960×640\) within 1 %/);
    expect(maskSizeProblem(300, 200, 960, 640)).toMatch(/long side is 300 px: it must be at least 512 px/);
    expect(maskSizeProblem(300, 200, 300, 200)).toBeNull(); // a photo smaller than 512 px: its own size suffices
    // The same verdicts as the server's analysis.
    const square = await sharp({ create: { width: 800, height: 800, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
    await expect(analyzeMask(square, { width: 960, height: 640 })).rejects.toMatchObject({ code: 'mask_dimensions_mismatch' });
    const small = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
    await expect(analyzeMask(small, { width: 960, height: 640 })).rejects.toMatchObject({ code: 'mask_dimensions_mismatch' });
  });

  it('counts opaque pixels that are not palette colours (an off-palette mask paints nothing)', () => {
    const rgba = new Uint8ClampedArray([
      255, 0, 0, 255, // palette red
      230, 30, 20, 200, // within 48 of red, opaque enough
      128, 128, 128, 255, // grey: off the palette
      0, 0, 255, 255, // pure blue: more than 48 from #0066FF on green
      0, 0, 0, 0, // transparent
      255, 0, 0, 100, // red but under 50 % opaque
    ]);
    expect(opaquePixels(rgba)).toEqual({ opaque: 4, offPalette: 2 });
    expect(MaskRaster.fromRgba(rgba, 6, 1).counts().slice(1).reduce((a, b) => a + b, 0)).toBe(2);
  });
});

describe('a rectangle without size', () => {
  it('paints nothing when its corners are one spot or on one line (under a mask pixel apart); a real one paints its pixels', () => {
    const raster = new MaskRaster(100, 80);
    const red = labelOf('#FF0000');
    for (const [a, b] of [
      [{ x: 50.5, y: 40.5 }, { x: 50.5, y: 40.5 }],
      [{ x: 10.5, y: 40.5 }, { x: 90.5, y: 40.5 }],
      [{ x: 30.5, y: 10.5 }, { x: 30.9, y: 70.5 }],
    ] as const) {
      expect(rectIsEmpty(a, b)).toBe(true);
      raster.rect(a, b, red);
      expect(raster.counts()[1]).toBe(0);
    }
    expect(rectIsEmpty({ x: 10, y: 10 }, { x: 11, y: 11 })).toBe(false);
    raster.rect({ x: 10, y: 10 }, { x: 20, y: 30 }, red);
    expect(raster.counts()[1]).toBe(11 * 21);
  });
});
