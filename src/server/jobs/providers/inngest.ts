import { Inngest, type GetStepTools, type InngestFunction } from 'inngest';
import { serve } from 'inngest/next';
import { config } from '@/server/platform/config';
import { ApiError } from '@/server/platform/errors';
import { JOB_DEFINITIONS } from '../definitions';
import type { JobDefinition, JobEvent, JobIo } from '../definitions/job';

/**
 * The Inngest provider (JOBS_PROVIDER=inngest): every job definition becomes an Inngest
 * function served at /api/inngest (signing key verified by the SDK), and the application's
 * events go to Inngest's event API. Inngest (Cloud, self-hosted, or the Dev Server) then
 * schedules the runs, keeps their step state and calls back for each step.
 */
export const INNGEST_APP_ID = 'roomtone';
export const INNGEST_SERVE_PATH = '/api/inngest';

type StepTools = GetStepTools<Inngest.Any>;

/** The step API on Inngest's step tools: run → step.run, sleep → step.sleep/sleepUntil, sendEvent → step.sendEvent. */
export function inngestIo(step: StepTools): JobIo {
  return {
    run: <T>(name: string, fn: () => Promise<T>) => step.run(name, fn) as unknown as Promise<T>,
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

/**
 * The client: keys and base URL from config(), never the SDK's own environment lookups, and
 * never dev mode (requests must be signed). Checkpointing is off: each step is one signed
 * request from the executor (the protocol this build was verified against).
 */
export function createInngestClient(options: { eventKey?: string; signingKey?: string; baseUrl?: string } = {}): Inngest.Any {
  return new Inngest({ id: INNGEST_APP_ID, isDev: false, checkpointing: false, ...dropUndefined(options) }) as unknown as Inngest.Any;
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const state = globalThis as unknown as { roomtoneInngest?: { client: Inngest.Any; functions: InngestFunction.Any[]; handler: ReturnType<typeof serve> } };

function provider() {
  if (!state.roomtoneInngest) {
    const c = config();
    const client = createInngestClient({ eventKey: c.INNGEST_EVENT_KEY, signingKey: c.INNGEST_SIGNING_KEY, baseUrl: c.INNGEST_BASE_URL });
    const functions = JOB_DEFINITIONS.map((d) => inngestFunction(client, d));
    const handler = serve({ client, functions, servePath: INNGEST_SERVE_PATH, serveOrigin: c.publicBaseUrl });
    state.roomtoneInngest = { client, functions, handler };
  }
  return state.roomtoneInngest;
}

/** The /api/inngest door: GET introspection, PUT registration, POST step execution (signed). */
export async function serveInngest(request: Request): Promise<Response> {
  if (config().JOBS_PROVIDER !== 'inngest') throw new ApiError(404, 'resource_not_found', 'Jobs run on pg-boss here (JOBS_PROVIDER=pgboss): there is no Inngest endpoint.');
  const { handler } = provider();
  const method = request.method === 'PUT' ? handler.PUT : request.method === 'POST' ? handler.POST : handler.GET;
  return method(request as Parameters<typeof handler.GET>[0], undefined);
}

/** Send application events (admission, cancel, deliveries, recharges) to Inngest. */
export async function sendInngestEvents(events: JobEvent[]): Promise<void> {
  if (events.length === 0) return;
  await provider().client.send(events.map((e) => ({ name: e.name, data: e.data, ...(e.id ? { id: e.id } : {}), ...(e.ts ? { ts: e.ts } : {}) })));
}
