import pg from 'pg';
import { databaseUrl } from './db';
import { log } from './logger';

/**
 * One LISTEN connection per process, shared by every channel this process follows (generation
 * ends for waiting requests, API key revocations for the key cache, new webhook deliveries).
 * Subscribers learn when the connection is lost so they can fall back (poll, stop caching);
 * their subscription ends with it, and they subscribe again when they next need it (the
 * connection is made again then). A subscription whose connection could not be made is not
 * kept either: during a database outage, retries must not pile up subscriptions.
 */
type Handler = (payload: string) => void;

interface Subscription {
  onMessage: Handler;
  onLost: () => void;
}

const shared: {
  client: Promise<pg.Client> | null;
  channels: Map<string, Set<Subscription>>;
  /** The barrier not sent yet (callers join it) and the one in flight (the next one waits for it). */
  nextBarrier: Promise<void> | null;
  barrierInFlight: Promise<void> | null;
} = { client: null, channels: new Map(), nextBarrier: null, barrierInFlight: null };

function connect(): Promise<pg.Client> {
  if (shared.client) return shared.client;
  const connecting: Promise<pg.Client> = (async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    client.on('notification', (message) => {
      for (const sub of shared.channels.get(message.channel) ?? []) sub.onMessage(message.payload ?? '');
    });
    // Only a connection that was made can be lost: a failed connect rejects below.
    let connected = false;
    let lost = false;
    const onLost = (error: unknown) => {
      if (!connected || lost) return;
      lost = true;
      log.warn('LISTEN connection lost; reconnecting on next use', { error: String(error) });
      if (shared.client === connecting) shared.client = null;
      const subscribers = [...shared.channels.values()].flatMap((subs) => [...subs]);
      shared.channels.clear();
      for (const sub of subscribers) sub.onLost();
      client.end().catch(() => undefined);
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    await client.connect();
    connected = true;
    for (const channel of shared.channels.keys()) await client.query(`listen ${channel}`);
    return client;
  })().catch((error: unknown) => {
    if (shared.client === connecting) shared.client = null;
    throw error;
  });
  shared.client = connecting;
  return connecting;
}

/** Follow `channel`; resolves once the LISTEN is in place (rejects if the database is unreachable). */
export async function listen(channel: string, onMessage: Handler, onLost: () => void = () => undefined): Promise<() => void> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let subs = shared.channels.get(channel);
  const isNew = !subs;
  if (!subs) shared.channels.set(channel, (subs = new Set<Subscription>()));
  const sub: Subscription = { onMessage, onLost };
  subs.add(sub);
  try {
    const client = await connect();
    if (isNew) await client.query(`listen ${channel}`);
  } catch (error) {
    subs.delete(sub);
    if (subs.size === 0 && shared.channels.get(channel) === subs) shared.channels.delete(channel);
    throw error;
  }
  return () => subs.delete(sub);
}

/**
 * A bare protocol Sync and its ReadyForQuery: the cheapest round trip there is (PostgreSQL
 * parses, plans and runs nothing; pg parses one 5-byte answer), queued on the client like any
 * query (a pg "submittable", the interface pg-cursor uses), so it never interleaves with one.
 */
function syncRoundTrip(client: pg.Client): Promise<void> {
  return new Promise((resolve, reject) => {
    const roundTrip: pg.Submittable & { handleReadyForQuery(): void; handleError(error: Error): void } = {
      submit: (connection) => connection.sync(),
      handleReadyForQuery: () => resolve(),
      handleError: (error) => reject(error),
    };
    client.query(roundTrip);
  });
}

/**
 * Resolves once every notice committed before this call has been handled by this process's
 * subscribers. The notifier signals every listener at commit, before its COMMIT is answered;
 * a listening session sends the notifications it was signalled for before its next
 * ReadyForQuery (postgres.c, at the end of every message cycle), and pg emits them before
 * it handles that ReadyForQuery: so one round trip on the LISTEN connection that ends in a
 * ReadyForQuery, a bare Sync, is the barrier. Callers that arrive together share
 * one round trip; a caller that arrives while one is in flight waits for the next, since the one
 * in flight may have been sent before the notice it must see. Rejects if the connection fails.
 */
export function noticesBarrier(): Promise<void> {
  if (shared.nextBarrier) return shared.nextBarrier;
  const previous = shared.barrierInFlight ?? Promise.resolve();
  const barrier: Promise<void> = previous
    .catch(() => undefined)
    .then(async () => {
      if (shared.nextBarrier === barrier) shared.nextBarrier = null;
      shared.barrierInFlight = barrier;
      const client = await connect();
      await syncRoundTrip(client);
    })
    .finally(() => {
      if (shared.barrierInFlight === barrier) shared.barrierInFlight = null;
    });
  shared.nextBarrier = barrier;
  return barrier;
}
