import type { JobEvent } from '../job';

/**
 * What the rest of the service needs of Inngest without loading its SDK (about a second of CPU
 * at every process start, CLI calls included): the app id, the serve path, and sending events
 * (admission, cancel, deliveries, recharges), which loads the client on first use. With the
 * default provider (pg-boss) nothing sends, so the SDK never loads.
 */
export { INNGEST_APP_ID, INNGEST_SERVE_PATH } from './inngest-app';

export async function sendInngestEvents(events: JobEvent[]): Promise<void> {
  if (events.length === 0) return;
  const { sendWithClient } = await import('./inngest-client');
  await sendWithClient(events);
}
