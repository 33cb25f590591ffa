import { runAutoRechargeJob } from '@/server/capabilities/billing/auto-recharge';
import { autoRechargeJob } from '@/server/capabilities/billing/billing-jobs';
import { defineJob } from '@/server/platform/jobs/job';

/** Pay one requested auto-recharge (check, pay with the attempt id as idempotency key, record). */
export const autoRecharge = defineJob({
  ...autoRechargeJob,
  handler: (payload, io) => runAutoRechargeJob(payload.attemptId, io),
});
