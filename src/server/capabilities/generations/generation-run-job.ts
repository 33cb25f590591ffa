import { z } from 'zod';
import { config } from '@/server/platform/config';
import { runIdFor } from '@/server/platform/jobs/run-id';
import { declareJob, JOB_EVENTS, type JobEvent, type QueueSpec } from '@/server/platform/jobs/job';
import { GENERATION_QUEUES, placeGeneration } from './schedule';

/**
 * The generation's job, declared without its handler: what admission and cancellation trigger
 * and what the providers route (the handler, jobs/definitions/generation-run.ts, is loaded only
 * by the workers and the Inngest endpoint), with the queues a queue-based provider keeps its
 * runs in.
 */

/**
 * A running generation's worker beats every half of this; a job without a beat for this long is
 * presumed lost with its worker (kill -9, a lost machine) and retried at the supervisor's next
 * pass (every minute), long before its 15-minute expiry.
 */
const GENERATION_HEARTBEAT_SECONDS = 30;

/** Deterministic job id per generation: enqueuing twice (sweeper, retries) is a no-op. */
export function generationJobId(generationId: string): string {
  return runIdFor(`generation:${generationId}`);
}

/**
 * One queue per cost class (schedule.ts), each worked on its own slots. A generation job that
 * outlives 15 minutes, or stops beating, is presumed lost with its worker and retried; the
 * handler is idempotent (conditional start, deterministic output keys). `notify`: sending a job
 * wakes an idle worker at once instead of at its next poll, half a second later at worst.
 * JOB_SCHEDULING=fifo (the behaviour before cost classes, for comparisons): every generation
 * waits in the heavy queue on WORKER_CONCURRENCY slots; one light and one remote slot drain what
 * was queued before the switch.
 */
function generationQueues(): QueueSpec[] {
  const c = config();
  const fifo = c.JOB_SCHEDULING === 'fifo';
  const slots = { heavy: c.WORKER_CONCURRENCY, light: fifo ? 1 : c.WORKER_LIGHT_CONCURRENCY, remote: fifo ? 1 : c.WORKER_REMOTE_CONCURRENCY };
  const options = { retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60, heartbeatSeconds: GENERATION_HEARTBEAT_SECONDS, deleteAfterSeconds: 7 * 24 * 3600, notify: true };
  return (['heavy', 'light', 'remote'] as const).map((costClass) => ({
    name: GENERATION_QUEUES[costClass],
    options,
    // Each slot is a poller; NOTIFY wakes them when a job is sent, so the backup poll can be slow:
    // 12 pollers at 0.5 s were most of an idle process's CPU (and the database's).
    worker: { slots: slots[costClass], pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5 },
  }));
}

/**
 * Run one admitted generation. At most PER_ORGANIZATION_CONCURRENCY of an organization's
 * generations run at once on Inngest (pg-boss: weighted round-robin priorities, schedule.ts);
 * a generation canceled before it starts cancels its waiting run.
 */
export const PER_ORGANIZATION_CONCURRENCY = 4;

const generationPayload = z.object({ generationId: z.string().min(1), organizationId: z.string().min(1).optional() });

export const generationRunJob = declareJob({
  id: 'generation-run',
  version: 2,
  name: 'Run a generation',
  // organizationId keys Inngest's concurrency.
  schema: generationPayload,
  trigger: { event: JOB_EVENTS.generationAdmitted },
  concurrency: { key: 'organizationId', limit: PER_ORGANIZATION_CONCURRENCY },
  cancelOn: { event: JOB_EVENTS.generationCanceled, match: 'generationId' },
  retries: 2,
  queue: {
    queues: generationQueues,
    async place({ generationId }) {
      const placement = await placeGeneration(generationId);
      return placement && { queue: GENERATION_QUEUES[placement.costClass], priority: placement.priority };
    },
    runId: ({ generationId }) => generationJobId(generationId),
  },
});

/** Admission: the event id makes a re-send (the sweeper's) one run. */
export function generationAdmitted(generation: { id: string; organizationId: string }): JobEvent {
  return { name: JOB_EVENTS.generationAdmitted, id: `generation-${generation.id}`, data: { generationId: generation.id, organizationId: generation.organizationId } };
}

export function generationCanceled(generation: { id: string; organizationId: string }): JobEvent {
  return { name: JOB_EVENTS.generationCanceled, data: { generationId: generation.id, organizationId: generation.organizationId } };
}
