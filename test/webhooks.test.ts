// @node-lines same: our delivery, retry and disabling rules; deliveries go out through safeRequest (node:https, keep-alive, deadlines), which runs under both lines in src/server/capabilities/net/safe-http.test.ts, and are signed with the HMAC src/server/capabilities/webhooks/retry-schedule.test.ts checks
/**
 * Webhook delivery, end to end: receivers behind 127.0.0.1:443 with the test CA, every signature
 * verified with the official `standardwebhooks` package.
 *
 * Two kinds of tests: (1) through the running server, in real time (a generation's event, a
 * retry planned by the server's worker and delivered once due); (2) retry timing, disabling,
 * rotation, outages: the delivery worker runs in this process with the project's clock moved
 * days ahead, and Date moved along so `standardwebhooks` accepts the timestamps. The second kind
 * runs on a database of its own: a worker with the clock days ahead delivers whatever is due in
 * its database, and on the shared one that would be other files' deliveries too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { api, createTestOrg, refusalOf, testIp, type TestOrg } from './support';
import { startReceivers, type Receivers, type Received } from './webhook-receiver';
import type { Prisma } from '@/generated/prisma/client';
import { closeDb, db } from '@/server/platform/db';
import { freshDatabase, type TestDatabase } from './server-processes';
import { insertGeneration } from './fixtures';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { createUser } from '@/server/capabilities/orgs/orgs';
import { recordGenerationEvent } from '@/server/capabilities/webhooks/events';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { rotateSecret } from '@/server/capabilities/webhooks/rotate-secret';
import { disableEndpoint, enableEndpoint } from '@/server/capabilities/webhooks/endpoint-status';
import { listDeliveries } from '@/server/capabilities/webhooks/delivery-log';
import { resendDelivery } from '@/server/capabilities/webhooks/resend-delivery';
import { sendTestEvent } from '@/server/capabilities/webhooks/send-test-event';
import { deliverDue, startWebhookDispatcher, startWebhookWorker } from '@/server/capabilities/webhooks/webhook-worker';
import { ANSWER_TIMEOUT_MS, LEASE_MS } from '@/server/capabilities/webhooks/deliver-webhook';
import { pruneDeliveryLog } from '@/server/capabilities/webhooks/prune-delivery-log';
import { baseDelayMs } from '@/server/capabilities/webhooks/retry-schedule';
import { setEnv } from '@/server/platform/config';

setEnv('DEV_ALLOW_LOOPBACK_URLS', 'true');
const root = path.resolve(import.meta.dirname, '..');
const ip = testIp();
const S = 1000;
const H = 3600 * S;

let receivers: Receivers;
beforeAll(async () => {
  receivers = await startReceivers();
});
afterAll(async () => {
  vi.useRealTimers();
  clock.reset();
  await receivers?.close();
});

/** Verify as the receiver did when the request arrived (the test's clock has moved on since). */
function verifyAsReceived(secret: string, r: Received): ReturnType<typeof verify> {
  vi.setSystemTime(Number(r.headers['webhook-timestamp']) * 1000);
  try {
    return verify(secret, r);
  } finally {
    vi.setSystemTime(clock.nowMs());
  }
}

function verify(secret: string, r: Received): { id: string; type: string; created_at: number; livemode: boolean; data: { object: Record<string, unknown> } } {
  return new Webhook(secret).verify(r.body, r.headers) as ReturnType<typeof verify>;
}

async function endpointFor(org: TestOrg, mode: 'test' | 'live', receiver: string, events?: string[]) {
  return createEndpoint(db(), { organizationId: org.id }, { mode, url: receivers.url(receiver), ...(events ? { events } : {}) });
}

/**
 * The endpoint's latest delivery once the worker has recorded the receiver's answer: the
 * receiver sees a request before the worker writes its outcome, so a read right after may
 * still find it pending.
 */
