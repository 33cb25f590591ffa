import type { ConstructorOptions, Job, PgBoss } from 'pg-boss';
import { databaseUrl, sql, type DbTx } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { declaredJobs, type JobDeclaration, type JobDefinition, type JobEvent, type QueueSpec, type Stoppable } from '../job';
import { memoizedIo, runKey } from './pgboss-io';
import { logQueueError } from './queue-errors';
import type { JobProvider, QueueDepth } from './provider';

/**
 * The pg-boss provider (default, zero setup): queues on the application's PostgreSQL. Which
 * queue an event's run waits in is what the job definitions declare (`queue`: its queues, the
 * placement of a run, a deterministic run id); an event no queued job listens to is dropped.
 * Scheduled definitions share the queue they declare and run one after another on each tick.
 */

const SCHEMA = 'pgboss';
/** Delay of a run sent outside its transaction: long enough for that transaction to have ended. */
const AFTER_TRANSACTION_SECONDS = 10;

let boss: Promise<PgBoss> | undefined;

/**
 * pg-boss's options on our database and schema. Its pool keeps idle connections as ours does
 * (DATABASE_POOL_IDLE_MS): pg-boss hands these options to its pg.Pool, whose idle time its
 * types leave out.
 */
function bossOptions(options: ConstructorOptions): ConstructorOptions {
  const withPool: ConstructorOptions & { idleTimeoutMillis: number } = { ...options, connectionString: databaseUrl(), schema: SCHEMA, idleTimeoutMillis: config().DATABASE_POOL_IDLE_MS };
  return withPool;
}

/**
 * A send-capable pg-boss instance (no supervision, no cron): what a web process needs to
 * enqueue. Workers start their own (`startWorkers`).
 */
export function queueClient(): Promise<PgBoss> {
  boss ??= (async () => {
    // Loaded on first use: a CLI command that only writes rows never starts a queue.
    const { PgBoss } = await import('pg-boss');
    const client = new PgBoss(bossOptions({ supervise: false, schedule: false, max: 3 }));
    client.on('error', (error: unknown) => logQueueError(error));
    await client.start();
    await ensureQueues(client, declaredJobs());
    return client;
  })().catch((error: unknown) => {
    boss = undefined;
    throw error;
  });
  return boss;
}

/**
 * The queues this process has created or checked, once each: the client checks those of every
 * job declared when it starts, and a job declared later gets its own at its first send.
 */
const ensured = new Map<string, Promise<void>>();

async function ensureQueues(boss: PgBoss, jobs: readonly JobDeclaration[]): Promise<void> {
  for (const job of jobs) {
    for (const spec of job.queue?.queues() ?? []) {
      let queue = ensured.get(spec.name);
      if (!queue) {
        queue = ensureQueue(boss, spec).catch((error: unknown) => {
          ensured.delete(spec.name);
          throw error;
        });
        ensured.set(spec.name, queue);
      }
      await queue;
    }
  }
}

async function ensureQueue(boss: PgBoss, { name, options }: QueueSpec): Promise<void> {
  const existing = await boss.getQueue(name);
  if (!existing) await boss.createQueue(name, options).catch(() => undefined);
  // Databases from before the option.
  else if (Boolean(existing.notify) !== Boolean(options.notify)) await boss.updateQueue(name, { notify: Boolean(options.notify) });
}

/** The queued jobs an event starts (the declared jobs it triggers). */
function triggered(event: JobEvent): JobDeclaration[] {
  return declaredJobs().filter((job) => job.queue && 'event' in job.trigger && job.trigger.event === event.name);
}

async function send(job: JobDeclaration, event: JobEvent, tx: DbTx | undefined): Promise<void> {
  const queue = job.queue!;
  const payload = job.schema.parse(event.data);
  const placement = queue.place ? await queue.place(payload) : { queue: queue.queues()[0]!.name };
  if (!placement) return; // its record is gone: nothing to run
  const options = { ...(queue.runId ? { id: queue.runId(payload) } : {}), ...(placement.priority !== undefined ? { priority: placement.priority } : {}) };
  if (!tx) {
    const boss = await queueClient();
    await ensureQueues(boss, [job]);
    await boss.send(placement.queue, event.data, options);
    return;
  }
  await sendInTransaction(tx, job, placement.queue, event.data, options);
}

