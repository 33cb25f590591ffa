import { PgBoss } from 'pg-boss';
import { databaseUrl } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { runRetention } from '@/server/generations/retention';
import { ensureQueues, QUEUES } from './queue';
import { runGenerationJob } from './generation-job';
import { sweepGenerations } from './sweeper';
import { loggingStep } from './steps';
import { closeEngineWorkers, closeNeuralWorker } from '@/server/engine/builtin';
import { interruptBackendCalls } from '@/server/engine/backends/run-backend';

/**
 * pg-boss workers on the application's PostgreSQL: generations (WORKER_CONCURRENCY at once
 * per process) and maintenance every minute (sweeper + retention). The web process runs them
 * in-process by default; `roomtone worker` runs them alone on other machines.
 */
export async function startWorkers(): Promise<{ stop(): Promise<void> }> {
  const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss' });
  boss.on('error', (error: unknown) => log.error('job queue error', { error: String(error) }));
  await boss.start();
  await ensureQueues(boss);

  await boss.work<{ generationId: string }>(
    QUEUES.generation,
    { localConcurrency: config().WORKER_CONCURRENCY, pollingIntervalSeconds: 0.5 },
    async ([job]) => {
      if (!job) return;
      await runGenerationJob(job.data.generationId, loggingStep('generation', job.data.generationId));
    },
  );
  await boss.work(QUEUES.maintenance, async () => {
    await sweepGenerations();
    await runRetention(clock.now());
  });
  await boss.schedule(QUEUES.maintenance, '* * * * *');

  return {
    async stop() {
      interruptBackendCalls(); // remote jobs in flight are canceled, their generations retried
      await boss.stop({ graceful: true, timeout: 10_000 });
      await Promise.all([closeEngineWorkers(), closeNeuralWorker()]).catch(() => undefined);
    },
  };
}