async function recordedDelivery(org: TestOrg, endpointId: string) {
  return vi.waitFor(
    async () => {
      const [delivery] = await listDeliveries(db(), { organizationId: org.id }, endpointId);
      if (!delivery || delivery.status === 'pending') throw new Error('the delivery is not recorded yet');
      return delivery;
    },
    { timeout: 10_000, interval: 100 },
  );
}

async function upscale(key: string, extra: Record<string, string> = {}): Promise<{ id: string; status: string }> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8899aa' } }).png().toBuffer();
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(png)]), 'a.png');
  form.set('scale', 'x2');
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  const res = await api<{ id: string; status: string }>('/v1/upscales', { key, ip, rawBody: form });
  expect(res.status).toBeLessThan(300);
  return res.body;
}

describe('through the running server, in real time', () => {
  it('a generation.succeeded event arrives signed, with the generation read at delivery', async () => {
    const org = await createTestOrg();
    const { endpoint, secret } = await endpointFor(org, 'test', 'e2e');
    const generation = await upscale(org.testKey);
    expect(generation.status).toBe('succeeded');
    const [received] = await receivers.waitFor('e2e', 1);
    const r = received as Received;
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe('Roomtone-Webhooks/1.0');
    const event = verify(secret, r);
    expect(event.id).toBe(r.headers['webhook-id']);
    expect(event.id).toMatch(/^evt_/);
    expect(event).toMatchObject({ type: 'generation.succeeded', livemode: false, data: { object: { object: 'generation', id: generation.id, status: 'succeeded' } } });
    const output = event.data.object.output as { url: string; url_expires_at: number }[];
    expect(output).toHaveLength(1);
    // Signed at delivery: valid 15 minutes from the attempt's timestamp (the body is rendered
    // just before the attempt is stamped: a second may tick between the two).
    expect(output[0]!.url_expires_at - (Number(r.headers['webhook-timestamp']) + 900)).toBeGreaterThanOrEqual(-1);
    expect(output[0]!.url_expires_at - (Number(r.headers['webhook-timestamp']) + 900)).toBeLessThanOrEqual(0);
    const image = await fetch(output[0]!.url);
    expect(image.status).toBe(200);
    const read = await api<Record<string, unknown>>(`/v1/generations/${generation.id}`, { key: org.testKey, ip });
    expect({ ...event.data.object, output: [] }).toEqual({ ...read.body, output: [] });
    expect(await recordedDelivery(org, endpoint.id)).toMatchObject({ status: 'succeeded', attempts: 1, kind: 'event' });
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);
  });

  it('an event no active endpoint of the mode follows is not produced', async () => {
    const org = await createTestOrg();
    await endpointFor(org, 'live', 'unused-live');
    const { endpoint } = await endpointFor(org, 'test', 'unused-test', ['generation.failed']);
    await upscale(org.testKey);
    expect(await db().webhookEvent.count({ where: { organizationId: org.id } })).toBe(0);
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);
  });

  // The server's worker plans the retry 30 s (±10 %) after the failed attempt, by its own clock;
  // the test then brings that planned time to now instead of waiting it out, and the server's
  // poll delivers the retry (the schedule itself is followed to its end below, clock-driven).
  it('plans the retry of a failed delivery 30 s (±10 %) after it, and the server delivers it when it is due', async () => {
    const org = await createTestOrg();
    receivers.set('thirty', (_r, i) => (i === 0 ? { status: 500, body: 'boom' } : { status: 204 }));
    const { endpoint, secret } = await endpointFor(org, 'test', 'thirty');
    await upscale(org.testKey);
    const [first] = await receivers.waitFor('thirty', 1);
    const planned = await vi.waitFor(
      async () => {
        const d = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
        if (d.attempts !== 1 || !d.nextAttemptAt || !d.lastAttemptAt) throw new Error('the first attempt is not recorded yet');
        return d;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(planned).toMatchObject({ status: 'pending', lastStatusCode: 500 });
    const delay = planned.nextAttemptAt!.getTime() - planned.lastAttemptAt!.getTime();
    expect(delay).toBeGreaterThanOrEqual(27_000);
    expect(delay).toBeLessThanOrEqual(33_000);
    expect(receivers.received('thirty')).toHaveLength(1);
    await db().webhookDelivery.update({ where: { id: planned.id }, data: { nextAttemptAt: new Date() } });
    const [, second] = await receivers.waitFor('thirty', 2);
    expect(verify(secret, second as Received).id).toBe(verify(secret, first as Received).id);
    const delivery = await recordedDelivery(org, endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(delivery?.attempt_log.map((a) => a.status_code)).toEqual([500, 204]);
    expect(delivery?.attempt_log[0]).toMatchObject({ succeeded: false, response_body: 'boom', error: 'HTTP 500' });
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);
  });
});

