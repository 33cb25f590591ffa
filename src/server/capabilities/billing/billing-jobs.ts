import { z } from 'zod';
import { runIdFor } from '@/server/platform/jobs/run-id';
import { declareJob, JOB_EVENTS, type JobEvent } from '@/server/platform/jobs/job';

/**
 * Billing's jobs, declared without their handlers (jobs/definitions/auto-recharge.ts and
 * spend-alert-mail.ts bind them): what the ledger triggers and what the providers route.
 */

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
