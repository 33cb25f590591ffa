// @node-lines same: the SDK against the server; the SDK's own code runs under both lines in sdk/test
/**
 * Webhooks on a laptop: GET /v1/events/stream (an extension to the spec) and the SDK's
 * `listen` command, end to end against the real server: a generation's event reaches a local
 * receiver signed with the secret the command prints (verified with the official
 * `standardwebhooks` verifier), `--events` filters, a reconnection resumes, and every door of
 * the stream refuses what it must (live keys, missing permission, browsers, other
 * organizations' events, revoked keys, an eleventh stream).
 */
import fs from 'node:fs';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import Roomtone, { AuthenticationError, PermissionDeniedError, type WebhookEvent } from '@roomtone/sdk';
import { db } from '@/server/platform/db';
import { revokeApiKey } from '@/server/capabilities/keys/keys';
import { RECONNECT_GRACE_MS } from '@/server/capabilities/webhooks/event-stream';
import { baseUrl, createKey, createTestOrg, expectErrorShape, testIp } from './support';
import { insertGeneration } from './fixtures';
import { noiseImage, restoreServedFiles, serve } from './images-support';
import { startProcess, type StartedProcess } from './start-server';

const ip = testIp();
const root = path.resolve(import.meta.dirname, '..');

function client(apiKey: string, target = baseUrl): Roomtone {
  return new Roomtone({ apiKey, baseUrl: target, fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': ip } }) });
}

function stream(key: string | null, query = '', headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/v1/events/stream${query}`, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'x-forwarded-for': ip, ...headers } });
}

/** Listen, and resolve once the stream is open (its session follows events from then on). */
async function listening(sdk: Roomtone, options: Parameters<Roomtone['webhooks']['listen']>[0] = {}) {
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const collector = collect(sdk.webhooks.listen({ ...options, onReady: () => opened() }));
  await Promise.race([ready, collector.done.then(() => Promise.reject(collector.failure() ?? new Error('the stream ended before it was ready')))]);
  return collector;
}

/** Events of `listen()` as they come, with a way to wait for the next ones. */
function collect(iterator: AsyncGenerator<WebhookEvent>) {
  const events: WebhookEvent[] = [];
  let wake = null as (() => void) | null;
  let failure: unknown = null;
  const done = (async () => {
    try {
      for await (const event of iterator) {
        events.push(event);
        wake?.();
      }
    } catch (error) {
      failure = error;
      wake?.();
    }
  })();
  return {
    events,
    done,
    failure: () => failure,
    async waitFor(count: number, timeoutMs = 60_000): Promise<WebhookEvent[]> {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count && failure === null) {
        if (Date.now() > deadline) throw new Error(`${events.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 500);
        });
      }
      if (failure) throw failure;
      return events;
    },
  };
}

let imageUrl: string;
beforeAll(async () => {
  imageUrl = serve(await noiseImage(160, 120, 'jpeg'), 'jpg');
});
beforeEach(() => restoreServedFiles());

