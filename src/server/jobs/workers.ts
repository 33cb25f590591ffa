import { setWorkersRunning } from '@/server/platform/jobs/workers-state';
import { JOB_DEFINITIONS } from './definitions';
import { jobs } from '@/server/platform/jobs/client';

/**
 * The job workers of this process, for every job definition, on the configured provider.
 * pg-boss (default): each queue the definitions declare on its slots (generations per cost
 * class: WORKER_CONCURRENCY heavy, WORKER_LIGHT_CONCURRENCY light and WORKER_REMOTE_CONCURRENCY
 * remote ones at once, see generations/schedule.ts; auto-recharge payments), the scheduled jobs every
 * minute, and the webhook delivery worker. The web process runs them in-process by default;
 * `roomtone worker` runs them alone on other machines. Inngest: Inngest calls /api/inngest for
 * every run; this process only hands new webhook deliveries to it.
 */
export async function startWorkers(): Promise<{ stop(): Promise<void> }> {
  const workers = await jobs().startWorkers(JOB_DEFINITIONS);
  setWorkersRunning(true);
  return {
    async stop() {
      setWorkersRunning(false);
      await workers.stop();
    },
  };
}
