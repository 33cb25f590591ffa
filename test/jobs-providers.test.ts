// @node-lines same: the jobs port's rules on pg-boss and on the Inngest SDK's test engine, JavaScript on the database client and timers; pg-boss's workers run under both lines in test/worker.test.ts, timers in src/server/platform/deadline.test.ts
// @worker-process shared: pg-boss in this process on a queue of its own, stopped after it, and Inngest's test engine; it gives the clock it moves back and sets no environment
/**
 * The provider interface, one behavioural suite run against both providers: a job
 * definition's handler, written once against `io`, runs under pg-boss (a real pg-boss queue on
 * the test database, its retry included, steps stored in JobStep) and under Inngest (the SDK's
 * test engine, whose memoized step state is what Inngest hands a retried run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PgBoss } from 'pg-boss';
import { InngestTestEngine } from '@inngest/test';
import { databaseUrl, db, transaction } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { jobs } from '@/server/platform/jobs/client';
import { AUTO_RECHARGE_QUEUE, autoRechargeRequested, autoRechargeJob } from '@/server/capabilities/billing/billing-jobs';
import { declareJob, JOB_EVENTS } from '@/server/platform/jobs/job';
import { runIdFor } from '@/server/platform/jobs/run-id';
import { webhookDeliveryCreated } from '@/server/capabilities/webhooks/delivery-job';
import { queueClient } from '@/server/platform/jobs/providers/pgboss';
import { clock } from '@/server/platform/clock';
import { defineJob, type JobDefinition } from '@/server/platform/jobs/job';
import { scheduledJob } from '@/server/jobs/definitions/maintenance';
import { runPgBossJob } from '@/server/platform/jobs/providers/pgboss';
import { runKey } from '@/server/platform/jobs/providers/pgboss-io';
import { inngestFunction } from '@/server/platform/jobs/providers/inngest-functions';
import { createInngestClient } from '@/server/platform/jobs/providers/inngest-client';

/** What a test job did, per run: which step bodies actually executed. */
const executed = new Map<string, string[]>();
const failOnce = new Set<string>();

const probe = defineJob({
  id: 'provider-probe',
  version: 1,
  name: 'Provider probe',
  schema: z.object({ run: z.string() }),
  trigger: { event: 'test/provider.probe' },
  retries: 2,
  handler: async ({ run }, io) => {
    const did = (step: string) => executed.set(run, [...(executed.get(run) ?? []), step]);
    const a = await io.run('a', async () => {
      did('a');
      return { n: 2, at: new Date('2026-01-02T03:04:05.000Z') };
    });
    await io.sleep('pause', 20);
    const b = await io.run('b', async () => {
      did('b');
      if (failOnce.delete(run)) throw new Error('b failed (first attempt)');
      return a.n * 21;
    });
    return { b, at: a.at };
  },
});

/**
 * A scheduled definition (the maintenance jobs' factory): both steps report the run's `now`;
 * the second fails once after moving the clock an hour on, as a retry minutes later would see it.
 */
const HOUR = 3600_000;
let nowProbeFailsNext = false;
const nowProbe = scheduledJob({
  id: 'now-probe',
  name: 'Now probe',
  steps: async (now, io) => {
    const first = await io.run('first', async () => now.toISOString());
    const second = await io.run('second', async () => {
      if (nowProbeFailsNext) {
        nowProbeFailsNext = false;
        clock.advance(HOUR);
        throw new Error('second failed (first attempt)');
      }
      return now.toISOString();
    });
    return { first, second };
  },
});

interface Outcome {
  result: unknown;
  executed: string[];
}

/** A provider as this suite sees it: run the probe to its end, the first attempt of `b` failing if asked. */
interface Runner {
  name: string;
  run(run: string): Promise<Outcome>;
}

let boss: PgBoss;
const QUEUE = `test.provider-probe.${process.pid}`;
const finished = new Map<string, (result: unknown) => void>();
const jobIds = new Map<string, string>();

