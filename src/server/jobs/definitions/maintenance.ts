import { z } from 'zod';
import { clock } from '@/server/platform/clock';
import { runRetention } from '@/server/generations/retention';
import { deleteClosedWindows } from '@/server/limits/shared-counter';
import { pruneDeliveryLog } from '@/server/webhooks/prune-delivery-log';
import { noticeExpiringLots, expireLots } from '@/server/billing/lots';
import { sweepAutoRecharges } from '@/server/billing/auto-recharge';
import { sweepGenerations } from '../sweeper';
import { pruneJobSteps } from '../providers/pgboss-io';
import { defineJob } from './job';

/** The scheduled jobs, every minute each (cron functions on Inngest, pg-boss schedules otherwise). */
const noPayload = z.object({}).passthrough();
const EVERY_MINUTE = '* * * * *';

/** Retention (images, prompts, old generations, idempotency keys, logs, uploads) and housekeeping. */
export const retention = defineJob({
  id: 'retention',
  version: 1,
  name: 'Retention',
  schema: noPayload,
  trigger: { cron: EVERY_MINUTE },
  retries: 1,
  handler: async (_payload, io) => {
    const now = clock.now();
    return {
      ...(await io.run('retention', () => runRetention(now, { creditLots: false }))),
      rate_limit_windows_deleted: await io.run('rate-limit-windows', () => deleteClosedWindows()),
      ...(await io.run('delivery-log', () => pruneDeliveryLog(now))),
      job_steps_deleted: await io.run('job-steps', () => pruneJobSteps(now)),
    };
  },
});

/** Nothing stays in progress forever: lost enqueues re-sent, stale generations failed with a refund, lost recharges re-sent. */
export const sweeper = defineJob({
  id: 'sweeper',
  version: 1,
  name: 'Sweep generations and auto-recharges',
  schema: noPayload,
  trigger: { cron: EVERY_MINUTE },
  retries: 1,
  handler: async (_payload, io) => ({
    generations: await io.run('generations', () => sweepGenerations()),
    auto_recharges: await io.run('auto-recharges', () => sweepAutoRecharges(clock.now())),
  }),
});

/** Credit lots: balance.expiring notices first, then the expiry of unspent parts. */
export const expiringCreditNotices = defineJob({
  id: 'expiring-credit-notices',
  version: 1,
  name: 'Expiring-credit notices and credit expiry',
  schema: noPayload,
  trigger: { cron: EVERY_MINUTE },
  retries: 1,
  handler: async (_payload, io) => {
    const now = clock.now();
    return {
      expiring_notices: await io.run('notices', () => noticeExpiringLots(now)),
      credit_lots_expired: await io.run('expire', () => expireLots(now)),
    };
  },
});
