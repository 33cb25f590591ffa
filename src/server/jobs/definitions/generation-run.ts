import { z } from 'zod';
import { runGenerationJob } from '../generation-job';
import { defineJob, JOB_EVENTS } from './job';

/**
 * Run one admitted generation: start (conditional), generate + store, finish or fail with a
 * refund. At most PER_ORGANIZATION_CONCURRENCY of an organization's generations run at once
 * on Inngest (pg-boss: weighted round-robin priorities, src/server/jobs/schedule.ts); a
 * generation canceled before it starts cancels its waiting run.
 */
export const PER_ORGANIZATION_CONCURRENCY = 4;

export const generationRun = defineJob({
  id: 'generation-run',
  version: 2,
  name: 'Run a generation',
  // organizationId keys Inngest's concurrency (always sent there); pg-boss jobs carry the id only.
  schema: z.object({ generationId: z.string().min(1), organizationId: z.string().min(1).optional() }),
  trigger: { event: JOB_EVENTS.generationAdmitted },
  concurrency: { key: 'organizationId', limit: PER_ORGANIZATION_CONCURRENCY },
  cancelOn: { event: JOB_EVENTS.generationCanceled, match: 'generationId' },
  retries: 2,
  handler: (payload, io) => runGenerationJob(payload.generationId, io),
});
