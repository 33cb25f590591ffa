'use client';
import * as React from 'react';
import { Progress } from '@/components/ui/progress';

/** What a person reads for each stage of an in-progress generation. */
const STAGE_LABEL = {
  queued: 'Waiting in the queue',
  preparing: 'Preparing the input',
  generating: 'Generating',
  finishing: 'Finishing the image',
} as const;

export type GenerationStage = keyof typeof STAGE_LABEL;

function elapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Seconds since `since` (Unix seconds), ticking every second while mounted. */
function useElapsed(since: number): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now / 1000 - since;
}

/**
 * An in-progress generation as it moves: a bar of its `progress` (indeterminate while the engine
 * cannot tell), the percentage, the stage when known, and the time since it was accepted.
 */
export function GenerationProgress({ id, progress, stage, createdAt, compact = false }: { id: string; progress: number | null; stage?: GenerationStage | null; createdAt: number; compact?: boolean }) {
  const seconds = useElapsed(createdAt);
  const percent = progress === null ? null : Math.round(progress * 100);
  const label = stage ? STAGE_LABEL[stage] : 'In progress';
  const text = `${label}${percent === null ? '' : `, ${percent} %`}`;
  return (
    <div className={compact ? 'grid min-w-28 gap-1' : 'grid gap-1.5'} data-testid="generation-progress">
      <Progress value={percent} aria-label={`Progress of ${id}`} aria-valuetext={percent === null ? `${label}, amount unknown` : text} />
      <p className={compact ? 'text-xs text-muted-foreground tabular-nums' : 'flex flex-wrap justify-between gap-2 text-sm tabular-nums'}>
        <span data-testid="progress-text">{text}</span>
        {compact ? null : <span data-testid="progress-elapsed">{elapsed(seconds)} elapsed</span>}
      </p>
    </div>
  );
}