/**
 * The run is written in the caller's transaction (pg-boss's `db` option), so it exists if and
 * only if that transaction commits. Inside a savepoint: a failure here never rolls back the
 * caller's work. pg-boss is never started inside the transaction (that can take seconds): while
 * the process's queue client is still starting, the run is sent from outside, starting 10 s
 * later, when the transaction has committed or rolled back (a run without its record does
 * nothing). If everything fails, the record stays and the sweeper triggers it again.
 */
async function sendInTransaction(tx: DbTx, job: JobDeclaration, queue: string, data: object, options: { id?: string; priority?: number }): Promise<void> {
  const starting = queueClient();
  const boss = await Promise.race([starting, new Promise<null>((resolve) => setImmediate(() => resolve(null)))]).catch(() => null);
  if (!boss) {
    void starting
      .then(async (b) => {
        await ensureQueues(b, [job]);
        return b.send(queue, data, { ...options, startAfter: AFTER_TRANSACTION_SECONDS });
      })
      .catch((error: unknown) => log.warn('job not sent; the sweeper will send it', { queue, id: options.id, error: String(error) }));
    return;
  }
  try {
    await ensureQueues(boss, [job]);
  } catch (error) {
    log.warn('job not sent; the sweeper will send it', { queue, id: options.id, error: String(error) });
    return;
  }
  await tx.$executeRawUnsafe('savepoint job_send');
  try {
    await boss.send(queue, data, { ...options, db: { executeSql: async (text: string, values: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }) } });
    await tx.$executeRawUnsafe('release savepoint job_send');
  } catch (error) {
    await tx.$executeRawUnsafe('rollback to savepoint job_send');
    log.warn('job not sent; the sweeper will send it', { queue, id: options.id, error: String(error) });
  }
}

/** Whether a run of this job for this payload waits, runs or is kept in any of its queues. */
async function hasRun(job: JobDeclaration, data: unknown): Promise<boolean> {
  const queue = job.queue!;
  if (!queue.runId) return false; // runs without an id cannot be found again
  const id = queue.runId(job.schema.parse(data));
  const boss = await queueClient();
  await ensureQueues(boss, [job]);
  for (const { name } of queue.queues()) {
    if ((await boss.findJobs(name, { id, limit: 1 })).length > 0) return true;
  }
  return false;
}

export const pgBossProvider: JobProvider = {
  name: 'pgboss',
  async trigger(events, options = {}) {
    for (const event of Array.isArray(events) ? events : [events]) {
      for (const job of triggered(event)) await send(job, event, options.tx);
    }
  },
  async resend(event) {
    let sent = false;
    for (const job of triggered(event)) {
      if (await hasRun(job, event.data)) continue;
      await send(job, event, undefined);
      sent = true;
    }
    return sent;
  },
  // A waiting run finds its record canceled when it starts (a conditional UPDATE decides) and
  // ends without work; taking it out of pg-boss as well would race a worker fetching it.
  cancel: async () => undefined,
  startWorkers,
  waitingJobs,
};

/** Every queue, with 0 when nothing waits (a queue's jobs are rows of pgboss.job): one query. */
async function waitingJobs(): Promise<QueueDepth[]> {
  const rows = await sql<{ name: string; waiting: bigint; oldest: number | null }>(
    `select q.name, count(j.id) filter (where j.state in ('created', 'retry')) as waiting,
            coalesce(extract(epoch from now() - min(j.created_on) filter (where j.state in ('created', 'retry'))), 0)::float8 as oldest
       from ${SCHEMA}.queue q left join ${SCHEMA}.job j on j.name = q.name group by q.name`,
    [],
  );
  return rows.map((row) => ({ queue: row.name, waiting: Number(row.waiting), oldestSeconds: row.oldest ?? 0 }));
}

