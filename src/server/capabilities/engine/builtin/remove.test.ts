// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { removeAreaWithInfo } from './remove';
import { makeInteriorScene, rectMask } from '../../../../../test/helpers/engine-scenes';
import { dilate } from './masks';
import { deltaE2000, meanLabInMask } from './color';
import { resampleLanczos3 } from './resample';
import { scaleMaskNearest } from '../../../../../test/helpers/pixel-stats';

describe('removeArea (remove)', () => {
  const W = 768, H = 576;
  const scene = makeInteriorScene(W, H, { painting: false });
  const img = scene.image;
  // The table's fill is computed once: its own test checks it, 'is deterministic' compares a second run with it.
  let tableRemoval: ReturnType<typeof removeAreaWithInfo> | undefined;
  const removed = (region: 'sofa' | 'table'): ReturnType<typeof removeAreaWithInfo> => {
    if (region === 'sofa') return removeAreaWithInfo(img, { alpha: scene.regions.sofa });
    return (tableRemoval ??= removeAreaWithInfo(img, { alpha: scene.regions.table }));
  };

  for (const region of ['sofa', 'table'] as const) {
    it(`removes the ${region}: area matches its surroundings, no trace of the object`, () => {
      const alpha = scene.regions[region];
      const { image: out, info } = removed(region);
      expect(info.method).toBe('patchmatch');
      // the area (where the object was) vs a ring of surroundings around it
      const ring = dilate(alpha, W, H, 24);
      const near = dilate(alpha, W, H, 8);
      for (let i = 0; i < ring.length; i++) if (near[i]) ring[i] = 0;
      const area = meanLabInMask(out.data, 3, alpha);
      const around = meanLabInMask(out.data, 3, ring);
      const object = meanLabInMask(img.data, 3, alpha);
      const dAround = deltaE2000(area, around), dObject = deltaE2000(area, object);
      expect(dAround).toBeLessThan(12);
      expect(dObject).toBeGreaterThan(2 * dAround);
      // no pixel of the object's colour family is left: the sofa is teal, the table dark walnut
      let residue = 0;
      for (let i = 0; i < alpha.length; i++) {
        if (alpha[i]! < 128) continue;
        const r = out.data[i * 3]!, g = out.data[i * 3 + 1]!, b = out.data[i * 3 + 2]!;
        const base = scene.colors[region];
        if (r === base[0] && g === base[1] && b === base[2]) residue++;
        else if (region === 'sofa' && g > r + 20 && b > r + 20) residue++; // teal
        else if (region === 'table' && r < 110 && g < 80) residue++; // dark walnut
      }
      expect(residue).toBe(0);
      // far from the object nothing changes
      const far = dilate(alpha, W, H, Math.round(0.12 * Math.max(W, H)));
      let changedFar = 0;
      for (let i = 0; i < far.length; i++) if (!far[i] && (out.data[i * 3] !== img.data[i * 3] || out.data[i * 3 + 1] !== img.data[i * 3 + 1])) changedFar++;
      expect(changedFar).toBe(0);
    });
  }

  it('is deterministic', () => {
    const a = removed('table').image;
    const b = removeAreaWithInfo(img, { alpha: scene.regions.table }).image;
    expect(Buffer.compare(Buffer.from(a.data), Buffer.from(b.data))).toBe(0);
  });

  it('very large areas fall back to the smooth fill (documented limit)', () => {
    const big = rectMask(W, H, { x0: 0.05, y0: 0.05, x1: 0.85, y1: 0.7 });
    const { info } = removeAreaWithInfo(img, { alpha: big });
    expect(info.method).toBe('diffusion');
  });

  it('a 5% area at 2048x1536 is filled by PatchMatch (its time: npm run bench -- --only engine)', () => {
    const big = resampleLanczos3(makeInteriorScene(1024, 768, { painting: false }).image, 2048, 1536);
    const mask = scaleMaskNearest(rectMask(1024, 768, { x0: 0.22, y0: 0.6, x1: 0.47, y1: 0.8 }), 1024, 768, 2048, 1536);
    const { info } = removeAreaWithInfo(big, { alpha: mask });
    expect(info.method).toBe('patchmatch');
  });
});