// ---------------------------------------------------------------------------------------------
// Clock-driven: from here on the test's clock is weeks ahead of the server's.
// ---------------------------------------------------------------------------------------------

let now = 0;
function setTime(ms: number): void {
  now = ms;
  clock.set(new Date(ms));
  vi.setSystemTime(ms);
}
const advance = (ms: number) => setTime(now + ms);

/** A generation to hang events on (made in real time, before the clock moves). */
let org: TestOrg;
let generationRow: { id: string; organizationId: string; mode: 'test' | 'live' };

/** What the balance helper records: a live event whose data.object is a stored snapshot. */
async function recordPayloadEvent(organizationId: string, type: string, payload: Prisma.InputJsonObject): Promise<string> {
  const endpoints = await db().webhookEndpoint.findMany({ where: { organizationId, mode: 'live', status: 'active', eventTypes: { has: type } } });
  const id = newId('evt');
  await db().webhookEvent.create({
    data: {
      id,
      organizationId,
      mode: 'live',
      type,
      payload,
      createdAt: clock.now(),
      deliveries: { create: endpoints.map((e) => ({ id: newId('dlv'), endpointId: e.id, nextAttemptAt: clock.now() })) },
    },
  });
  return id;
}

async function generationEvent(type: 'generation.succeeded' | 'generation.failed' | 'generation.canceled' = 'generation.succeeded'): Promise<string | null> {
  return db().$transaction((tx) => recordGenerationEvent(tx, generationRow, type));
}

async function deliveryOf(eventId: string) {
  return db().webhookDelivery.findFirstOrThrow({ where: { eventId, kind: 'event' } });
}

/** Move the clock to the next planned attempt among these deliveries and deliver. */
async function stepToNextAttempt(ids: string[]): Promise<boolean> {
  const next = await db().webhookDelivery.findFirst({ where: { id: { in: ids }, status: 'pending' }, orderBy: { nextAttemptAt: 'asc' } });
  if (!next?.nextAttemptAt) return false;
  if (next.nextAttemptAt.getTime() > now) setTime(next.nextAttemptAt.getTime());
  await deliverDue();
  return true;
}

