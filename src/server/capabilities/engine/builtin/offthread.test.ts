import { afterAll, describe, expect, it } from 'vitest';
import { runOffThread, closeEngineWorkers } from './offthread';
import { recolorArea } from './recolor';
import { removeArea } from './remove';
import { makeInteriorScene } from '../../../../../test/helpers/engine-scenes';

afterAll(() => closeEngineWorkers());

describe('runOffThread', () => {
  // Small: the worker runs the same code at any size (the sofa's fill is still multi-level PatchMatch).
  const scene = makeInteriorScene(256, 192);

  it('gives the same bytes as the direct call and keeps the event loop free', async () => {
    const direct = recolorArea(scene.image, { alpha: scene.regions.sofa }, '#B8563A', 'fabric');
    const viaWorker = await runOffThread({ op: 'recolor', img: scene.image, alpha: scene.regions.sofa, hex: '#B8563A', finish: 'fabric' });
    expect(Buffer.compare(Buffer.from(viaWorker.data), Buffer.from(direct.data))).toBe(0);

    let ticks = 0;
    const iv = setInterval(() => ticks++, 5);
    const removed = await runOffThread({ op: 'remove', img: scene.image, alpha: scene.regions.sofa });
    clearInterval(iv);
    expect(Buffer.compare(Buffer.from(removed.data), Buffer.from(removeArea(scene.image, { alpha: scene.regions.sofa }).data))).toBe(0);
    // The event loop kept turning while the worker computed (a rate would be a timing
    // assertion, which belongs in bench/; the main thread doing the work would give 0).
    expect(ticks).toBeGreaterThan(3);
  });

  it('reports errors from the worker', async () => {
    await expect(runOffThread({ op: 'recolor', img: scene.image, alpha: scene.regions.sofa, hex: 'red', finish: 'default' })).rejects.toThrow(/#RRGGBB/);
  });
});
