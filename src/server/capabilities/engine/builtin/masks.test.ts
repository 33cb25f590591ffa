// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { layerAlpha, dilate, erode, feather, featherInside, maskBBox, maskCount } from './masks';

const W = 40, H = 30;
function square(x0: number, y0: number, x1: number, y1: number): Uint8Array {
  const a = new Uint8Array(W * H);
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) a[y * W + x] = 255;
  return a;
}

describe('masks', () => {
  it('builds a layer alpha from a label map', () => {
    const labels = new Uint8Array(W * H);
    labels[5] = 1;
    labels[6] = 2;
    labels[7] = 2;
    expect(maskCount(layerAlpha(labels, 1))).toBe(2);
    expect(layerAlpha(labels, 0)[5]).toBe(255);
    expect(layerAlpha(labels, 0)[6]).toBe(0);
  });

  it('dilates and erodes by a square of radius r', () => {
    const a = square(10, 10, 20, 15);
    const d = dilate(a, W, H, 2);
    expect(maskBBox(d, W, H)).toEqual({ x0: 8, y0: 8, x1: 22, y1: 17 });
    expect(maskCount(d)).toBe(14 * 9);
    const e = erode(a, W, H, 1);
    expect(maskBBox(e, W, H)).toEqual({ x0: 11, y0: 11, x1: 19, y1: 14 });
    // the image frame is not background: a mask touching the edge keeps its edge when eroded
    const edge = square(0, 0, 10, 10);
    expect(erode(edge, W, H, 2)[0]).toBe(255);
  });

  it('feathers softly, and featherInside never touches pixels outside the mask', () => {
    const a = square(10, 10, 30, 20);
    const f = feather(a, W, H, 3);
    expect(f[15 * W + 20]).toBe(255); // centre stays full
    expect(f[15 * W + 9]!).toBeGreaterThan(0); // soft outside the edge
    expect(f[15 * W + 10]!).toBeLessThan(255);
    const fi = featherInside(a, W, H, 3);
    for (let i = 0; i < a.length; i++) if (a[i] === 0) expect(fi[i]).toBe(0);
    expect(fi[15 * W + 10]!).toBeGreaterThan(0);
    expect(fi[15 * W + 10]!).toBeLessThan(255);
  });
});
