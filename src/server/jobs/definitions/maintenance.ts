import { z } from 'zod';
import { clock } from '@/server/platform/clock';
import { runRetention } from '@/server/jobs/retention';
import { deleteClosedWindows } from '@/server/capabilities/limits/shared-counter';
import { pruneDeliveryLog } from '@/server/capabilities/webhooks/prune-delivery-log';
import { noticeExpiringLots, expireLots } from '@/server/capabilities/billing/expire-lots';
import { sweepAutoRecharges } from '@/server/capabilities/billing/auto-recharge';
import { sweepSpendAlerts } from '@/server/capabilities/billing/spend-alerts';
import { reconcileCreditPurchases } from '@/server/capabilities/billing/credit-purchases';
import { sweepGenerations } from '../sweeper';
import { pruneJobSteps } from '@/server/platform/jobs/providers/pgboss-io';
import { defineJob, type JobIo } from '@/server/platform/jobs/job';

const noPayload = z.object({}).passthrough();
const EVERY_MINUTE = '* * * * *';
/** The queue the scheduled jobs share under pg-boss (one job per tick runs them in turn). */
const MAINTENANCE_QUEUE = 'maintenance.run';

const maintenanceQueue = {
  queues: () => [{ name: MAINTENANCE_QUEUE, options: { retryLimit: 1, expireInSeconds: 10 * 60, deleteAfterSeconds: 24 * 3600, notify: false }, worker: { slots: 1 } }],
};

/**
 * A scheduled job (cron functions on Inngest, pg-boss schedules otherwise): every minute, no
 * payload, one retry. Its steps get the run's `now`, read in a memoized step, so a retried run
 * works at the same instant as its first attempt (its unfinished steps do not pick a later one).
 * Version 2: the `now` step came in.
 */
export function scheduledJob<R>({ id, name, steps }: { id: string; name: string; steps: (now: Date, io: JobIo) => Promise<R> }) {
  return defineJob({
    id,
    version: 2,
    name,
    schema: noPayload,
    trigger: { cron: EVERY_MINUTE },
    retries: 1,
    queue: maintenanceQueue,
    handler: async (_payload, io) => steps(new Date(await io.run('now', async () => clock.nowMs())), io),
  });
}

/** Retention (images, prompts, old generations, idempotency keys, logs, uploads) and housekeeping. */
export const retention = scheduledJob({
  id: 'retention',
  name: 'Retention',
  steps: async (now, io) => ({
    ...(await io.run('retention', () => runRetention(now, { creditLots: false }))),
    rate_limit_windows_deleted: await io.run('rate-limit-windows', () => deleteClosedWindows()),
    ...(await io.run('delivery-log', () => pruneDeliveryLog(now))),
    job_steps_deleted: await io.run('job-steps', () => pruneJobSteps(now)),
  }),
});

/** Nothing stays in progress forever: lost enqueues re-sent, stale generations failed with a refund, lost recharges and spend alert mails re-sent, unconfirmed credit purchases reconciled. */
export const sweeper = scheduledJob({
  id: 'sweeper',
  name: 'Sweep generations and auto-recharges',
  steps: async (now, io) => ({
    generations: await io.run('generations', () => sweepGenerations()),
    auto_recharges: await io.run('auto-recharges', () => sweepAutoRecharges(now)),
    spend_alerts: await io.run('spend-alerts', () => sweepSpendAlerts(now)),
    credit_purchases: await io.run('credit-purchases', () => reconcileCreditPurchases(now)),
  }),
});

/** Credit lots: balance.expiring notices first, then the expiry of unspent parts. */
export const expiringCreditNotices = scheduledJob({
  id: 'expiring-credit-notices',
  name: 'Expiring-credit notices and credit expiry',
  steps: async (now, io) => ({
    expiring_notices: await io.run('notices', () => noticeExpiringLots(now)),
    credit_lots_expired: await io.run('expire', () => expireLots(now)),
  }),
});
