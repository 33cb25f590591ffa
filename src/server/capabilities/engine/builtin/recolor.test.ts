// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { recolorArea } from './recolor';
import { makeInteriorScene } from '../../../../../test/helpers/engine-scenes';
import { countChanged, lightnessValues, meanStd } from '../../../../../test/helpers/pixel-stats';
import { deltaE2000, meanLabInMask, parseHex, srgbBytesToLab } from './color';
import { erode } from './masks';
import { FINISHES } from './types';

const scene = makeInteriorScene(640, 480);
const { image } = scene;
const W = image.width, H = image.height;

describe('colour maths', () => {
  it('CIEDE2000 matches Sharma et al. reference pairs', () => {
    expect(deltaE2000({ L: 50, a: 2.6772, b: -79.7751 }, { L: 50, a: 0, b: -82.7485 })).toBeCloseTo(2.0425, 3);
    expect(deltaE2000({ L: 50, a: 2.5, b: 0 }, { L: 73, a: 25, b: -18 })).toBeCloseTo(27.1492, 3);
    expect(deltaE2000({ L: 2.0776, a: 0.0795, b: -1.135 }, { L: 0.9033, a: -0.0636, b: -0.5514 })).toBeCloseTo(0.9082, 3);
  });
});

describe('recolorArea (modify + color)', () => {
  const targets: [keyof typeof scene.regions, string][] = [['wall', '#4F7A8C'], ['sofa', '#C0643F'], ['floor', '#5B3A29']];

  for (const [region, hex] of targets) {
    it(`recolours the ${region} to ${hex}: outside byte-identical, mean within ΔE2000 10 (default, matte)`, () => {
      const alpha = scene.regions[region];
      const core = erode(alpha, W, H, 3); // measure away from the feathered rim
      const target = srgbBytesToLab(...parseHex(hex));
      const before = meanStd(lightnessValues(image, core));
      for (const finish of ['default', 'solid_matte'] as const) {
        const out = recolorArea(image, { alpha }, hex, finish);
        expect(countChanged(image, out, (i) => alpha[i] === 0)).toBe(0);
        const mean = meanLabInMask(out.data, out.channels, core);
        const d00 = deltaE2000(mean, target);
        expect(d00).toBeLessThanOrEqual(10);
        const after = meanStd(lightnessValues(out, core));
        if (finish === 'default') {
          // lighting and texture kept: the spread of L* stays close to the original's
          expect(after.std).toBeGreaterThan(before.std * 0.75);
          expect(after.std).toBeLessThan(before.std * 1.35);
        } else {
          expect(after.std).toBeLessThan(before.std * 0.7);
        }
      }
    });
  }

  it('every finish gives a different result; glossy adds contrast, textures add detail', () => {
    const alpha = scene.regions.wall;
    const outs = FINISHES.map((f) => recolorArea(image, { alpha }, '#8CA5AA', f));
    for (let i = 0; i < outs.length; i++) {
      for (let j = i + 1; j < outs.length; j++) {
        const changed = countChanged(outs[i]!, outs[j]!, (k) => alpha[k] === 255);
        expect(changed, `${FINISHES[i]} vs ${FINISHES[j]}`).toBeGreaterThan(0.2 * alpha.filter((v) => v === 255).length);
      }
    }
    const core = erode(alpha, W, H, 3);
    const std = (k: number): number => meanStd(lightnessValues(outs[k]!, core)).std;
    expect(std(FINISHES.indexOf('solid_glossy'))).toBeGreaterThan(std(FINISHES.indexOf('default')));
    for (const f of ['wood', 'stone', 'metal', 'fabric', 'concrete'] as const) {
      expect(std(FINISHES.indexOf(f)), f).toBeGreaterThan(std(FINISHES.indexOf('solid_matte')));
    }
  });

  it('a mask with nothing painted returns an identical image', () => {
    const out = recolorArea(image, { alpha: new Uint8Array(W * H) }, '#FF0000');
    expect(Buffer.compare(Buffer.from(out.data), Buffer.from(image.data))).toBe(0);
  });
});
