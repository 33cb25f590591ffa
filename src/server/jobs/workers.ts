import { PgBoss } from 'pg-boss';
import { databaseUrl } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { ensureQueues, GENERATION_QUEUES, QUEUES, usesInngest } from './queue';
import { setWorkersRunning } from './workers-state';
import { startBillingWorkers } from './billing-worker';
import { closeEngineWorkers, closeNeuralWorker, warmEngineWorkers } from '@/server/engine/builtin';
import { startWebhookDispatcher, startWebhookWorker } from '@/server/webhooks/webhook-worker';
import { interruptBackendCalls } from '@/server/engine/backends/in-flight';
import { expiringCreditNotices, generationRun, retention, sweeper } from './definitions';
import { runPgBossJob } from './providers/pgboss-run';

/**
 * The job workers of this process. pg-boss (default): workers on the application's PostgreSQL
 * running the job definitions (src/server/jobs/definitions/) with memoized steps: generations
 * (per process, WORKER_CONCURRENCY heavy, WORKER_LIGHT_CONCURRENCY light and
 * WORKER_REMOTE_CONCURRENCY remote ones at once, each class from its own queue, see schedule.ts;
 * a sent job wakes its workers by NOTIFY, busy ones included, which fetch again as soon as
 * they are free; a 5 s poll backs that up for delayed retries, and a half-second one while
 * the LISTEN connection is down), the scheduled jobs every minute, billing, and the webhook delivery worker. The web process runs them in-process by default; `roomtone worker`
 * runs them alone on other machines. Inngest: Inngest calls /api/inngest for every run; this
 * process only hands new webhook deliveries to it.
 */
export async function startWorkers(): Promise<{ stop(): Promise<void> }> {
  if (usesInngest()) {
    const dispatcher = startWebhookDispatcher();
    setWorkersRunning(true);
    return {
      async stop() {
        setWorkersRunning(false);
        await dispatcher.stop();
      },
    };
  }
  // useListenNotify: generation queues wake their workers when a job is sent (queue.ts).
  const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss', useListenNotify: true });
  boss.on('error', (error: unknown) => log.error('job queue error', { error: String(error) }));
  await boss.start();
  await ensureQueues(boss);

  const c = config();
  // fifo (the behaviour before cost classes, for comparisons): every generation waits in one
  // queue on WORKER_CONCURRENCY slots; one light slot drains what was queued before the switch.
  const fifo = c.JOB_SCHEDULING === 'fifo';
  const slots = { heavy: c.WORKER_CONCURRENCY, light: fifo ? 1 : c.WORKER_LIGHT_CONCURRENCY, remote: fifo ? 1 : c.WORKER_REMOTE_CONCURRENCY };
  for (const costClass of ['heavy', 'light', 'remote'] as const) {
    if (slots[costClass] === 0) continue; // this process leaves the class to other workers
    // Each slot is a poller: 12 of them at 0.5 s were most of an idle process's CPU (and the database's).
    await boss.work<{ generationId: string }>(GENERATION_QUEUES[costClass], { localConcurrency: slots[costClass], pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 5 }, async ([job]) => {
      if (!job) return;
      await runPgBossJob(generationRun, job);
    });
  }
  await boss.work(QUEUES.maintenance, async ([job]) => {
    if (!job) return;
    for (const definition of [sweeper, retention, expiringCreditNotices]) await runPgBossJob(definition, job);
  });
  const webhooks = startWebhookWorker();
  await boss.schedule(QUEUES.maintenance, '* * * * *');
  await startBillingWorkers(boss);
  warmEngineWorkers(); // the first generations do not wait for engine threads to load
  setWorkersRunning(true);

  return {
    async stop() {
      // Remote jobs in flight are canceled, their generations retried; waits for each to get there.
      const backendCalls = interruptBackendCalls();
      setWorkersRunning(false);
      await Promise.all([boss.stop({ graceful: true, timeout: 10_000 }), webhooks.stop(), backendCalls]);
      await Promise.all([closeEngineWorkers(), closeNeuralWorker()]).catch(() => undefined);
    },
  };
}
