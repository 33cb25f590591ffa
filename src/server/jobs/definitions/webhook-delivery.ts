import { attemptDelivery, prepareDeliveries, type AttemptResult } from '@/server/capabilities/webhooks/deliver-webhook';
import { startWebhookDispatcher, startWebhookWorker } from '@/server/capabilities/webhooks/webhook-worker';
import { loggingStep } from '@/server/platform/jobs/steps';
import { webhookDeliveryJob } from '@/server/capabilities/webhooks/delivery-job';
import { defineJob } from '@/server/platform/jobs/job';

/** One attempt of one delivery (loads it, signs, sends, records); `skipped` when it is gone or no longer pending. */
export async function attemptDeliveryById(deliveryId: string): Promise<AttemptResult> {
  const [prepared] = await prepareDeliveries([deliveryId]);
  if (!prepared) return { deliveryId, number: 0, succeeded: false, statusCode: null, error: null, status: 'skipped', nextAttemptAt: null, disabled: null };
  return attemptDelivery(prepared, loggingStep('webhook', deliveryId));
}

/**
 * A webhook delivery with its retry schedule as sleeps: attempt, and while the delivery stays
 * pending, sleep until the next attempt the schedule planned (retry-schedule.ts: 30 s, 1 min,
 * 2 min … 12 h, ±10 %, Retry-After honoured, nothing after 72 h), then attempt again.
 *
 * On Inngest this handler is the function (each attempt a step, each wait a `step.sleepUntil`);
 * `ownTable.relay` hands each new delivery to Inngest as an event.
 * On pg-boss the same schedule runs on the fast path instead of a pg-boss job per delivery
 * (docs/jobs.md): the table-claim worker (`ownTable.claimLoop`, webhook-worker.ts) makes the same
 * attempts with the same attemptDelivery, and a delivery's "sleep" is its row's nextAttemptAt,
 * written by the attempt that planned it.
 */
export const webhookDelivery = defineJob({
  ...webhookDeliveryJob,
  ownTable: { claimLoop: () => startWebhookWorker(), relay: () => startWebhookDispatcher() },
  handler: async (payload, io) => {
    for (let n = 1; ; n += 1) {
      const result = await io.run(`attempt-${n}`, () => attemptDeliveryById(payload.deliveryId));
      if (result.status !== 'pending' || result.nextAttemptAt === null) return result;
      await io.sleep(`retry-${n}`, new Date(result.nextAttemptAt));
    }
  },
});
