import type { Job } from 'pg-boss';
import type { JobDefinition, JobEvent } from '../definitions/job';
import { JOB_EVENTS } from '../definitions/job';
import { enqueueGeneration } from '../queue';
import { enqueueAutoRecharge } from '@/server/billing/auto-recharge';
import { memoizedIo, runKey } from './pgboss-io';

/**
 * Events emitted by a pg-boss run (`io.sendEvent`) start the definitions they trigger, as the
 * application's own admissions do; events no pg-boss job listens to (generation.ended: an
 * Inngest-side hook) are dropped.
 */
async function emit(event: JobEvent): Promise<void> {
  const data = event.data as Record<string, string>;
  if (event.name === JOB_EVENTS.generationAdmitted && data.generationId) await enqueueGeneration(data.generationId);
  else if (event.name === JOB_EVENTS.autoRechargeRequested && data.attemptId) await enqueueAutoRecharge(data.attemptId);
}

/**
 * Run one pg-boss job through its definition: payload checked with the definition's schema,
 * steps memoized under the job's id (a retry of this job skips what finished).
 */
export async function runPgBossJob<R>(definition: JobDefinition<never, R> | JobDefinition, job: Pick<Job<unknown>, 'id' | 'data'>): Promise<R> {
  const d = definition as JobDefinition;
  const payload = d.schema.parse(job.data ?? {});
  const context = { job: d.id, ...(typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {}) };
  return (await d.handler(payload, memoizedIo(runKey(d, job.id), emit, context))) as R;
}
