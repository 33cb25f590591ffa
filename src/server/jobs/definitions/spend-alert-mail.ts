import { mailSpendAlert } from '@/server/capabilities/billing/spend-alerts';
import { spendAlertMailJob } from '@/server/capabilities/billing/billing-jobs';
import { defineJob } from '@/server/platform/jobs/job';

/** Mail one recorded spend alert to the organization's owners and admins. */
export const spendAlertMail = defineJob({
  ...spendAlertMailJob,
  handler: (payload, io) => mailSpendAlert(payload.alertId, io),
});
