import { z } from 'zod';
import { runAutoRechargeJob } from '@/server/billing/auto-recharge';
import { defineJob, JOB_EVENTS } from './job';

/** Pay one requested auto-recharge (check, pay with the attempt id as idempotency key, record). */
export const autoRecharge = defineJob({
  id: 'auto-recharge',
  version: 1,
  name: 'Auto-recharge payment',
  schema: z.object({ attemptId: z.string().min(1) }),
  trigger: { event: JOB_EVENTS.autoRechargeRequested },
  retries: 5,
  handler: (payload, io) => runAutoRechargeJob(payload.attemptId, io),
});
