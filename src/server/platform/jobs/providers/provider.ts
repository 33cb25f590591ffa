import type { DbTx } from '@/server/platform/db';
import type { JobDefinition, JobEvent, Stoppable } from '../job';

/**
 * The jobs port: capabilities trigger events and never know which provider runs the jobs they
 * start. Chosen once per process from JOBS_PROVIDER (platform/jobs/client.ts): pg-boss queues on the
 * application's PostgreSQL (default) or Inngest (events out, functions served at /api/inngest).
 */
export interface JobProvider {
  readonly name: 'pgboss' | 'inngest';
  /**
   * Start the runs these events trigger. With `tx`, the runs start only if that transaction
   * commits: pg-boss writes them in it; a provider outside the database gets the events when
   * the transaction has ended (10 s later), and the run finds its record or does nothing.
   */
  trigger(events: JobEvent | JobEvent[], options?: { tx?: DbTx }): Promise<void>;
  /**
   * Trigger again an event whose run may have been lost (the sweeper): nothing happens when a
   * run for it exists. Whether the event was sent again.
   */
  resend(event: JobEvent): Promise<boolean>;
  /** Cancel the waiting runs this event cancels (the definitions' `cancelOn`). */
  cancel(event: JobEvent): Promise<void>;
  /** This process's workers for these jobs (queues, schedules, own-table loops). */
  startWorkers(definitions: readonly JobDefinition[]): Promise<Stoppable>;
  /**
   * What waits to start, per queue, for /metrics. Empty where the provider keeps its queues
   * itself (Inngest shows them in its own dashboard).
   */
  waitingJobs(): Promise<QueueDepth[]>;
}

/** Runs waiting to start in one queue, and the age of the oldest (0 when none waits). */
export interface QueueDepth {
  queue: string;
  waiting: number;
  oldestSeconds: number;
}
