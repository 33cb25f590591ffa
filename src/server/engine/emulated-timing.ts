import fs from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from './run';

/**
 * An engine adapter for tests, demos and benchmarks: every run takes at least `floorMs` (heavy
 * runs `heavyFloorMs` when it is above 0), as a model's timing would. The engine chooses it only
 * when BUILTIN_ENGINE_MIN_DURATION_MS or BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS is set (engine.ts);
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

/** How often a held run looks whether its hold was lifted. */
const HOLD_POLL_MS = 25;

/**
 * An engine adapter for tests that need a generation to stay in progress (cancel before it
 * starts, a queue behind busy slots): a file `<dir>/<organization id>` holding a number of
 * milliseconds holds each run of that organization for that long after its engine work, or until
 * the file is removed, whichever comes first. Every other organization runs at full speed, so
 * only the tests that need slowness pay for it (BUILTIN_ENGINE_HOLDS_DIR; engine.ts).
 */
export function withOrganizationHolds(engine: Engine, dir: string): Engine {
  return async (job) => {
    const output = await engine(job);
    const file = path.join(dir, path.basename(job.organizationId));
    const holdMs = Number(await fs.readFile(file, 'utf8').catch(() => '0'));
    if (!(holdMs > 0)) return output;
    const until = performance.now() + holdMs;
    while (performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(HOLD_POLL_MS, until - performance.now())));
      if (!(await fs.access(file).then(() => true, () => false))) break;
    }
    return output;
  };
}
