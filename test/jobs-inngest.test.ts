// @node-lines same: our generation and delivery jobs on the Inngest SDK's test engine: JavaScript on timers, which run under both lines in src/server/platform/deadline.test.ts
/**
 * Jobs on Inngest, executed with the SDK's own test engine (@inngest/test): the
 * served functions run their real step code on a fresh database; sleeps are mocked by step id
 * (the engine cannot wait them out). Events the application sends go to a local stand-in for
 * Inngest's event API (test/inngest-api.ts) and are read back from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { InngestTestEngine } from '@inngest/test';
import { freshDatabase, type TestDatabase } from './server-processes';
import { startInngestApi, type InngestApi } from './inngest-api';
import { startReceivers, type Receivers } from './webhook-receiver';
import { createTestOrg, type TestOrg } from './support';
import { insertGeneration } from './fixtures';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { resetConfigCache } from '@/server/platform/config';
import { blobStore } from '@/server/capabilities/storage/storage';
import { createGeneration } from '@/server/capabilities/creations/create';
import { FileParts } from '@/server/capabilities/creations/images';
import { cancelGeneration } from '@/server/capabilities/generations/generations';
import { storedInputImages, storedOutputs } from '@/server/capabilities/generation-object/stored-json';
import { recordGenerationEvent } from '@/server/capabilities/webhooks/events';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { JOB_EVENTS } from '@/server/platform/jobs/job';
import { generationRun, webhookDelivery } from '@/server/jobs/definitions';
import { servedInngestFunction } from '@/server/jobs/inngest-endpoint';
import { jobs } from '@/server/platform/jobs/client';
import { autoRechargeRequested } from '@/server/capabilities/billing/billing-jobs';
import { transaction } from '@/server/platform/db';

const EVENT_KEY = 'test-event-key';
let database: TestDatabase;
let inngest: InngestApi;
let receivers: Receivers;
let org: TestOrg;

beforeAll(async () => {
  database = await freshDatabase('inngest_engine');
  inngest = await startInngestApi(EVENT_KEY);
  receivers = await startReceivers();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    JOBS_PROVIDER: 'inngest',
    INNGEST_EVENT_KEY: EVENT_KEY,
    INNGEST_SIGNING_KEY: 'signkey-test-0123456789abcdef0123456789abcdef',
    INNGEST_BASE_URL: inngest.url,
    DEV_ALLOW_LOOPBACK_URLS: 'true',
  });
  resetConfigCache();
  org = await createTestOrg({ credit: 1_000 });
});

afterAll(async () => {
  await receivers?.close();
  await inngest?.close();
  await database?.drop(); // and its DATA_DIR
});

const scope = () => ({ organizationId: org.id, mode: 'live' as const });

/** A live upscale admitted through the service layer: charged, stored, its admission event sent to Inngest. */
async function admitUpscale(): Promise<{ id: string; event: { name: string; data: Record<string, unknown> } }> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8899aa' } }).png().toBuffer();
  const parts = new FileParts(new Map([['image', png]]), 'nonce');
  const ctx = {
    caller: { ...scope(), permissions: new Set(['upscales' as const]), tier: 9, apiKeyId: null },
    channel: 'v1' as const,
    requestId: newId('req'),
    idempotencyKey: null,
    parts,
    receivedAt: Date.now(),
  };
  const result = await createGeneration(ctx, { type: 'upscale', input: { image: parts.reference('image'), scale: 'x2' } }, { waitMs: 0 });
  const id = result.generation.id;
  const event = await inngest.waitForEvent(JOB_EVENTS.generationAdmitted, (e) => e.data.generationId === id);
  return { id, event };
}

const balance = async () => (await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents;

describe('generation run on Inngest (InngestTestEngine, real steps)', () => {
  const engine = () => new InngestTestEngine({ function: servedInngestFunction(generationRun) });

  it('admission sends the event (keyed by organization); the run succeeds and reports its end', async () => {
    const before = await balance();
    const { id, event } = await admitUpscale();
    expect(event).toMatchObject({ id: `generation-${id}`, data: { generationId: id, organizationId: org.id } });
    expect(await balance()).toBe(before - 10);

    const { result, ctx, error } = await engine().execute({ events: [event as never] });
    expect(error).toBeUndefined();
    expect(result).toBe('succeeded');
    expect(ctx.step.run.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['start', 'generate', 'finish']));
    const row = await db().generation.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, amountRefunded: 0 });
    const [output] = storedOutputs(row.outputs);
    expect(output).toMatchObject({ contentType: expect.stringMatching(/^image\//), width: 128, height: 96 });
    expect((await blobStore().get(output!.key))?.length).toBeGreaterThan(0);
    await inngest.waitForEvent(JOB_EVENTS.generationEnded, (e) => e.data.generationId === id && e.data.status === 'succeeded');
    expect(await balance()).toBe(before - 10);
  });

  it('an engine failure ends it failed with a full refund (no step error: both providers end it the same way)', async () => {
    const before = await balance();
    const { id, event } = await admitUpscale();
    const row = await db().generation.findUniqueOrThrow({ where: { id } });
    for (const input of storedInputImages(row.inputImages)) await blobStore().delete(input.key); // the engine cannot read its input

    const { result, ctx } = await engine().execute({ events: [event as never] });
    expect(result).toBe('failed');
    expect(ctx.step.run.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['start', 'generate', 'fail']));
    expect(ctx.step.run.mock.calls.map((c) => c[0])).not.toContain('finish');
    expect(await db().generation.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', errorCode: 'generation_failed', amountRefunded: 10 });
    expect(await balance()).toBe(before);
    await inngest.waitForEvent(JOB_EVENTS.generationEnded, (e) => e.data.generationId === id && e.data.status === 'failed');
  });

  it('a generation canceled before it starts sends the cancel event its run waits on, and a run that still starts does nothing', async () => {
    const before = await balance();
    const { id, event } = await admitUpscale();
    await cancelGeneration(scope(), id, new Set(['upscales']));
    const cancel = await inngest.waitForEvent(JOB_EVENTS.generationCanceled, (e) => e.data.generationId === id);
    expect(cancel.data).toEqual({ generationId: id, organizationId: org.id });

    const { result, ctx } = await engine().execute({ events: [event as never] });
    expect(result).toBe('not_started');
    expect(ctx.step.run.mock.calls.map((c) => c[0])).toEqual(['start']);
    expect(await db().generation.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'canceled', startedAt: null, amountRefunded: 10 });
    expect(await balance()).toBe(before); // refunded once, by the cancel
  });

  it('a finished step is not run again: the run resumes from the stored state', async () => {
    const { id, event } = await admitUpscale();
    // Inngest hands the run the results of its finished steps; `start` (which counts attempts) is one of them.
    const { result } = await engine().execute({ events: [event as never], steps: [{ id: 'start', handler: () => true }] });
    expect(result).toBe('succeeded');
    // markStarted never ran: no attempt counted, no start time set by this run.
    expect(await db().generation.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'succeeded', attempts: 0, startedAt: null });
  });
});

