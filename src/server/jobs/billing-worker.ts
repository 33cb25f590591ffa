import type { PgBoss } from 'pg-boss';
import { AUTO_RECHARGE_QUEUE } from '@/server/billing/auto-recharge';
import { autoRecharge } from './definitions';
import { runPgBossJob } from './providers/pgboss-run';

/**
 * Billing jobs on pg-boss: auto-recharge payments (retried with backoff while the provider's
 * answer is unknown: about 30 minutes in all; the payment step is memoized, so a retry after a
 * known answer only records it). The sweep for attempts whose job was lost runs with the
 * sweeper job, credit-lot expiry and notices with their own job (definitions/maintenance.ts).
 */
export async function startBillingWorkers(boss: PgBoss): Promise<void> {
  const options = { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 5 * 60, deleteAfterSeconds: 7 * 24 * 3600 };
  if (!(await boss.getQueue(AUTO_RECHARGE_QUEUE))) await boss.createQueue(AUTO_RECHARGE_QUEUE, options).catch(() => undefined);
  // The sweep had its own schedule before the job definitions; it now runs with the sweeper.
  await boss.unschedule('billing.auto-recharge-sweep').catch(() => undefined);
  await boss.work<{ attemptId: string }>(AUTO_RECHARGE_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    if (!job) return;
    await runPgBossJob(autoRecharge, job);
  });
}
