import type { JobDefinition } from '@/server/platform/jobs/job';
import { generationRun } from './generation-run';
import { webhookDelivery } from './webhook-delivery';
import { autoRecharge } from './auto-recharge';
import { spendAlertMail } from './spend-alert-mail';
import { expiringCreditNotices, retention, sweeper } from './maintenance';

/**
 * Every job with its handler, defined once; both providers run these. Loaded by the workers and
 * the Inngest endpoint only (capabilities trigger the jobs declared beside their events). The
 * scheduled jobs share one queue under pg-boss and run in this order on each tick.
 */
export const JOB_DEFINITIONS: readonly JobDefinition[] = [generationRun, webhookDelivery, autoRecharge, spendAlertMail, sweeper, retention, expiringCreditNotices] as unknown as JobDefinition[];

export { generationRun, webhookDelivery, autoRecharge, spendAlertMail, retention, sweeper, expiringCreditNotices };
