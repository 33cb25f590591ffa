import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from './run';

/**
 * An engine adapter for tests, demos and benchmarks: every run takes at least `floorMs` (heavy
 * runs `heavyFloorMs` when it is above 0), as a model's timing would, so a test can queue work
 * behind a busy worker slot and cancel it before it starts. The engine chooses it only when
 * BUILTIN_ENGINE_MIN_DURATION_MS or BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS is set (engine.ts);
 * the job code never waits for it.
 */
export function withMinimumDuration(engine: Engine, floors: { floorMs: number; heavyFloorMs: number }): Engine {
  return async (job) => {
    const started = performance.now();
    const output = await engine(job);
    const floor = floors.heavyFloorMs > 0 && job.costClass === 'heavy' ? floors.heavyFloorMs : floors.floorMs;
    const left = floor - (performance.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    return output;
  };
}

/** How often a held run looks whether its hold is gone. */
export const HOLD_POLL_MS = 100;

/**
 * An engine adapter for the one e2e that needs a generation to wait in the queue (cancel before
 * start): while the file `<holdDir>/<organization id>` exists, that organization's runs wait
 * before the engine starts, keeping their worker slots, so its later generations stay queued
 * until the test deletes the file. Other organizations' runs are not held. The engine chooses it
 * only when BUILTIN_ENGINE_HOLD_DIR is set (engine.ts); without it nothing is ever held.
 */
export function withHolds(engine: Engine, holdDir: string): Engine {
  return async (job) => {
    const hold = path.join(holdDir, path.basename(job.organizationId));
    while (fs.existsSync(hold)) await new Promise((resolve) => setTimeout(resolve, HOLD_POLL_MS));
    return engine(job);
  };
}
