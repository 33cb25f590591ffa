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
