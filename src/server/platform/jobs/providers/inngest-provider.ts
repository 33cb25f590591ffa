import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import type { JobEvent } from '../job';
import { sendInngestEvents } from './inngest-events';
import type { JobProvider } from './provider';

/** Delay of events sent for a transaction (Inngest cannot join it): long enough for it to have ended. */
const AFTER_TRANSACTION_MS = 10_000;

/**
 * The Inngest provider (JOBS_PROVIDER=inngest): events go to Inngest, which schedules the runs,
 * keeps their step state and calls /api/inngest for each step (served by
 * jobs/inngest-endpoint.ts). Its event ids deduplicate re-sends. This process only relays the rows of jobs kept
 * on their own table (new webhook deliveries) as events.
 */
export const inngestProvider: JobProvider = {
  name: 'inngest',
  async trigger(events, options = {}) {
    const list = Array.isArray(events) ? events : [events];
    if (!options.tx) return sendInngestEvents(list);
    // Outside the transaction, later: the run finds its record committed, or does nothing.
    const later: JobEvent[] = list.map((event) => ({ ...event, ts: clock.nowMs() + AFTER_TRANSACTION_MS }));
    void sendInngestEvents(later).catch((error: unknown) => log.warn('job event not sent; the sweeper will send it', { events: list.map((e) => e.id ?? e.name), error: String(error) }));
  },
  // The event id makes the re-send a no-op at Inngest when the first one arrived.
  resend: async (event) => {
    await sendInngestEvents([event]);
    return true;
  },
  // Waiting and sleeping runs whose `cancelOn` matches end at Inngest.
  cancel: (event) => sendInngestEvents([event]),
  async startWorkers(definitions) {
    const relays = definitions.flatMap((definition) => (definition.ownTable ? [definition.ownTable.relay()] : []));
    return {
      async stop() {
        await Promise.all(relays.map((relay) => relay.stop()));
      },
    };
  },
  waitingJobs: async () => [],
};
