import type { Inngest, GetStepTools, InngestFunction } from 'inngest';
import type { JobDefinition, JobIo } from '../job';

/**
 * The Inngest provider (JOBS_PROVIDER=inngest): every job definition becomes an Inngest
 * function (served at /api/inngest by jobs/inngest-endpoint.ts). Inngest (Cloud, self-hosted,
 * or the Dev Server) schedules the runs, keeps their step state and calls back for each step.
 */

type StepTools = GetStepTools<Inngest.Any>;

/** The step API on Inngest's step tools: run → step.run, sleep → step.sleep/sleepUntil, sendEvent → step.sendEvent. */
export function inngestIo(step: StepTools): JobIo {
  return {
    // Results as JSON in every case, as the pg-boss provider stores them (Inngest serializes a
    // step's result when it hands it back, but not within the request that ran it).
    run: async <T>(name: string, fn: () => Promise<T>) => {
      const output: unknown = await step.run(name, fn);
      return (output === undefined ? null : JSON.parse(JSON.stringify(output))) as T;
    },
    sleep: async (name, duration) => {
      if (duration instanceof Date) await step.sleepUntil(name, duration);
      else await step.sleep(name, duration);
    },
    sendEvent: async (name, event) => {
      await step.sendEvent(name, event);
    },
  };
}

type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/** One definition as an Inngest function (triggers, per-key concurrency, cancellation, retries). */
export function inngestFunction(client: Inngest.Any, definition: JobDefinition): InngestFunction.Any {
  const { concurrency, cancelOn, trigger } = definition;
  return client.createFunction(
    {
      id: definition.id,
      name: definition.name,
      retries: definition.retries as Retries,
      triggers: ['event' in trigger ? { event: trigger.event } : { cron: trigger.cron }],
      ...(concurrency
        ? { concurrency: [{ key: `event.data.${concurrency.key}`, limit: typeof concurrency.limit === 'function' ? concurrency.limit() : concurrency.limit }] }
        : {}),
      ...(cancelOn ? { cancelOn: [{ event: cancelOn.event, if: `async.data.${cancelOn.match} == event.data.${cancelOn.match}` }] } : {}),
    },
    async ({ event, step }) => {
      const payload = definition.schema.parse('cron' in trigger ? {} : event.data);
      return definition.handler(payload, inngestIo(step as unknown as StepTools));
    },
  ) as unknown as InngestFunction.Any;
}