describe('webhook delivery on Inngest: the retry schedule as sleeps', () => {
  it('attempts, sleeps until each planned retry (30 s, then 1 min, ±10 %), and stops at the first success', async () => {
    receivers.set('inngest-flaky', (_r, index) => (index < 2 ? { status: 503 } : { status: 200, body: 'ok' }));
    const { endpoint, secret } = await createEndpoint(db(), { organizationId: org.id }, { mode: 'live', url: receivers.url('inngest-flaky') });
    const generation = await insertGeneration({ organizationId: org.id, mode: 'live', status: 'succeeded', withOutput: true });
    const eventId = await db().$transaction((tx) => recordGenerationEvent(tx, generation, 'generation.succeeded'));
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: eventId!, endpointId: endpoint.id } });

    const t = new InngestTestEngine({ function: servedInngestFunction(webhookDelivery) });
    const { result, ctx } = await t.execute({
      events: [{ name: JOB_EVENTS.webhookDeliveryCreated, data: { deliveryId: delivery.id, endpointId: endpoint.id } }] as never,
      steps: [
        { id: 'retry-1', handler: () => null },
        { id: 'retry-2', handler: () => null },
      ],
    });
    expect(result).toMatchObject({ deliveryId: delivery.id, number: 3, succeeded: true, status: 'succeeded' });
    expect(ctx.step.run.mock.calls.map((c) => c[0])).toEqual(expect.arrayContaining(['attempt-1', 'attempt-2', 'attempt-3']));
    expect(ctx.step.run.mock.calls.map((c) => c[0])).not.toContain('attempt-4');

    const attempts = await db().webhookAttempt.findMany({ where: { deliveryId: delivery.id }, orderBy: { number: 'asc' } });
    expect(attempts.map((a) => [a.number, a.statusCode, a.succeeded])).toEqual([[1, 503, false], [2, 503, false], [3, 200, true]]);
    const sleeps = ctx.step.sleepUntil.mock.calls.map((c) => [c[0], new Date(c[1] as Date).getTime()] as const);
    expect(sleeps.map(([name]) => name)).toEqual(['retry-1', 'retry-2']);
    const after = (i: number) => sleeps[i]![1] - attempts[i]!.startedAt.getTime();
    expect(after(0)).toBeGreaterThanOrEqual(27_000);
    expect(after(0)).toBeLessThanOrEqual(33_000 + 1_000);
    expect(after(1)).toBeGreaterThanOrEqual(54_000);
    expect(after(1)).toBeLessThanOrEqual(66_000 + 1_000);

    const arrived = receivers.received('inngest-flaky');
    expect(arrived).toHaveLength(3);
    for (const r of arrived) expect(new Webhook(secret).verify(r.body, r.headers)).toMatchObject({ id: eventId, type: 'generation.succeeded' });
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: 'succeeded', attempts: 3 });
  });
});

describe('jobs() on Inngest', () => {
  it('is chosen by JOBS_PROVIDER; a run triggered in a transaction is asked for when it has ended (10 s later), never inside it', async () => {
    expect(jobs().name).toBe('inngest');
    const attemptId = newId('rch');
    const before = Date.now();
    await transaction(async (tx) => {
      await jobs().trigger(autoRechargeRequested(attemptId), { tx });
    });
    const event = await inngest.waitForEvent(JOB_EVENTS.autoRechargeRequested, (e) => e.data.attemptId === attemptId);
    expect(event).toMatchObject({ id: `auto-recharge-${attemptId}`, data: { attemptId } });
    expect(event.ts).toBeGreaterThanOrEqual(before + 10_000);
    expect(event.ts).toBeLessThanOrEqual(Date.now() + 10_000);
  });

  it('resend hands the event to Inngest again under the same id (Inngest keeps one run)', async () => {
    const attemptId = newId('rch');
    expect(await jobs().resend(autoRechargeRequested(attemptId))).toBe(true);
    expect(await jobs().resend(autoRechargeRequested(attemptId))).toBe(true);
    const sent = inngest.events(JOB_EVENTS.autoRechargeRequested).filter((e) => e.data.attemptId === attemptId);
    expect(sent.map((e) => e.id)).toEqual([`auto-recharge-${attemptId}`, `auto-recharge-${attemptId}`]);
  });
});
