import type { z } from 'zod';
import type { Step } from '../steps';

/**
 * A job definition (issue 14): what a job is, once, whichever provider runs it. The handler
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

export interface JobDefinition<S extends z.ZodType = z.ZodType, R = unknown> {
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
  handler(payload: z.infer<S>, io: JobIo): Promise<R>;
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
} as const;
