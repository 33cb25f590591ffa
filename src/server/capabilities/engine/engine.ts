import { config } from '@/server/platform/config';
import { withMinimumDuration, withOrganizationHolds } from './emulated-timing';
import { runEngine, type Engine } from './run';

export type { Engine } from './run';

/**
 * The engine of this process: the built-in CPU engine and the generative backends (run.ts),
 * held to a minimum duration per run when the timing emulation is configured, and per
 * organization when a folder of holds is (tests).
 */
export function engine(): Engine {
  const c = config();
  const floors = { floorMs: c.BUILTIN_ENGINE_MIN_DURATION_MS, heavyFloorMs: c.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS };
  const timed = floors.floorMs > 0 || floors.heavyFloorMs > 0 ? withMinimumDuration(runEngine, floors) : runEngine;
  return c.BUILTIN_ENGINE_HOLDS_DIR ? withOrganizationHolds(timed, c.BUILTIN_ENGINE_HOLDS_DIR) : timed;
}