const pgboss: Runner = {
  name: 'pgboss',
  async run(run) {
    const done = new Promise<unknown>((resolve) => finished.set(run, resolve));
    jobIds.set(run, (await boss.send(QUEUE, { run }))!);
    return { result: await done, executed: executed.get(run) ?? [] };
  },
};

const inngest: Runner = {
  name: 'inngest',
  async run(run) {
    const engine = new InngestTestEngine({ function: inngestFunction(createInngestClient(), probe as unknown as JobDefinition) });
    const events = [{ name: 'test/provider.probe', data: { run } }] as never;
    let attempt = await engine.execute({ events, steps: [{ id: 'pause', handler: () => null }] });
    if (attempt.error) {
      // Inngest retries the run with the state of its finished steps: the stored results are handed back, not recomputed.
      const stored = await Promise.all(Object.entries(attempt.state).map(async ([id, p]) => ({ id, value: await p.then((v) => ({ ok: true, v }), () => ({ ok: false, v: null })) })));
      const steps = stored.filter((s) => s.value.ok).map((s) => ({ id: s.id, idIsHashed: true, handler: () => s.value.v }));
      attempt = await engine.execute({ events, steps: [...steps, { id: 'pause', handler: () => null }] });
    }
    return { result: attempt.result, executed: executed.get(run) ?? [] };
  },
};

beforeAll(async () => {
  boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss' });
  await boss.start();
  await boss.createQueue(QUEUE, { retryLimit: 2, retryDelay: 0 });
  await boss.work<{ run: string }>(QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
    if (!job) return;
    const definition = (job.data as { definition?: string }).definition === nowProbe.id ? nowProbe : probe;
    const result = await runPgBossJob(definition as unknown as JobDefinition, job);
    finished.get(job.data.run)?.(result);
  });
});

afterAll(async () => {
  clock.reset();
  await boss?.deleteQueue(QUEUE).catch(() => undefined);
  await boss?.stop({ graceful: false });
});

describe.each([pgboss, inngest])('job provider $name', (runner) => {
  it('runs the steps in order and answers the handler result; step results are JSON (a Date comes back as its ISO string)', async () => {
    const run = randomUUID();
    const outcome = await runner.run(run);
    expect(outcome).toEqual({ result: { b: 42, at: '2026-01-02T03:04:05.000Z' }, executed: ['a', 'b'] });
  });

  it('a retried run does not redo the steps that finished: only the failed step runs again', async () => {
    const run = randomUUID();
    failOnce.add(run);
    const outcome = await runner.run(run);
    expect(outcome).toEqual({ result: { b: 42, at: '2026-01-02T03:04:05.000Z' }, executed: ['a', 'b', 'b'] });
  });
});

describe('pg-boss step store', () => {
  it('stores each finished step once under the run key (definition, version, pg-boss job id); the retry reused it', async () => {
    const run = randomUUID();
    failOnce.add(run);
    await pgboss.run(run);
    const steps = await db().jobStep.findMany({ where: { runKey: runKey(probe, jobIds.get(run)!) }, orderBy: { name: 'asc' } });
    expect(steps.map((s) => [s.name, s.output])).toEqual([['a', { n: 2, at: '2026-01-02T03:04:05.000Z' }], ['b', 42]]);
    expect(executed.get(run)).toEqual(['a', 'b', 'b']);
  });
});

describe('scheduled definitions on pg-boss', () => {
  it('read `now` in a memoized step: the retried run works at its first attempt\'s instant, not an hour later', async () => {
    const run = randomUUID();
    nowProbeFailsNext = true;
    const before = clock.nowMs();
    const done = new Promise<unknown>((resolve) => finished.set(run, resolve));
    const jobId = (await boss.send(QUEUE, { run, definition: nowProbe.id }))!;
    const result = (await done) as { first: string; second: string };
    // The first attempt failed in `second` after moving the clock an hour on: a fresh read would be that late.
    expect(nowProbeFailsNext).toBe(false);
    expect(clock.nowMs() - before).toBeGreaterThanOrEqual(HOUR);
    expect(result.second).toBe(result.first);
    expect(Date.parse(result.first)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(result.first)).toBeLessThan(before + HOUR);
    const steps = await db().jobStep.findMany({ where: { runKey: runKey(nowProbe, jobId) }, orderBy: { name: 'asc' } });
    expect(steps.map((s) => [s.name, s.output])).toEqual([
      ['first', result.first],
      ['now', Date.parse(result.first)],
      ['second', result.second],
    ]);
  });
});

