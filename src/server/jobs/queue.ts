import { createHash } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import { databaseUrl } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import type { CostClass } from '@/server/engine/cost-class';
import { config } from '@/server/platform/config';
import { db } from '@/server/platform/db';
import { placeGeneration } from './schedule';
import { JOB_EVENTS } from './definitions/job';
import { sendInngestEvents } from './providers/inngest-events';

export function usesInngest(): boolean {
  return config().JOBS_PROVIDER === 'inngest';
}

/**
 * The jobs port. Jobs are defined once (src/server/jobs/definitions/); this module sends work
 * to the configured provider: pg-boss queues on the application's PostgreSQL (default), or
 * events to Inngest (JOBS_PROVIDER=inngest), whose functions are served at /api/inngest.
 */
export const QUEUES = {
  generationLight: 'generation.light',
  generationHeavy: 'generation.heavy',
  generationRemote: 'generation.remote',
  maintenance: 'maintenance.run',
} as const;

/** Generations wait in the queue of their cost class (see schedule.ts). */
export const GENERATION_QUEUES: Readonly<Record<CostClass, string>> = { light: QUEUES.generationLight, heavy: QUEUES.generationHeavy, remote: QUEUES.generationRemote };

/**
 * A running generation's worker beats every half of this; a job without a beat for this long is
 * presumed lost with its worker (kill -9, a lost machine) and retried at the supervisor's next
 * pass (every minute), long before its 15-minute expiry.
 */
const GENERATION_HEARTBEAT_SECONDS = 30;

const SCHEMA = 'pgboss';

const state = globalThis as unknown as { roomtoneBoss?: Promise<PgBoss> };

/**
 * A send-capable pg-boss instance (no supervision, no cron): what the web process needs to
 * enqueue. Workers use `startWorkers` instead.
 */
export function queueClient(): Promise<PgBoss> {
  state.roomtoneBoss ??= (async () => {
    // Loaded on first use: a CLI command that only writes rows never starts a queue.
    const { PgBoss } = await import('pg-boss');
    const boss = new PgBoss({ connectionString: databaseUrl(), schema: SCHEMA, supervise: false, schedule: false, max: 3 });
    boss.on('error', (error: unknown) => log.error('job queue error', { error: String(error) }));
    await boss.start();
    await ensureQueues(boss);
    return boss;
  })().catch((error: unknown) => {
    state.roomtoneBoss = undefined;
    throw error;
  });
  return state.roomtoneBoss;
}

export async function ensureQueues(boss: PgBoss): Promise<void> {
  // A generation job that outlives 15 minutes, or stops beating, is presumed lost with its worker
  // and retried; the handler is idempotent (conditional start, deterministic output keys).
  // `notify`: sending a generation job wakes an idle worker at once (a transactional
  // pg_notify) instead of at its next poll, half a second later at worst.
  const generation = { retryLimit: 2, retryDelay: 5, expireInSeconds: 15 * 60, heartbeatSeconds: GENERATION_HEARTBEAT_SECONDS, deleteAfterSeconds: 7 * 24 * 3600, notify: true };
  for (const [name, options] of [
    ...Object.values(GENERATION_QUEUES).map((queue) => [queue, generation] as const),
    [QUEUES.maintenance, { retryLimit: 1, expireInSeconds: 10 * 60, deleteAfterSeconds: 24 * 3600, notify: false }],
  ] as const) {
    const existing = await boss.getQueue(name);
    if (!existing) await boss.createQueue(name, options).catch(() => undefined);
    else if (Boolean(existing.notify) !== options.notify) await boss.updateQueue(name, { notify: options.notify }); // databases from before the option
  }
}

/** Deterministic job id per generation: enqueuing twice (sweeper, retries) is a no-op. */
export function generationJobId(generationId: string): string {
  const h = createHash('sha256').update(`generation:${generationId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function enqueueGeneration(generationId: string): Promise<void> {
  if (usesInngest()) {
    const generation = await db().generation.findUnique({ where: { id: generationId }, select: { organizationId: true } });
    if (!generation) return;
    // The event id makes a re-send (the sweeper's) a no-op at Inngest.
    await sendInngestEvents([{ name: JOB_EVENTS.generationAdmitted, id: `generation-${generationId}`, data: { generationId, organizationId: generation.organizationId } }]);
    return;
  }
  const placement = await placeGeneration(generationId);
  if (!placement) return; // no such generation (deleted): nothing to run
  const boss = await queueClient();
  await boss.send(GENERATION_QUEUES[placement.costClass], { generationId }, { id: generationJobId(generationId), priority: placement.priority });
}

/** Whether a job exists for this generation in any generation queue (queued, running or kept). */
export async function hasGenerationJob(generationId: string): Promise<boolean> {
  if (usesInngest()) return false; // Inngest is not asked; re-sending the admission event is a no-op there
  const boss = await queueClient();
  const id = generationJobId(generationId);
  for (const queue of Object.values(GENERATION_QUEUES)) {
    if ((await boss.findJobs(queue, { id, limit: 1 })).length > 0) return true;
  }
  return false;
}

/**
 * A generation was canceled before it started: on Inngest its waiting run is canceled (cancelOn);
 * on pg-boss the job finds it canceled when it tries to start and ends without work.
 */
export async function generationCanceled(generation: { id: string; organizationId: string }): Promise<void> {
  if (!usesInngest()) return;
  await sendInngestEvents([{ name: JOB_EVENTS.generationCanceled, data: { generationId: generation.id, organizationId: generation.organizationId } }]);
}
