// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { addElement, replaceElement, cutoutElement } from './add';
import { makeElement, makeInteriorScene, rectMask } from '../../../../../test/helpers/engine-scenes';
import { dilate } from './masks';
import { countChanged } from '../../../../../test/helpers/pixel-stats';

const W = 768, H = 576;
const scene = makeInteriorScene(W, H);
const img = scene.image;
const isGreen = (r: number, g: number, b: number): boolean => g > r + 25 && g > b + 20;

describe('cutoutElement', () => {
  it('removes a plain backdrop and keeps the object opaque', () => {
    const el = makeElement('plant', 150, 200, 'plain');
    const { rgba, backgroundRemoved } = cutoutElement(el);
    expect(backgroundRemoved).toBe(true);
    expect(rgba.data[3]).toBe(0); // corner = backdrop
    const potCentre = (Math.round(0.85 * 200) * 150 + 75) * 4;
    expect(rgba.data[potCentre + 3]).toBe(255);
  });
  it('keeps a real alpha channel as is', () => {
    const el = makeElement('lamp', 60, 180, 'alpha');
    expect(cutoutElement(el).backgroundRemoved).toBe(false);
  });
});

describe('addElement (add)', () => {
  const mask = rectMask(W, H, { x0: 0.05, y0: 0.5, x1: 0.22, y1: 0.86 });

  it('changes nothing outside the slightly dilated area; the element is visible inside', () => {
    const el = makeElement('plant', 300, 400, 'plain');
    const out = addElement(img, { alpha: mask }, el, { clipDilate: 6 });
    const allowed = dilate(mask, W, H, 6);
    expect(countChanged(img, out, (i) => allowed[i] === 0)).toBe(0);
    let green = 0, backdrop = 0;
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i]) continue;
      const r = out.data[i * 3]!, g = out.data[i * 3 + 1]!, b = out.data[i * 3 + 2]!;
      if (isGreen(r, g, b)) green++;
      // the element's backdrop colour (246,245,243) appearing where it was not before
      // (scene pixels that were already near-white, e.g. the skirting, cannot tell)
      const dist = (R: number, G: number, B: number): number => Math.abs(R - 246) + Math.abs(G - 245) + Math.abs(B - 243);
      if (dist(r, g, b) < 12 && dist(img.data[i * 3]!, img.data[i * 3 + 1]!, img.data[i * 3 + 2]!) > 30) backdrop++;
    }
    const area = mask.filter((v) => v).length;
    expect(green).toBeGreaterThan(0.1 * area);
    expect(backdrop).toBe(0);
    // bottom-aligned with a contact shadow: just under the pot the floor got darker
    const bottom = Math.round(0.86 * H) - 3, cx = Math.round(0.135 * W);
    const lum = (im: typeof img, i: number): number => im.data[i * 3]! + im.data[i * 3 + 1]! + im.data[i * 3 + 2]!;
    let darker = 0;
    for (let dx = -20; dx <= 20; dx++) if (lum(out, bottom * W + cx + dx) < lum(img, bottom * W + cx + dx)) darker++;
    expect(darker).toBeGreaterThan(20);
  });

  it('replace: the sofa goes, the element stands in its place', () => {
    // A smaller scene than above: the sofa's fill takes the same path (PatchMatch over four
    // levels, then the element clipped to the area's box) for less than half the CPU.
    const small = makeInteriorScene(512, 384);
    const el = makeElement('plant', 300, 400, 'plain');
    const alpha = small.regions.sofa;
    const out = replaceElement(small.image, { alpha }, el);
    let teal = 0, green = 0;
    for (let i = 0; i < alpha.length; i++) {
      if (!alpha[i]) continue;
      const r = out.data[i * 3]!, g = out.data[i * 3 + 1]!, b = out.data[i * 3 + 2]!;
      if (g > r + 20 && b > r + 20 && b > g - 10) teal++;
      if (isGreen(r, g, b)) green++;
    }
    const area = alpha.filter((v) => v).length;
    expect(teal).toBeLessThan(0.01 * area);
    expect(green).toBeGreaterThan(0.05 * area);
  });
});
