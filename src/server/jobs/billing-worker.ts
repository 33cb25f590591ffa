import type { PgBoss } from 'pg-boss';
import { clock } from '@/server/platform/clock';
import { AUTO_RECHARGE_QUEUE, runAutoRechargeJob, sweepAutoRecharges } from '@/server/billing/auto-recharge';
import { loggingStep } from './steps';

const SWEEP_QUEUE = 'billing.auto-recharge-sweep';

/**
 * Billing jobs: auto-recharge payments (retried with backoff while the provider's answer is
 * unknown: about 30 minutes in all) and a sweep every minute for attempts whose job was lost.
 * Credit-lot expiry runs with retention (src/server/generations/retention.ts).
 */
export async function startBillingWorkers(boss: PgBoss): Promise<void> {
  for (const [name, options] of [
    [AUTO_RECHARGE_QUEUE, { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 5 * 60, deleteAfterSeconds: 7 * 24 * 3600 }],
    [SWEEP_QUEUE, { retryLimit: 0, expireInSeconds: 5 * 60, deleteAfterSeconds: 24 * 3600 }],
  ] as const) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name, options).catch(() => undefined);
  }
  await boss.work<{ attemptId: string }>(AUTO_RECHARGE_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    if (!job) return;
    await runAutoRechargeJob(job.data.attemptId, loggingStep('auto-recharge', job.data.attemptId));
  });
  await boss.work(SWEEP_QUEUE, async () => {
    await sweepAutoRecharges(clock.now());
  });
  await boss.schedule(SWEEP_QUEUE, '* * * * *');
}
