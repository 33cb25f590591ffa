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

/** How often a held run reads its hold again. */
const HOLD_POLL_MS = 25;

/** The hold of a file in milliseconds; 0 when there is none. */
async function holdOf(file: string): Promise<number> {
  const ms = Number(await fs.readFile(file, 'utf8').catch(() => '0'));
  return ms > 0 ? ms : 0;
}

/**
 * An engine adapter for tests that need generations to stay in progress (cancel before a start,
 * a queue behind busy slots): a file `<dir>/<organization id>` holding a number of milliseconds
 * holds each run of that organization, after its engine work, until it has lasted that long. The
 * file is read again while a run is held, so a test lifts the hold by removing the file or
 * shortens it by writing a smaller number. Every other organization runs at full speed, so only
 * the tests that need slowness pay for it (BUILTIN_ENGINE_HOLDS_DIR; engine.ts).
 */
export function withOrganizationHolds(engine: Engine, dir: string): Engine {
  return async (job) => {
    const started = performance.now();
    const output = await engine(job);
    const file = path.join(dir, path.basename(job.organizationId));
    for (let hold = await holdOf(file); performance.now() - started < hold; hold = await holdOf(file)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(HOLD_POLL_MS, hold - (performance.now() - started))));
    }
    return output;
  };
}
