import pg from 'pg';
import { databaseUrl } from './db';
import { log } from './logger';

/**
 * One LISTEN connection per process, shared by every channel this process follows (generation
 * ends for waiting requests, API key revocations for the key cache). Subscribers learn when
 * the connection is lost so they can fall back (poll, stop caching) until it is back.
 */
type Handler = (payload: string) => void;

interface Subscription {
  onMessage: Handler;
  onLost: () => void;
}

const state = globalThis as unknown as {
  roomtoneListen?: { client: Promise<pg.Client> | null; channels: Map<string, Set<Subscription>> };
};
const shared = (state.roomtoneListen ??= { client: null, channels: new Map() });

function connect(): Promise<pg.Client> {
  shared.client ??= (async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    client.on('notification', (message) => {
      for (const sub of shared.channels.get(message.channel) ?? []) sub.onMessage(message.payload ?? '');
    });
    client.on('error', (error) => {
      log.warn('LISTEN connection lost; reconnecting on next use', { error: String(error) });
      shared.client = null;
      for (const subs of shared.channels.values()) for (const sub of subs) sub.onLost();
    });
    await client.connect();
    for (const channel of shared.channels.keys()) await client.query(`listen ${channel}`);
    return client;
  })().catch((error: unknown) => {
    shared.client = null;
    throw error;
  });
  return shared.client;
}

/** Follow `channel`; resolves once the LISTEN is in place (rejects if the database is unreachable). */
export async function listen(channel: string, onMessage: Handler, onLost: () => void = () => undefined): Promise<() => void> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let subs = shared.channels.get(channel);
  const isNew = !subs;
  if (!subs) shared.channels.set(channel, (subs = new Set<Subscription>()));
  const sub: Subscription = { onMessage, onLost };
  subs.add(sub);
  const client = await connect();
  if (isNew) await client.query(`listen ${channel}`);
  return () => subs.delete(sub);
}
