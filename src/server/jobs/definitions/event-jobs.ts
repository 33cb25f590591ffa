import { z } from 'zod';
import { config } from '@/server/platform/config';
import { runIdFor } from '../run-id';
import { GENERATION_QUEUES, placeGeneration } from '../schedule';
import { declareJob, JOB_EVENTS, type JobEvent, type QueueSpec } from './job';

/**
 * The jobs an event starts, declared without their handlers: what capabilities trigger and
 * what the providers route (the handlers, which reach back into the capabilities, are bound in
 * the sibling files and loaded only by the workers and the Inngest endpoint). Each declares
 * where a queue-based provider keeps its runs.
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

export const AUTO_RECHARGE_QUEUE = 'billing.auto-recharge';

/**
 * Pay one requested auto-recharge. Retried with backoff while the provider's answer is unknown
 * (about 30 minutes in all); the payment step is memoized, so a retry after a known answer
 * only records it.
 */
export const autoRechargeJob = declareJob({
  id: 'auto-recharge',
  version: 1,
  name: 'Auto-recharge payment',
  schema: z.object({ attemptId: z.string().min(1) }),
  trigger: { event: JOB_EVENTS.autoRechargeRequested },
  retries: 5,
  queue: {
    queues: () => [
      {
        name: AUTO_RECHARGE_QUEUE,
        options: { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 5 * 60, deleteAfterSeconds: 7 * 24 * 3600 },
        worker: { slots: 1, pollingIntervalSeconds: 0.5 },
      },
    ],
    runId: ({ attemptId }) => runIdFor(`auto-recharge:${attemptId}`),
  },
});

export function autoRechargeRequested(attemptId: string): JobEvent {
  return { name: JOB_EVENTS.autoRechargeRequested, id: `auto-recharge-${attemptId}`, data: { attemptId } };
}

export const SPEND_ALERT_QUEUE = 'billing.spend-alert';

/** Mail one spend alert to the organization's owners and admins (each address once: memoized steps). */
export const spendAlertMailJob = declareJob({
  id: 'spend-alert-mail',
  version: 1,
  name: 'Spend alert mail',
  schema: z.object({ alertId: z.string().min(1) }),
  trigger: { event: JOB_EVENTS.spendAlertRecorded },
  retries: 5,
  queue: {
    queues: () => [
      {
        name: SPEND_ALERT_QUEUE,
        options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 5 * 60, deleteAfterSeconds: 7 * 24 * 3600 },
        worker: { slots: 1, pollingIntervalSeconds: 2 },
      },
    ],
    runId: ({ alertId }) => runIdFor(`spend-alert:${alertId}`),
  },
});

export function spendAlertRecorded(alertId: string): JobEvent {
  return { name: JOB_EVENTS.spendAlertRecorded, id: `spend-alert-${alertId}`, data: { alertId } };
}

/**
 * A webhook delivery with its retry schedule as sleeps (webhook-delivery.ts). No queue: where
 * the provider has queues, deliveries are rows claimed in batches by their own worker (the fast
 * path, docs/jobs.md).
 */
export const webhookDeliveryJob = declareJob({
  id: 'webhook-delivery',
  version: 1,
  name: 'Deliver a webhook event',
  schema: z.object({ deliveryId: z.string().min(1), endpointId: z.string().min(1) }),
  trigger: { event: JOB_EVENTS.webhookDeliveryCreated },
  concurrency: { key: 'endpointId', limit: () => config().WEBHOOK_ENDPOINT_CONCURRENCY },
  retries: 3,
});

/** Event id = delivery id, so a re-send after the dispatcher's lease is one run. */
export function webhookDeliveryCreated(delivery: { id: string; endpointId: string }): JobEvent {
  return { name: JOB_EVENTS.webhookDeliveryCreated, id: delivery.id, data: { deliveryId: delivery.id, endpointId: delivery.endpointId } };
}

/** Every event-started job, for the providers' routing. */
export const EVENT_JOBS = [generationRunJob, autoRechargeJob, spendAlertMailJob, webhookDeliveryJob] as const;
