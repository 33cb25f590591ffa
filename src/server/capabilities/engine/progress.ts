/**
 * How far a generation is, as the engine reports it while it runs: a stage, and the fraction of
 * the whole generation done (0 to 1), or null when the part running cannot tell (a backend that
 * reports nothing). The generation job stores it (throttled) for the API's `progress` field and
 * the console's stage.
 */
export const PROGRESS_STAGES = ['queued', 'preparing', 'generating', 'finishing'] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];

export type ProgressSink = (stage: ProgressStage, fraction: number | null) => void;

export const ignoreProgress: ProgressSink = () => undefined;

/** The share of the whole each stage covers: its work is mapped into [from, to]. */
export const STAGE_SHARE: Record<Exclude<ProgressStage, 'queued'>, readonly [number, number]> = {
  preparing: [0, 0.05],
  generating: [0.05, 0.9],
  finishing: [0.9, 0.99],
};

/** A stage's own fraction (0..1, or null) as a fraction of the whole generation. */
export function overall(stage: Exclude<ProgressStage, 'queued'>, part: number | null): number | null {
  if (part === null) return null;
  const [from, to] = STAGE_SHARE[stage];
  return from + (to - from) * Math.min(1, Math.max(0, part));
}

/** Reports a stage's own fraction through `sink`, mapped into the whole. */
export function reportStage(sink: ProgressSink, stage: Exclude<ProgressStage, 'queued'>, part: number | null): void {
  sink(stage, overall(stage, part));
}
