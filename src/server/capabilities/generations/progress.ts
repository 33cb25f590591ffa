import { db } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { ProgressSink, ProgressStage } from '@/server/capabilities/engine/progress';

/**
 * Stores an in-progress generation's progress for readers (the API's `progress`, the console's
 * stage) without a write per engine report: at most one UPDATE per generation every `everyMs`,
 * a new stage at once, a change under one percent never. One write in flight at a time, and
 * only while the generation is in progress (a late write cannot touch an ended generation).
 */
export const PROGRESS_WRITE_EVERY_MS = 1_000;
const MIN_CHANGE = 0.01;

export interface Value {
  stage: ProgressStage;
  fraction: number | null;
}

export interface ProgressWriter {
  report: ProgressSink;
  /** No more writes; resolves when the one in flight (if any) has landed. */
  close(): Promise<void>;
}

function differs(a: Value | null, b: Value): 'stage' | 'value' | null {
  if (!a || a.stage !== b.stage) return 'stage';
  if ((a.fraction === null) !== (b.fraction === null)) return 'value';
  if (a.fraction !== null && b.fraction !== null && Math.abs(a.fraction - b.fraction) >= MIN_CHANGE) return 'value';
  return null;
}

/** The one UPDATE: only while in progress, so a late write never touches an ended generation. */
async function storeProgress(generationId: string, value: Value): Promise<void> {
  await db().generation.updateMany({ where: { id: generationId, status: 'in_progress' }, data: { progress: value.fraction, progressStage: value.stage } });
}

export function progressWriter(generationId: string, options: { everyMs?: number; store?: (value: Value) => Promise<void> } = {}): ProgressWriter {
  const everyMs = options.everyMs ?? PROGRESS_WRITE_EVERY_MS;
  const store = options.store ?? ((value: Value) => storeProgress(generationId, value));
  let latest: Value | null = null;
  let written: Value | null = null;
  let writtenAt = 0;
  let writing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const write = () => {
    timer = null;
    if (closed || writing || !latest || !differs(written, latest)) return;
    const value = latest;
    writtenAt = Date.now();
    writing = store(value)
      .then(() => {
        written = value;
      })
      .catch((error: unknown) => log.warn('could not store a generation\'s progress', { generationId, error: String(error) }))
      .finally(() => {
        writing = null;
        schedule();
      });
  };

  const schedule = () => {
    if (closed || writing || timer || !latest) return;
    const change = differs(written, latest);
    if (!change) return;
    const wait = change === 'stage' ? 0 : Math.max(0, writtenAt + everyMs - Date.now());
    if (wait === 0) write();
    else timer = setTimeout(write, wait);
  };

  return {
    report(stage, fraction) {
      latest = { stage, fraction: fraction === null ? null : Math.min(1, Math.max(0, fraction)) };
      schedule();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await writing;
    },
  };
}
