// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { recolorArea } from './recolor';
import { applyMaterial } from './material';
import { removeArea } from './remove';
import { addElement } from './add';
import { deterministicPreview } from './preview';
import { upscaleLanczos3 } from './upscale-lanczos';
import { makeElement, makeSwatch } from '../../../../../test/helpers/engine-scenes';
import { FINISHES, type RawImage } from './types';

function noise(w: number, h: number, channels: 3 | 4 = 3): RawImage {
  const data = new Uint8Array(w * h * channels);
  for (let i = 0; i < data.length; i++) data[i] = (i * 97 + (i >> 3) * 31) & 255;
  return { data, width: w, height: h, channels };
}

describe('edge cases', () => {
  for (const [w, h] of [[1, 1], [3, 2], [9, 7], [40, 3]] as const) {
    it(`${w}x${h}: every operation returns a same-size image`, () => {
      const img = noise(w, h);
      const all = new Uint8Array(w * h).fill(255);
      for (const f of FINISHES) expect(recolorArea(img, { alpha: all }, '#336699', f).data.length).toBe(w * h * 3);
      expect(applyMaterial(img, { alpha: all }, makeSwatch('oak', 16)).width).toBe(w);
      expect(removeArea(img, { alpha: all }).width).toBe(w);
      const half = new Uint8Array(w * h);
      half[0] = 255;
      expect(removeArea(img, { alpha: half }).height).toBe(h);
      expect(addElement(img, { alpha: all }, makeElement('lamp', 8, 20, 'alpha')).width).toBe(w);
      expect(deterministicPreview(img, { width: 5, height: 3 }, 's').data.length).toBe(45);
      expect(upscaleLanczos3(img, 4).width).toBe(4 * w);
    });
  }

  it('RGBA images keep their alpha channel untouched outside and inside', () => {
    const img = noise(32, 24, 4);
    const alpha = new Uint8Array(32 * 24);
    for (let i = 100; i < 400; i++) alpha[i] = 255;
    const out = recolorArea(img, { alpha }, '#AA5500');
    for (let i = 0; i < 32 * 24; i++) expect(out.data[i * 4 + 3]).toBe(img.data[i * 4 + 3]);
    expect(removeArea(img, { alpha }).channels).toBe(4);
  });

  it('rejects malformed input', () => {
    const img = noise(8, 8);
    expect(() => recolorArea(img, { alpha: new Uint8Array(10) }, '#000000')).toThrow(/mask/);
    expect(() => recolorArea(img, { alpha: new Uint8Array(64) }, 'blue')).toThrow(/#RRGGBB/);
    expect(() => upscaleLanczos3(img, 3 as 2)).toThrow(/scale/);
    expect(() => recolorArea({ ...img, width: 9 }, { alpha: new Uint8Array(72) }, '#000000')).toThrow(/data length/);
  });
});