/**
 * The pg-boss provider behind `jobs()`: an event starts the job whose definition it triggers, in
 * the queue that definition declares, under the definition's deterministic run id. The
 * auto-recharge job is the probe: the test server's worker finds no such attempt and does nothing.
 */
describe('jobs() on pg-boss: events routed by the definitions', () => {
  const runsOf = async (attemptId: string) => (await queueClient()).findJobs(AUTO_RECHARGE_QUEUE, { id: autoRechargeJob.queue!.runId!({ attemptId }) });

  it('chooses pg-boss by default', () => {
    expect(jobs().name).toBe('pgboss');
  });

  it('an event starts one run in the declared queue, however often it is triggered', async () => {
    const attemptId = newId('rch');
    await jobs().trigger(autoRechargeRequested(attemptId));
    await jobs().trigger([autoRechargeRequested(attemptId)]);
    const runs = await runsOf(attemptId);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.data).toEqual({ attemptId });
  });

  it('resend sends only when no run exists for the event', async () => {
    const attemptId = newId('rch');
    expect(await jobs().resend(autoRechargeRequested(attemptId))).toBe(true);
    expect(await jobs().resend(autoRechargeRequested(attemptId))).toBe(false);
    expect(await runsOf(attemptId)).toHaveLength(1);
  });

  it('with a transaction, the run exists only if the transaction commits', async () => {
    await queueClient(); // started: the run is written in the transaction, not sent later
    const rolledBack = newId('rch');
    await expect(
      transaction(async (tx) => {
        await jobs().trigger(autoRechargeRequested(rolledBack), { tx });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await runsOf(rolledBack)).toHaveLength(0);
    const committed = newId('rch');
    await transaction((tx) => jobs().trigger(autoRechargeRequested(committed), { tx }));
    expect(await runsOf(committed)).toHaveLength(1);
  });

  it('an event no queued job listens to starts nothing (generation.ended; a delivery, which its own worker claims)', async () => {
    await expect(jobs().trigger({ name: JOB_EVENTS.generationEnded, data: { generationId: 'gen_x', organizationId: 'org_x', status: 'succeeded' } })).resolves.toBeUndefined();
    expect(await jobs().resend({ name: JOB_EVENTS.generationEnded, data: { generationId: 'gen_x' } })).toBe(false);
    expect(await jobs().resend(webhookDeliveryCreated({ id: 'whd_x', endpointId: 'we_x' }))).toBe(false);
  });

  it('a job declared after the queue client started gets its queue at its first trigger, in a transaction as outside one', async () => {
    const boss = await queueClient();
    const queue = `test.late-${randomUUID().slice(0, 8)}`;
    const event = `test/${queue}`;
    const late = declareJob({
      id: queue,
      version: 1,
      name: 'Declared late',
      schema: z.object({ n: z.string() }),
      trigger: { event },
      retries: 0,
      queue: {
        queues: () => [{ name: queue, options: { retryLimit: 0, expireInSeconds: 60, deleteAfterSeconds: 3600 }, worker: { slots: 0 } }],
        runId: ({ n }) => runIdFor(`${queue}:${n}`),
      },
    });
    expect(await boss.getQueue(queue)).toBeNull();
    await transaction((tx) => jobs().trigger({ name: event, data: { n: 'in-tx' } }, { tx }));
    await jobs().trigger({ name: event, data: { n: 'outside' } });
    for (const n of ['in-tx', 'outside']) {
      const runs = await boss.findJobs(queue, { id: late.queue!.runId!({ n }) });
      expect(runs.map((run) => run.data)).toEqual([{ n }]);
    }
    await boss.deleteQueue(queue);
  });
});
