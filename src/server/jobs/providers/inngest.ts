import type { Inngest, GetStepTools, InngestFunction } from 'inngest';
import { serve } from 'inngest/next';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { JOB_DEFINITIONS } from '../definitions';
import { inngestClient } from './inngest-client';
import { INNGEST_SERVE_PATH } from './inngest-app';
import type { JobDefinition, JobIo } from '../definitions/job';

/**
 * The Inngest provider (JOBS_PROVIDER=inngest): every job definition becomes an Inngest
 * function, served at /api/inngest by the SDK's Next.js handler (`inngest/next`; signing key
 * verified by the SDK). Inngest (Cloud, self-hosted, or the Dev Server) schedules the runs,
 * keeps their step state and calls back for each step. The route is in the route table
 * (src/server/http/routes.ts), which loads this module at its first call.
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

let served: { functions: InngestFunction.Any[]; handler: ReturnType<typeof serve> } | undefined;

function provider() {
  if (!served) {
    const c = config();
    const client = inngestClient();
    const functions = JOB_DEFINITIONS.map((d) => inngestFunction(client, d));
    const handler = serve({ client, functions, servePath: INNGEST_SERVE_PATH, serveOrigin: c.publicBaseUrl });
    served = { functions, handler };
  }
  return served;
}

/** The served function of a definition (tests run it with @inngest/test's engine). */
export function servedInngestFunction(definition: Pick<JobDefinition, 'id'>): InngestFunction.Any {
  const found = provider().functions.find((f) => f.id() === definition.id);
  if (!found) throw new Error(`no Inngest function for ${definition.id}`);
  return found;
}

/** The /api/inngest door: GET introspection, PUT registration, POST step execution (signed). */
export async function serveInngest(request: Request): Promise<Response> {
  if (config().JOBS_PROVIDER !== 'inngest') throw new DomainError('resource_not_found', 'Jobs run on pg-boss here (JOBS_PROVIDER=pgboss): there is no Inngest endpoint.');
  const { handler } = provider();
  const method = request.method === 'PUT' ? handler.PUT : request.method === 'POST' ? handler.POST : handler.GET;
  return method(request as Parameters<typeof handler.GET>[0], undefined);
}

