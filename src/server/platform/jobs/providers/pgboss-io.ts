import { db } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { JobDefinition, JobEvent, JobIo } from '../job';

/** Stored step results are kept this long (a run's retries happen within minutes). */
export const JOB_STEP_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** The key of one run's steps: definition, version and the run's own id (the pg-boss job id). */
export function runKey(definition: Pick<JobDefinition, 'id' | 'version'>, runId: string): string {
  return `${definition.id}@${definition.version}:${runId}`;
}

/**
 * The pg-boss provider's step API: each finished step's result is stored (JobStep) under the
 * run's key, so when pg-boss retries the job (a crash, an expiry, a thrown error) the handler
 * runs again from the top and every finished step answers its stored result instead of running.
 * A sleep waits in process (pg-boss jobs here sleep seconds at most: the emulation floor);
 * an event is handed to `emit` (the provider enqueues the definitions it triggers). `context`
 * (the job's id and payload: ids only) goes into each step's log line, so an operator can follow
 * one generation's steps across workers.
 */
export function memoizedIo(key: string, emit: (event: JobEvent) => Promise<void>, context: Record<string, unknown> = {}): JobIo {
  return {
    async run<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const stored = await db().jobStep.findUnique({ where: { runKey_name: { runKey: key, name } }, select: { output: true } });
      if (stored) return stored.output as T;
      const started = performance.now();
      const output = await fn();
      // A step that answers undefined is stored as JSON null (Inngest does the same).
      const json = output === undefined ? null : (JSON.parse(JSON.stringify(output)) as object);
      await db().jobStep.createMany({ data: [{ runKey: key, name, output: json ?? undefined }], skipDuplicates: true });
      log.debug('job step', { ...context, run: key, step: name, ms: Math.round(performance.now() - started) });
      return json as T;
    },
    async sleep(name: string, duration: number | Date): Promise<void> {
      const ms = typeof duration === 'number' ? duration : duration.getTime() - Date.now();
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      log.debug('job sleep', { ...context, run: key, step: name, ms });
    },
    async sendEvent(_name: string, event: JobEvent | JobEvent[]): Promise<void> {
      for (const e of Array.isArray(event) ? event : [event]) await emit(e);
    },
  };
}

/** Retention: stored steps of runs older than a week. */
export async function pruneJobSteps(now: Date): Promise<number> {
  return (await db().jobStep.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - JOB_STEP_RETENTION_MS) } } })).count;
}
