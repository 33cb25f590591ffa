import { closeEngineWorkers, closeNeuralWorker, warmEngineWorkers } from '@/server/capabilities/engine/builtin';
import { interruptBackendCalls } from '@/server/capabilities/engine/backends/in-flight';
import { runGenerationJob } from '../generation-job';
import { generationRunJob } from '@/server/capabilities/generations/generation-run-job';
import { defineJob } from '@/server/platform/jobs/job';

/**
 * Run one admitted generation: start (conditional), generate + store, finish or fail with a
 * refund. A worker process starts the engine's threads with its workers (the first generations
 * do not wait for them to load); at stop, remote calls in flight are interrupted (their runs
 * retried) before the threads close.
 */
export const generationRun = defineJob({
  ...generationRunJob,
  handler: (payload, io) => runGenerationJob(payload.generationId, io),
  lifecycle: {
    warm: warmEngineWorkers,
    interrupt: interruptBackendCalls,
    close: async () => {
      await Promise.all([closeEngineWorkers(), closeNeuralWorker()]);
    },
  },
});
