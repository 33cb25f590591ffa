// @node-lines same: pixel arithmetic on typed arrays; the engine's worker threads and encoders run under both lines in src/server/capabilities/engine/builtin/offthread.test.ts, encode.test.ts and upscale.test.ts
import { describe, expect, it } from 'vitest';
import { deterministicPreview } from './preview';
import { makeInteriorScene } from '../../../../../test/helpers/engine-scenes';
import { resampleLanczos3 } from './resample';

const img = makeInteriorScene(640, 480).image;

describe('deterministicPreview', () => {
  it('is byte-identical for the same input and seed, at the target size', () => {
    // Twice the input's size: the code takes no other path at 2k
    const a = deterministicPreview(img, { width: 1280, height: 960 }, 'gen_123');
    const b = deterministicPreview(img, { width: 1280, height: 960 }, 'gen_123');
    expect(a.width).toBe(1280);
    expect(a.height).toBe(960);
    expect(a.channels).toBe(3);
    expect(Buffer.compare(Buffer.from(a.data), Buffer.from(b.data))).toBe(0);
  });

  it('is clearly visible (differs from a plain resize) and depends on the seed', () => {
    const plain = resampleLanczos3(img, 640, 480);
    const a = deterministicPreview(img, { width: 640, height: 480 }, 'seed-a');
    const b = deterministicPreview(img, { width: 640, height: 480 }, 'seed-b');
    let dPlain = 0, dSeed = 0;
    for (let i = 0; i < a.data.length; i++) {
      dPlain += Math.abs(a.data[i]! - plain.data[i]!);
      dSeed += Math.abs(a.data[i]! - b.data[i]!);
    }
    dPlain /= a.data.length;
    dSeed /= a.data.length;
    expect(dPlain).toBeGreaterThan(4);
    expect(dPlain).toBeLessThan(40); // tasteful, the picture stays readable
    expect(dSeed).toBeGreaterThan(1);
  });
});
