import { config } from '@/server/platform/config';
import { withHolds, withMinimumDuration } from './emulated-timing';
import { runEngine, type Engine } from './run';

export type { Engine } from './run';

/**
 * The engine of this process: the built-in CPU engine and the generative backends (run.ts),
 * held to a minimum duration per run when the timing emulation is configured, and held while a
 * test says so when BUILTIN_ENGINE_HOLD_DIR is set (tests only).
 */
export function engine(): Engine {
  const c = config();
  const floors = { floorMs: c.BUILTIN_ENGINE_MIN_DURATION_MS, heavyFloorMs: c.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS };
  const timed = floors.floorMs > 0 || floors.heavyFloorMs > 0 ? withMinimumDuration(runEngine, floors) : runEngine;
  return c.BUILTIN_ENGINE_HOLD_DIR ? withHolds(timed, c.BUILTIN_ENGINE_HOLD_DIR) : timed;
}
