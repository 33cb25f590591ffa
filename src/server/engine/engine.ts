import { config } from '@/server/platform/config';
import { withMinimumDuration } from './emulated-timing';
import { runEngine, type Engine } from './run';

export type { Engine } from './run';

/**
 * The engine of this process: the built-in CPU engine and the generative backends (run.ts),
 * held to a minimum duration per run when the timing emulation is configured.
 */
export function engine(): Engine {
  const c = config();
  const floors = { floorMs: c.BUILTIN_ENGINE_MIN_DURATION_MS, heavyFloorMs: c.BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS };
  return floors.floorMs > 0 || floors.heavyFloorMs > 0 ? withMinimumDuration(runEngine, floors) : runEngine;
}