describe('npx @roomtone/sdk listen --forward-to', () => {
  let receiver: http.Server;
  let received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let receiverUrl: string;
  let listener: StartedProcess | null = null;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    await listener?.stop();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('forwards a generation’s event to a local URL, signed with the secret it prints, and shows status and latency; --events filters', async () => {
    const org = await createTestOrg();
    received = [];
    // The command npx runs: the package's bin, as npm linked it.
    const bin = fs.realpathSync(path.join(root, 'node_modules', '.bin', 'roomtone-sdk'));
    expect(bin).toBe(path.join(root, 'sdk', 'bin', 'roomtone-sdk.js'));
    listener = await startProcess({
      name: 'roomtone-sdk listen',
      args: [bin, 'listen', '--forward-to', receiverUrl, '--events', 'generation.succeeded'],
      env: { ROOMTONE_API_KEY: org.testKey, ROOMTONE_BASE_URL: baseUrl },
      ready: (output) => /Webhook signing secret: whsec_\S+\n/.test(output),
      timeoutMs: 60_000,
    });
    const secret = /Webhook signing secret: (whsec_\S+)/.exec(listener.output())![1]!;
    expect(listener.output()).toContain('Listening to test-mode events (generation.succeeded)');

    const sdk = client(org.testKey);
    // Not followed (--events): a canceled generation's event is never forwarded.
    const waiting = await insertGeneration({ organizationId: org.id, mode: 'test' });
    await sdk.generations.cancel(waiting.id);
    const generation = await sdk.upscales.create({ image: imageUrl, metadata: { via: 'listen' } });
    expect(generation.status).toBe('succeeded');

    const deadline = Date.now() + 60_000;
    while (received.length === 0 || !/-> 204 {2}\(\d+ ms\)/.test(listener.output())) {
      if (Date.now() > deadline) throw new Error(`nothing forwarded:\n${listener.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const headers = delivery!.headers as Record<string, string>;
    const event = new Webhook(secret).verify(delivery!.body, headers) as WebhookEvent;
    expect(event).toMatchObject({ type: 'generation.succeeded', livemode: false, data: { object: { id: generation.id, status: 'succeeded', metadata: { via: 'listen' } } } });
    expect(event.id).toBe(headers['webhook-id']);
    expect(headers['content-type']).toBe('application/json');
    expect(Roomtone.webhooks.unwrap(delivery!.body, headers, secret).id).toBe(event.id);
    // The event is the generation as the API reads it (URLs are signed at each read).
    const read = await sdk.generations.retrieve(generation.id);
    const { output: _a, ...eventGeneration } = event.data.object as typeof read;
    const { output: _b, ...readGeneration } = read;
    expect(eventGeneration).toEqual(readGeneration);
    expect(listener.output()).toMatch(new RegExp(`generation\\.succeeded {2}${event.id} {2}${generation.id} {2}-> 204 {2}\\(\\d+ ms\\)`));

    // Stopped: its session is no longer renewed and lapses within the reconnection grace.
    expect(await listener.stop()).toBe(0);
    listener = null;
    const sessions = await db().eventStreamSession.findMany({ where: { organizationId: org.id } });
    expect(sessions.every((session) => session.expiresAt.getTime() <= Date.now() + RECONNECT_GRACE_MS + 1_000)).toBe(true);
  });

  it('refuses a live key before connecting', () => {
    const result = spawnSync(process.execPath, [path.join(root, 'sdk', 'bin', 'roomtone-sdk.js'), 'listen', '--base-url', baseUrl], {
      env: { ...process.env, ROOMTONE_API_KEY: 'rt_live_0123456789abcdefghij0123456789' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('listen uses a test key (rt_test_…)');
  });
});

describe('client.webhooks.listen and GET /v1/events/stream', () => {
  it('streams the events as webhook bodies; a reconnection with Last-Event-ID resumes after the last one', async () => {
    const org = await createTestOrg();
    const sdk = client(org.testKey);
    const first = new AbortController();
    const ready: string[][] = [];
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const a = collect(
      sdk.webhooks.listen({
        signal: first.signal,
        onReady: ({ events }) => {
          ready.push(events);
          opened();
        },
      }),
    );
    await isOpen;
    expect(ready[0]).toEqual(['generation.succeeded', 'generation.failed', 'generation.canceled']);
    const one = await insertGeneration({ organizationId: org.id, mode: 'test' });
    await sdk.generations.cancel(one.id);
    const [canceled] = await a.waitFor(1);
    expect(canceled).toMatchObject({ type: 'generation.canceled', data: { object: { id: one.id, status: 'canceled' } } });
    // The connection drops; an event of the gap is still produced (the session's reconnection
    // grace), and a stream resuming after the last id received gets it, and only it.
    first.abort();
    await a.done;
    const two = await insertGeneration({ organizationId: org.id, mode: 'test' });
    await sdk.generations.cancel(two.id);
    const resumed = new AbortController();
    const b = collect(sdk.webhooks.listen({ signal: resumed.signal, lastEventId: canceled!.id }));
    const events = await b.waitFor(1);
    expect(events.map((e) => (e.data.object as { id: string }).id)).toEqual([two.id]);
    resumed.abort();
    await b.done;
  });

  it('another organization’s events never appear, and its event ids do not resume a stream', async () => {
    const mine = await createTestOrg();
    const theirs = await createTestOrg();
    const controller = new AbortController();
    const theirStream = await listening(client(theirs.testKey), { signal: controller.signal });
    const theirGeneration = await insertGeneration({ organizationId: theirs.id, mode: 'test' });
    await client(theirs.testKey).generations.cancel(theirGeneration.id);
    const [theirEvent] = await theirStream.waitFor(1);

    // My stream, asked to resume after their event: it starts from now and sees only mine.
    const mineStream = await listening(client(mine.testKey), { signal: controller.signal, lastEventId: theirEvent!.id });
    const other = await insertGeneration({ organizationId: theirs.id, mode: 'test' });
    await client(theirs.testKey).generations.cancel(other.id);
    await theirStream.waitFor(2);
    const own = await insertGeneration({ organizationId: mine.id, mode: 'test' });
    await client(mine.testKey).generations.cancel(own.id);
    const events = await mineStream.waitFor(1);
    expect(events.map((e) => (e.data.object as { id: string }).id)).toEqual([own.id]);
    controller.abort();
    await Promise.all([theirStream.done, mineStream.done]);
  });

  it('refuses: no key 401, a live key or a key without generations_read 403, a browser 403, an unknown type 400 (param events)', async () => {
    const org = await createTestOrg();
    const cases: [Response, number, string, string?][] = [
      [await stream(null), 401, 'api_key_missing'],
      [await stream(org.liveKey), 403, 'permission_denied'],
      [await stream(await createKey(org.id, 'test', ['upscales'])), 403, 'permission_denied'],
      [await stream(org.testKey, '', { origin: 'https://evil.example' }), 403, 'browser_request_refused'],
      [await stream(org.testKey, '?events=balance.low'), 400, 'parameter_invalid', 'events'],
      [await stream(org.testKey, '?events=generation.succeeded&since=1'), 400, 'parameter_invalid', 'since'],
      [await stream(org.testKey, '', { 'last-event-id': 'not-an-id' }), 400, 'parameter_invalid', 'Last-Event-ID'],
    ];
    for (const [response, status, code, param] of cases) {
      const body = (await response.json()) as unknown;
      expectErrorShape(body);
      expect([response.status, body.error.code, body.error.param]).toEqual([status, code, param]);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
    }
    // Nothing was opened by a refusal.
    expect(await db().eventStreamSession.count({ where: { organizationId: org.id } })).toBe(0);
    const live = await client(org.liveKey).webhooks.listen().next().catch((e: unknown) => e);
    expect(live).toBeInstanceOf(PermissionDeniedError);
  });

  it('at most 10 streams per organization: the eleventh gets 429 with Retry-After', async () => {
    const org = await createTestOrg();
    const open = await Promise.all(Array.from({ length: 10 }, () => stream(org.testKey)));
    try {
      expect(open.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(open[0]!.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const refused = await stream(org.testKey);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      for (const response of open) await response.body?.cancel();
    }
    // Closed streams free their places once their reconnection grace has passed.
    const deadline = Date.now() + RECONNECT_GRACE_MS + 30_000;
    for (;;) {
      const again = await stream(org.testKey);
      await again.body?.cancel();
      if (again.status === 200) break;
      expect(again.status).toBe(429);
      if (Date.now() > deadline) throw new Error('the places were never freed');
      await new Promise((r) => setTimeout(r, Number(again.headers.get('retry-after')) * 1000));
    }
  }, 90_000);

  it('a key revoked while its stream is open ends the stream (at the next keep-alive)', async () => {
    const org = await createTestOrg();
    const sdk = client(org.testKey);
    const stream = await listening(sdk);
    await revokeApiKey(db(), org.keyIds.test);
    await stream.done;
    expect(stream.failure()).toBeInstanceOf(AuthenticationError);
    expect(stream.failure()).toMatchObject({ status: 401, code: 'api_key_invalid' });
  }, 60_000);
});
