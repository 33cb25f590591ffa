import { PgBoss } from 'pg-boss';
import { databaseUrl } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { runRetention } from '@/server/generations/retention';
import { ensureQueues, GENERATION_QUEUES, QUEUES } from './queue';
import { runGenerationJob } from './generation-job';
import { sweepGenerations } from './sweeper';
import { setWorkersRunning } from './workers-state';
import { deleteClosedWindows } from '@/server/limits/shared-counter';
import { loggingStep } from './steps';
import { startBillingWorkers } from './billing-worker';
import { closeEngineWorkers, closeNeuralWorker, warmEngineWorkers } from '@/server/engine/builtin';
import { startWebhookWorker } from '@/server/webhooks/webhook-worker';
import { pruneDeliveryLog } from '@/server/webhooks/prune-delivery-log';
import { interruptBackendCalls } from '@/server/engine/backends/run-backend';

/**
 * pg-boss workers on the application's PostgreSQL: generations (per process, WORKER_CONCURRENCY
 * heavy and WORKER_LIGHT_CONCURRENCY light ones at once, each class from its own queue; see
 * schedule.ts) and maintenance every minute (sweeper + retention). The web process runs them
 * in-process by default; `roomtone worker` runs them alone on other machines.
 */
export async function startWorkers(): Promise<{ stop(): Promise<void> }> {
  const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss' });
  boss.on('error', (error: unknown) => log.error('job queue error', { error: String(error) }));
  await boss.start();
  await ensureQueues(boss);

  const c = config();
  // fifo (the behaviour before cost classes, for comparisons): every generation waits in one
  // queue on WORKER_CONCURRENCY slots; one light slot drains what was queued before the switch.
  const fifo = c.JOB_SCHEDULING === 'fifo';
  const slots = { heavy: c.WORKER_CONCURRENCY, light: fifo ? 1 : c.WORKER_LIGHT_CONCURRENCY };
  for (const costClass of ['heavy', 'light'] as const) {
    if (slots[costClass] === 0) continue; // this process leaves the class to other workers
    await boss.work<{ generationId: string }>(GENERATION_QUEUES[costClass], { localConcurrency: slots[costClass], pollingIntervalSeconds: 0.5 }, async ([job]) => {
      if (!job) return;
      await runGenerationJob(job.data.generationId, loggingStep('generation', job.data.generationId));
    });
  }
  await boss.work(QUEUES.maintenance, async () => {
    await sweepGenerations();
    await runRetention(clock.now());
    await deleteClosedWindows();
    await pruneDeliveryLog(clock.now());
  });
  const webhooks = startWebhookWorker();
  await boss.schedule(QUEUES.maintenance, '* * * * *');
  await startBillingWorkers(boss);
  warmEngineWorkers(); // the first generations do not wait for engine threads to load
  setWorkersRunning(true);

  return {
    async stop() {
      interruptBackendCalls(); // remote jobs in flight are canceled, their generations retried
      setWorkersRunning(false);
      await Promise.all([boss.stop({ graceful: true, timeout: 10_000 }), webhooks.stop()]);
      await Promise.all([closeEngineWorkers(), closeNeuralWorker()]).catch(() => undefined);
    },
  };
}