describe('clock-driven delivery rules', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase('webhooks');
    await closeDb();
    setEnv('DATABASE_URL', database.url); // db(), the fixtures, the workers and the killed worker's process use it
    setEnv('DATA_DIR', database.dataDir);
    org = await createTestOrg();
    const g = await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded', withOutput: true });
    generationRow = { id: g.id, organizationId: org.id, mode: 'test' };
    vi.useFakeTimers({ toFake: ['Date'] });
    setTime(Date.now() + 20 * 24 * H);
  });
  afterAll(async () => {
    await closeDb();
    await database?.drop();
  });

  it('follows the schedule exactly: 16 attempts within 72 h, ±10 %, then it stays in the log', async () => {
    receivers.set('schedule', () => ({ status: 503 }));
    const { endpoint } = await endpointFor(org, 'test', 'schedule');
    const created = now;
    const eventId = (await generationEvent()) as string;
    await deliverDue();
    const planned: number[] = [];
    for (;;) {
      const d = await deliveryOf(eventId);
      if (d.status !== 'pending') break;
      planned.push((d.nextAttemptAt as Date).getTime() - now);
      setTime((d.nextAttemptAt as Date).getTime());
      await deliverDue();
    }
    expect(planned).toHaveLength(15);
    planned.forEach((delay, i) => {
      const base = baseDelayMs(i + 2);
      expect(delay).toBeGreaterThanOrEqual(base * 0.9 - 1);
      expect(delay).toBeLessThanOrEqual(base * 1.1 + 1);
    });
    const d = await deliveryOf(eventId);
    expect(d).toMatchObject({ status: 'failed', attempts: 16, nextAttemptAt: null });
    expect(now - created).toBeLessThanOrEqual(72 * H);
    advance(3 * 24 * H);
    await deliverDue();
    expect((await deliveryOf(eventId)).attempts).toBe(16);
    expect(receivers.received('schedule')).toHaveLength(16);
    // Every attempt carries the same webhook-id.
    expect(new Set(receivers.received('schedule').map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);
  });

  it('honours Retry-After (capped at 12 h); a redirect is a failure and is never followed', async () => {
    receivers.set('retry-after', () => ({ status: 429, headers: { 'retry-after': '600' } }));
    receivers.set('redirect', () => ({ status: 302, headers: { location: receivers.url('redirect-target') } }));
    const a = await endpointFor(org, 'test', 'retry-after');
    const b = await endpointFor(org, 'test', 'redirect');
    const eventId = (await generationEvent()) as string;
    await deliverDue();
    const [ra, rd] = await Promise.all(
      [a.endpoint.id, b.endpoint.id].map((endpointId) => db().webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId } })),
    );
    expect((ra?.nextAttemptAt as Date).getTime() - now).toBe(600 * S);
    expect(rd).toMatchObject({ status: 'pending', lastStatusCode: 302, lastError: 'redirect 302 (never followed)' });
    expect(receivers.received('redirect-target')).toHaveLength(0);
    await disableEndpoint(db(), { organizationId: org.id }, a.endpoint.id);
    await disableEndpoint(db(), { organizationId: org.id }, b.endpoint.id);
  });

  it('an endpoint whose host does not resolve is accepted; each delivery fails on the name, logged and retried', async () => {
    // Declaration does not resolve the host (the tests run without DNS); delivery does, every time.
    const { endpoint } = await createEndpoint(db(), { organizationId: org.id }, { mode: 'test', url: 'https://hooks.nowhere-roomtone-test.example/hook' });
    const eventId = (await generationEvent()) as string;
    await deliverDue();
    const d = await db().webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId: endpoint.id } });
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(d.lastError).toMatch(/^dns/);
    expect(d.nextAttemptAt!.getTime()).toBeGreaterThan(now);
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);
  });

  // The spec gives a receiver 10 s (ANSWER_TIMEOUT_MS, every worker's default); the deadline is
  // the worker's option, so the test waits 1 s for it instead of ten.
  it('a receiver silent past the answer deadline (10 s; 1 s here) is a timeout failure, logged', async () => {
    expect(ANSWER_TIMEOUT_MS).toBe(10_000);
    receivers.set('slow', () => 'hang');
    const { endpoint } = await endpointFor(org, 'test', 'slow');
    const eventId = (await generationEvent()) as string;
    await deliverDue({ answerTimeoutMs: 1_000 });
    const d = await deliveryOf(eventId);
    expect(d.status).toBe('pending');
    expect(d.lastError).toBe('timeout: No complete answer within 1000 ms.');
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);
  });

  it('410 Gone disables at once, cancels planned deliveries and e-mails owners and admins only', async () => {
    const gone = await createTestOrg();
    for (const [email, role] of [['owner@gone.test', 'owner'], ['admin@gone.test', 'admin'], ['dev@gone.test', 'developer']] as const) {
      await db().$transaction((tx) => createUser(tx, { email: `${gone.id}.${email}`, password: 'password123', organizationId: gone.id, role }));
    }
    receivers.set('gone-other', () => ({ status: 500 }));
    const other = await createEndpoint(db(), { organizationId: gone.id }, { mode: 'live', url: receivers.url('gone-other'), events: ['balance.low'] });
    const { endpoint } = await createEndpoint(db(), { organizationId: gone.id }, { mode: 'live', url: receivers.url('gone'), events: ['balance.low'] });
    receivers.set('gone', (_r, i) => (i === 0 ? { status: 500 } : { status: 410 }));
    const first = await recordPayloadEvent(gone.id, 'balance.low', { object: 'balance', amount: 450, currency: 'eur', unit: 'cents', low_balance_threshold: 500 });
    await deliverDue();
    const second = await recordPayloadEvent(gone.id, 'balance.low', { object: 'balance', amount: 300, currency: 'eur', unit: 'cents', low_balance_threshold: 500 });
    await deliverDue(); // second → 410
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    const firstDelivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: first, endpointId: endpoint.id } });
    expect(firstDelivery).toMatchObject({ status: 'canceled', nextAttemptAt: null });
    const secondDelivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: second, endpointId: endpoint.id } });
    expect(secondDelivery).toMatchObject({ status: 'failed', lastStatusCode: 410 });
    // The other endpoint is untouched.
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: other.endpoint.id } })).status).toBe('active');
    const mails = await db().mailOutbox.findMany({ where: { to: { startsWith: gone.id.toLowerCase() } } });
    expect(mails.map((m) => m.to.slice(gone.id.length + 1)).sort()).toEqual(['admin@gone.test', 'owner@gone.test']);
    expect(mails[0]?.subject).toContain(receivers.url('gone'));
    expect(mails[0]?.body).toContain('410 Gone');
    // Later events are not produced for it.
    advance(H);
    receivers.set('gone', () => ({ status: 200 }));
    await recordPayloadEvent(gone.id, 'balance.low', { object: 'balance', amount: 200, currency: 'eur', unit: 'cents', low_balance_threshold: 500 });
    await deliverDue();
    expect(receivers.received('gone')).toHaveLength(2);
    await disableEndpoint(db(), { organizationId: gone.id }, other.endpoint.id);
  });

  it('72 hours of failures without any success disable the endpoint', async () => {
    const failing = await createTestOrg();
    await db().$transaction((tx) => createUser(tx, { email: `${failing.id}.owner@fail.test`, password: 'password123', organizationId: failing.id, role: 'owner' }));
    receivers.set('failing', () => ({ status: 500 }));
    const { endpoint } = await createEndpoint(db(), { organizationId: failing.id }, { mode: 'live', url: receivers.url('failing') });
    const payload = { object: 'balance', amount: 100, currency: 'eur', unit: 'cents', low_balance_threshold: 500 };
    const start = now;
    const ids: string[] = [];
    // A new event every 6 hours, so attempts keep coming; the endpoint fails throughout.
    while (now - start < 73 * H) {
      const eventId = await recordPayloadEvent(failing.id, 'balance.low', payload);
      ids.push((await deliveryOf(eventId)).id);
      await deliverDue();
      const status = (await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).status;
      if (status === 'disabled') break;
      const limit = now + 6 * H;
      while (await db().webhookDelivery.findFirst({ where: { id: { in: ids }, status: 'pending', nextAttemptAt: { lte: new Date(limit) } } })) {
        await stepToNextAttempt(ids);
        if ((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).status === 'disabled') break;
      }
      if ((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).status === 'disabled') break;
      setTime(Math.max(now, limit));
    }
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    const failingFor = (row.disabledAt as Date).getTime() - (row.failingSince as Date).getTime();
    expect(failingFor).toBeGreaterThanOrEqual(72 * H);
    expect(failingFor).toBeLessThan(73 * H);
    expect(await db().webhookDelivery.count({ where: { endpointId: endpoint.id, status: 'pending' } })).toBe(0);
    expect(await db().mailOutbox.count({ where: { to: `${failing.id.toLowerCase()}.owner@fail.test`, body: { contains: '72 hours' } } })).toBe(1);
  });

  it('a receiver down for 48 hours gets every event once it is back', async () => {
    const outage = await createTestOrg();
    const { endpoint, secret } = await createEndpoint(db(), { organizationId: outage.id }, { mode: 'live', url: receivers.url('outage') });
    const start = now;
    receivers.set('outage', () => (now - start < 48 * H ? { status: 503 } : { status: 200 }));
    const events: string[] = [];
    const deliveries: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await recordPayloadEvent(outage.id, i % 2 ? 'balance.low' : 'balance.expiring', { object: 'balance', amount: 1000 + i, currency: 'eur', unit: 'cents' });
      events.push(id);
      deliveries.push((await deliveryOf(id)).id);
      await deliverDue();
      advance(2 * H); // events spread over the first 40 hours
    }
    while (await stepToNextAttempt(deliveries)) {
      /* until nothing is pending */
    }
    expect(now - start).toBeGreaterThan(48 * H);
    const statuses = await db().webhookDelivery.findMany({ where: { id: { in: deliveries } }, select: { status: true } });
    expect(statuses.every((d) => d.status === 'succeeded')).toBe(true);
    const ok = receivers.received('outage').filter((r) => Number(r.headers['webhook-timestamp']) * 1000 >= start + 48 * H);
    const delivered = new Set(ok.map((r) => verifyAsReceived(secret, r).id));
    expect([...delivered].sort()).toEqual([...events].sort());
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).status).toBe('active');
    await disableEndpoint(db(), { organizationId: outage.id }, endpoint.id);
  });

  it('re-reads the generation at each attempt, and sends balance snapshots as stored', async () => {
    receivers.set('reread', (_r, i) => (i === 0 ? { status: 500 } : { status: 200 }));
    const { endpoint, secret } = await endpointFor(org, 'test', 'reread');
    await generationEvent();
    await deliverDue();
    advance(40 * S);
    await deliverDue();
    const [a, b] = receivers.received('reread').map((r) => verify(secret, r));
    const urlExpiry = (e: ReturnType<typeof verify> | undefined) => (e?.data.object.output as { url_expires_at: number }[])[0]?.url_expires_at;
    expect(urlExpiry(b)).toBe((urlExpiry(a) as number) + 40);
    await disableEndpoint(db(), { organizationId: org.id }, endpoint.id);

    const live = await createTestOrg();
    const balance = await createEndpoint(db(), { organizationId: live.id }, { mode: 'live', url: receivers.url('balance'), events: ['balance.recharge_failed'] });
    const snapshot = { object: 'balance', amount: 120, currency: 'eur', unit: 'cents', failed_recharge: { amount: 5000, auto_recharge_enabled: false } };
    const eventId = await recordPayloadEvent(live.id, 'balance.recharge_failed', snapshot);
    await deliverDue();
    const [r] = receivers.received('balance');
    expect(verify(balance.secret, r as Received)).toEqual({ id: eventId, type: 'balance.recharge_failed', created_at: Math.floor(now / 1000), livemode: true, data: { object: snapshot } });
    await disableEndpoint(db(), { organizationId: live.id }, balance.endpoint.id);
  });

  it('rotation: both signatures for 24 h, a second rotation drops the first secret at once', async () => {
    const { endpoint, secret: first } = await endpointFor(org, 'test', 'rotate');
    const scope = { organizationId: org.id };
    const { secret: second } = await rotateSecret(db(), scope, endpoint.id);
    expect(second).not.toBe(first);
    await generationEvent();
    await deliverDue();
    let r = receivers.received('rotate').at(-1) as Received;
    expect(r.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    verify(first, r);
    verify(second, r);
    advance(H);
    const { secret: third } = await rotateSecret(db(), scope, endpoint.id);
    await generationEvent();
    await deliverDue();
    r = receivers.received('rotate').at(-1) as Received;
    expect(r.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    verify(third, r);
    verify(second, r);
    expect(() => verify(first, r)).toThrow();
    advance(24 * H);
    await generationEvent();
    await deliverDue();
    r = receivers.received('rotate').at(-1) as Received;
    expect(r.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    verify(third, r);
    expect(() => verify(second, r)).toThrow();
    // The secret never appears in clear in the database.
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(row)).not.toContain(third.slice(6, 30));
    await disableEndpoint(db(), scope, endpoint.id);
  });

  it('disable cancels planned deliveries; re-enabled, the endpoint receives only events after enabling', async () => {
    const scope = { organizationId: org.id };
    receivers.set('toggle', () => ({ status: 500 }));
    const { endpoint, secret } = await endpointFor(org, 'test', 'toggle');
    const before = (await generationEvent()) as string;
    await deliverDue();
    await disableEndpoint(db(), scope, endpoint.id);
    expect((await deliveryOf(before)).status).toBe('canceled');
    expect(await generationEvent()).toBeNull(); // produced for nobody: not produced at all
    advance(H);
    receivers.set('toggle', () => ({ status: 200 }));
    await enableEndpoint(db(), scope, endpoint.id);
    const after = (await generationEvent()) as string;
    advance(24 * H);
    await deliverDue();
    const ok = receivers.received('toggle').slice(1).map((r) => verify(secret, r).id);
    expect(ok).toEqual([after]);
    await disableEndpoint(db(), scope, endpoint.id);
  });

  it('resend replays once with the same webhook-id; a test event is a sample, sent once; both need an active endpoint', async () => {
    const scope = { organizationId: org.id };
    receivers.set('manual', () => ({ status: 200, body: 'x'.repeat(5000) }));
    const { endpoint, secret } = await endpointFor(org, 'test', 'manual', ['generation.succeeded', 'generation.failed']);
    const eventId = (await generationEvent()) as string;
    await deliverDue();
    const original = await deliveryOf(eventId);
    receivers.set('manual', () => ({ status: 500, body: 'down' }));
    const resent = await resendDelivery(db(), scope, original.id);
    expect(resent).toMatchObject({ kind: 'resend', status: 'failed', attempts: 1, event: { id: eventId } });
    const last = receivers.received('manual').at(-1) as Received;
    expect(last.headers['webhook-id']).toBe(eventId);
    verify(secret, last);
    advance(24 * H);
    await deliverDue();
    expect(receivers.received('manual')).toHaveLength(2); // never retried

    receivers.set('manual', () => ({ status: 200 }));
    expect(await refusalOf(sendTestEvent(db(), scope, endpoint.id, 'generation.canceled'))).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'type' });
    const test = await sendTestEvent(db(), scope, endpoint.id, 'generation.failed');
    expect(test).toMatchObject({ kind: 'test', status: 'succeeded', attempts: 1 });
    const sample = verify(secret, receivers.received('manual').at(-1) as Received);
    expect(sample).toMatchObject({ type: 'generation.failed', livemode: false, data: { object: { object: 'generation', status: 'failed', output: [] } } });
    expect(sample.data.object.id).toMatch(/^gen_test/);

    // The log: headers without secrets, the first KB of the answer.
    const log = await listDeliveries(db(), scope, endpoint.id);
    const first = log.find((d) => d.id === original.id);
    expect(first?.attempt_log[0]?.response_body).toHaveLength(1024);
    expect(first?.attempt_log[0]?.request_headers).toMatchObject({ 'webhook-id': eventId, 'user-agent': 'Roomtone-Webhooks/1.0', 'content-type': 'application/json' });
    expect(JSON.stringify(log)).not.toContain('whsec_');

    await disableEndpoint(db(), scope, endpoint.id);
    expect(await refusalOf(resendDelivery(db(), scope, original.id))).toMatchObject({ status: 409, code: 'webhook_endpoint_disabled' });
    expect(await refusalOf(sendTestEvent(db(), scope, endpoint.id, 'generation.failed'))).toMatchObject({ status: 409, code: 'webhook_endpoint_disabled' });
    expect(await refusalOf(resendDelivery(db(), { organizationId: (await createTestOrg()).id }, original.id))).toMatchObject({ status: 404 });
  });

  it('one slow receiver holds only its own slots: the others are delivered meanwhile', async () => {
    const scope = { organizationId: org.id };
    receivers.set('tarpit', () => 'hang');
    const slow = await endpointFor(org, 'test', 'tarpit');
    const fast = await endpointFor(org, 'test', 'fast');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await generationEvent()) as string);
    const worker = startWebhookWorker({ concurrency: 16, perEndpoint: 4, pollMs: 20 });
    const started = performance.now();
    await receivers.waitFor('fast', 30, 8_000);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(receivers.maxConcurrent('tarpit')).toBe(4);
    await disableEndpoint(db(), scope, slow.endpoint.id);
    // Its four attempts would otherwise hold the worker's stop until their 10 s answer deadline.
    receivers.release('tarpit');
    await worker.stop();
    await disableEndpoint(db(), scope, fast.endpoint.id);
  }, 60_000);

  it('a new event wakes an idle worker at once (NOTIFY at commit), without waiting for its poll', async () => {
    const scope = { organizationId: org.id };
    const { endpoint } = await endpointFor(org, 'test', 'woken');
    const worker = startWebhookWorker({ pollMs: 600_000 });
    try {
      // The first event shows the worker has claimed and delivered: it then rests for its 10-minute poll.
      await generationEvent();
      await receivers.waitFor('woken', 1, 30_000);
      await generationEvent();
      await receivers.waitFor('woken', 2, 30_000);
    } finally {
      await worker.stop();
      await disableEndpoint(db(), scope, endpoint.id);
    }
  }, 90_000);

  it('a worker and a dispatcher asked to stop while they claim stop at once, however long their poll', async () => {
    // Both loops' first claim is in flight when they return. Before, a claim that found nothing
    // then began a rest of the whole poll that no one woke (the CI flake of the test above:
    // stop() came while the claim after the second delivery was in flight). The clock is set
    // where nothing is due, so both claims find nothing.
    const at = now;
    setTime(Date.UTC(2001, 0, 1));
    try {
      await startWebhookWorker({ pollMs: 600_000 }).stop();
      await startWebhookDispatcher({ pollMs: 600_000 }).stop();
    } finally {
      setTime(at);
    }
  }, 15_000);

  it('a worker killed mid-delivery: the delivery is made again after its lease, not lost', async () => {
    const scope = { organizationId: org.id };
    receivers.set('killed', (_r, i) => (i === 0 ? 'hang' : { status: 200 }));
    const { endpoint, secret } = await endpointFor(org, 'test', 'killed');
    const eventId = (await generationEvent()) as string;
    const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'test/deliver-due.ts')], {
      cwd: root,
      env: { ...process.env, ROOMTONE_TEST_NOW: String(now) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    await receivers.waitFor('killed', 1, 30_000).catch((e: Error) => {
      throw new Error(`${e.message}\n${output}`);
    });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect((await deliveryOf(eventId)).status).toBe('pending');
    advance(LEASE_MS - S);
    await deliverDue();
    expect(receivers.received('killed')).toHaveLength(1); // still leased
    advance(2 * S);
    await deliverDue();
    const [a, b] = receivers.received('killed');
    expect(verify(secret, b as Received).id).toBe(verify(secret, a as Received).id);
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'succeeded', attempts: 1 });
    await disableEndpoint(db(), scope, endpoint.id);
  });

  it('the delivery log is kept 30 days', async () => {
    const events = await db().webhookEvent.count({ where: { organizationId: org.id } });
    expect(events).toBeGreaterThan(0);
    advance(29 * 24 * H);
    await pruneDeliveryLog(clock.now());
    const kept = await db().webhookEvent.count({ where: { organizationId: org.id } });
    expect(kept).toBeGreaterThan(0);
    advance(10 * 24 * H);
    await pruneDeliveryLog(clock.now());
    expect(await db().webhookEvent.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await db().webhookAttempt.count({ where: { endpoint: { organizationId: org.id } } })).toBe(0);
  });
});
