import type { JobDefinition } from './job';
import { generationRun } from './generation-run';
import { webhookDelivery } from './webhook-delivery';
import { autoRecharge } from './auto-recharge';
import { expiringCreditNotices, retention, sweeper } from './maintenance';

/** Every job, defined once (issue 14); both providers run these. */
export const JOB_DEFINITIONS: readonly JobDefinition[] = [generationRun, webhookDelivery, autoRecharge, retention, sweeper, expiringCreditNotices] as unknown as JobDefinition[];

export { generationRun, webhookDelivery, autoRecharge, retention, sweeper, expiringCreditNotices };
