import { Inngest } from 'inngest';
import { config } from '@/server/platform/config';
import type { JobEvent } from '../job';
import { INNGEST_APP_ID } from './inngest-app';

/**
 * The Inngest client (events out). Kept apart from the functions (jobs/inngest-endpoint.ts) so
 * the code that sends events does not load the job handlers and the engine; and that code reaches
 * it through inngest-events.ts, so the SDK itself loads only where Inngest is the provider.
 */

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

let client: Inngest.Any | undefined;

/** The application's client: keys and base URL from config(). */
export function inngestClient(): Inngest.Any {
  if (!client) {
    const c = config();
    client = createInngestClient({ eventKey: c.INNGEST_EVENT_KEY, signingKey: c.INNGEST_SIGNING_KEY, baseUrl: c.INNGEST_BASE_URL });
  }
  return client;
}

/** Send application events to Inngest (through `sendInngestEvents` of inngest-events.ts). */
export async function sendWithClient(events: JobEvent[]): Promise<void> {
  await inngestClient().send(events.map((e) => ({ name: e.name, data: e.data, ...(e.id ? { id: e.id } : {}), ...(e.ts ? { ts: e.ts } : {}) })));
}
