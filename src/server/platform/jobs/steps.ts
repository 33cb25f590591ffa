import { log } from '@/server/platform/logger';

/**
 * Named steps of a job handler (Inngest's `step.run` shape). Each step must be idempotent: a
 * retried job runs its steps again, and each one finds its work done or does it once more.
 */
export interface Step {
  run<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

export function loggingStep(job: string, id: string): Step {
  return {
    async run<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const started = performance.now();
      try {
        return await fn();
      } finally {
        log.debug('job step', { job, id, step: name, ms: Math.round(performance.now() - started) });
      }
    },
  };
}