/**
 * Run one pg-boss job through its definition: payload checked with the definition's schema,
 * steps memoized under the job's id (a retry of this job skips what finished). Events the run
 * emits are triggered like the application's own.
 */
export async function runPgBossJob<R>(definition: JobDefinition<never, R> | JobDefinition, job: Pick<Job<unknown>, 'id' | 'data'>): Promise<R> {
  const d = definition as JobDefinition;
  const payload = d.schema.parse(job.data ?? {});
  const context = { job: d.id, ...(typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {}) };
  return (await d.handler(payload, memoizedIo(runKey(d, job.id), (event) => pgBossProvider.trigger(event), context))) as R;
}

/**
 * This process's workers: each declared queue on its slots (a sent job wakes its worker by
 * NOTIFY where the queue asks for it, a finished job its own slot, a poll backs both up), the
 * scheduled definitions on their queue's schedule, and the loops of jobs kept on their own table.
 */
async function startWorkers(definitions: readonly JobDefinition[]): Promise<Stoppable> {
  const { PgBoss } = await import('pg-boss');
  // useListenNotify: queues created with `notify` wake their workers when a job is sent.
  const boss = new PgBoss(bossOptions({ useListenNotify: true }));
  boss.on('error', (error: unknown) => logQueueError(error));
  await boss.start();
  await ensureQueues(boss, definitions);

  const byQueue = new Map<string, { spec: QueueSpec; definitions: JobDefinition[] }>();
  for (const definition of definitions) {
    for (const spec of definition.queue?.queues() ?? []) {
      const entry = byQueue.get(spec.name) ?? { spec, definitions: [] };
      entry.definitions.push(definition);
      byQueue.set(spec.name, entry);
    }
  }
  for (const { spec, definitions: onQueue } of byQueue.values()) {
    const { slots, ...polling } = spec.worker; // 0 slots: this process leaves the queue to other workers
    // One pg-boss worker per slot, each woken by its own finished job: a slot that frees while
    // runs wait takes the next at once. pg-boss alone waits out the rest of its poll interval
    // after a job (5 s behind NOTIFY for the generation queues: the NOTIFY of a run sent earlier
    // was spent on the fetch before), so queued runs started about 5 s apart on each slot
    // (bench/sections/scheduling.ts).
    for (let slot = 0; slot < slots; slot++) {
      let workerId: string | null = null;
      workerId = await boss.work(spec.name, { localConcurrency: 1, ...polling }, async ([job]) => {
        if (!job) return;
        try {
          for (const definition of onQueue) await runPgBossJob(definition, job);
        } finally {
          // Fetch again as soon as this handler returns (an empty fetch then polls as usual).
          if (workerId !== null) boss.notifyWorker(workerId);
        }
      });
    }
  }
  for (const definition of definitions) {
    if ('cron' in definition.trigger) for (const { name } of definition.queue?.queues() ?? []) await boss.schedule(name, definition.trigger.cron);
  }
  // A database from a release that swept auto-recharges on a schedule of their own still holds
  // that schedule; the sweeper does that work, so it must not fire.
  await boss.unschedule('billing.auto-recharge-sweep').catch(() => undefined);
  const loops = definitions.flatMap((definition) => (definition.ownTable ? [definition.ownTable.claimLoop()] : []));
  for (const definition of definitions) definition.lifecycle?.warm();

  return {
    async stop() {
      // Runs in flight are interrupted first (their jobs retried); waits for each to get there.
      const interrupted = Promise.all(definitions.map((d) => d.lifecycle?.interrupt()));
      await Promise.all([boss.stop({ graceful: true, timeout: 10_000 }), ...loops.map((loop) => loop.stop()), interrupted]);
      await Promise.all(definitions.map((d) => d.lifecycle?.close())).catch(() => undefined);
    },
  };
}
