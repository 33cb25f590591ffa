import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { jobs } from '@/server/platform/jobs/client';
import { generationAdmitted } from '@/server/capabilities/generations/generation-run-job';
import { finishFailed } from './generation-job';

/** A started generation older than this is presumed lost with its worker (jobs retry within). */
export const STALE_STARTED_MS = 45 * 60_000;
/** A generation that waits unstarted this long may have lost its enqueue: enqueue it if no queue holds its job. */
export const UNQUEUED_AFTER_MS = 60_000;

/**
 * Nothing stays in progress forever: re-enqueue generations whose enqueue may have been lost
 * (a generation whose job is in either cost-class queue is left alone; job ids are derived from
 * generation ids), and fail with a refund the ones whose processing started long ago and never
 * ended.
 */
export async function sweepGenerations(): Promise<{ requeued: number; failed: number }> {
  const now = clock.nowMs();
  const waiting = await db().generation.findMany({
    where: { status: 'in_progress', startedAt: null, createdAt: { lt: new Date(now - UNQUEUED_AFTER_MS) } },
    select: { id: true, organizationId: true },
    take: 500,
  });
  let requeued = 0;
  for (const g of waiting) {
    if (await jobs().resend(generationAdmitted(g))) requeued += 1;
  }
  const stale = await db().generation.findMany({
    where: { status: 'in_progress', startedAt: { lt: new Date(now - STALE_STARTED_MS) } },
    select: { id: true },
    take: 500,
  });
  let failed = 0;
  for (const g of stale) {
    if (await finishFailed(g.id, 'generation_failed', 'The generation did not finish in time. You were not charged; start again later.')) failed += 1;
  }
  if (failed > 0) log.warn('failed stale generations', { failed });
  if (requeued > 0) log.warn('re-enqueued generations whose enqueue was lost', { requeued });
  return { requeued, failed };
}
