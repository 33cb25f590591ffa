import { z } from 'zod';
import { config } from '@/server/platform/config';
import { declareJob, JOB_EVENTS, type JobEvent } from '@/server/platform/jobs/job';

/**
 * A webhook delivery with its retry schedule as sleeps (jobs/definitions/webhook-delivery.ts). No queue: where
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
