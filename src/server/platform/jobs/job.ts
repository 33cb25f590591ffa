import type { z } from 'zod';
import type { Step } from './steps';

/**
 * A job definition: what a job is, once, whichever provider runs it. The handler
 * gets its payload (parsed with `schema`) and a provider-neutral step API:
 * - `run(name, fn)`: a named step, memoized: a retried run returns the stored result of a step
 *   that already finished instead of running it again (pg-boss: the JobStep table; Inngest:
 *   its step state). Results must be JSON (Dates come back as strings).
 * - `sleep(name, duration)`: a durable wait, milliseconds or until a date (Inngest:
 *   `step.sleep`/`step.sleepUntil`; pg-boss: the run waits in process).
 * - `sendEvent(name, event)`: emit an event other definitions may be triggered by.
 */
export interface JobEvent {
  name: string;
  data: Record<string, unknown>;
  /** Deduplication id (Inngest drops a second event with the same id within 24 hours). */
  id?: string;
  /** Not before this time (epoch ms; Inngest delays the run). */
  ts?: number;
}

export interface JobIo extends Step {
  sleep(name: string, duration: number | Date): Promise<void>;
  sendEvent(name: string, event: JobEvent | JobEvent[]): Promise<void>;
}

export type JobTrigger = { event: string } | { cron: string };

/**
 * Where a queue-based provider (pg-boss) keeps a job's runs; event-driven providers (Inngest)
 * ignore it. A job without one runs only where its events are served (Inngest), or, like
 * webhook deliveries, on its own table (`ownTable`).
 */
export interface JobQueue<P = unknown> {
  /** The queues its runs may wait in, each with its options and this process's worker slots. */
  queues(): readonly QueueSpec[];
  /** The queue (and priority) of one run (default: the first queue); null: nothing to run (its record is gone). */
  place?(payload: P): Promise<{ queue: string; priority?: number } | null>;
  /** A deterministic run id (a UUID): triggering the same run twice is a no-op. */
  runId?(payload: P): string;
}

export interface QueueSpec {
  name: string;
  options: {
    retryLimit: number;
    retryDelay?: number;
    retryBackoff?: boolean;
    expireInSeconds: number;
    heartbeatSeconds?: number;
    deleteAfterSeconds: number;
    /** Sending a run wakes an idle worker at once (a transactional NOTIFY) instead of at its next poll. */
    notify?: boolean;
  };
  /** This process's workers for the queue; 0 slots: the queue is left to other processes. */
  worker: { slots: number; pollingIntervalSeconds?: number; notifyPollingIntervalSeconds?: number };
}

/** What a job is, without its handler: enough to trigger, route and cancel its runs. */
export interface JobDeclaration<S extends z.ZodType = z.ZodType> {
  /** Stable id (the Inngest function id, the pg-boss step-key prefix). */
  id: string;
  /** Bumped when the steps change shape, so stored steps of an older version are never reused. */
  version: number;
  name: string;
  schema: S;
  trigger: JobTrigger;
  /** At most `limit` runs at once per value of the payload field `key` (Inngest concurrency key). */
  concurrency?: { key: string; limit: number | (() => number) };
  /** Runs waiting or sleeping are canceled by this event when its `match` field equals theirs. */
  cancelOn?: { event: string; match: string };
  /** Attempts after the first before the run fails. */
  retries: number;
  queue?: JobQueue<z.infer<S>>;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType, R = unknown> extends JobDeclaration<S> {
  handler(payload: z.infer<S>, io: JobIo): Promise<R>;
  /**
   * Runs kept as rows of the job's own table instead of a queue (webhook deliveries, claimed in
   * batches): `claimLoop` works them where the provider has queues, `relay` hands new rows to
   * an event-driven provider as events.
   */
  ownTable?: { claimLoop(): Stoppable; relay(): Stoppable };
  /** What a worker process does around this job's runs (the engine's threads: warm, interrupt, close). */
  lifecycle?: { warm(): void; interrupt(): Promise<void>; close(): Promise<void> };
}

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * The declared jobs, for the providers' routing (which queued jobs an event starts, which
 * queues exist). A job is declared beside the event builders that trigger it, in the capability
 * that owns the event, so whoever triggers an event has loaded the jobs it starts.
 */
const declared = new Map<string, JobDeclaration>();

export function declareJob<S extends z.ZodType>(declaration: JobDeclaration<S>): JobDeclaration<S> {
  declared.set(declaration.id, declaration as unknown as JobDeclaration);
  return declaration;
}

/** Every job declared in this process so far. */
export function declaredJobs(): readonly JobDeclaration[] {
  return [...declared.values()];
}

export function defineJob<S extends z.ZodType, R>(definition: JobDefinition<S, R>): JobDefinition<S, R> {
  return definition;
}

/** Event names the application sends (admission, state changes) and definitions listen to. */
export const JOB_EVENTS = {
  generationAdmitted: 'roomtone/generation.admitted',
  generationCanceled: 'roomtone/generation.canceled',
  generationEnded: 'roomtone/generation.ended',
  webhookDeliveryCreated: 'roomtone/webhook.delivery.created',
  autoRechargeRequested: 'roomtone/auto-recharge.requested',
  spendAlertRecorded: 'roomtone/spend-alert.recorded',
} as const;
