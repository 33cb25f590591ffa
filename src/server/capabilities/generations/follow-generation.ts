import { db } from '@/server/platform/db';
import { waitForGenerationEnd } from '@/server/capabilities/generations/notify';
import { getConsoleGeneration, type ConsoleGeneration } from './console-generations';
import type { Scope } from './generations';

/** The longest a reader may hold one request open waiting for the end. */
export const FOLLOW_MAX_WAIT_MS = 10_000;

/** The most generations one list read waits on (a page's in-progress rows). */
export const FOLLOW_MAX_IDS = 25;

/**
 * A generation read that waits for its end: answers at once when it has ended (or `waitMs` is
 * 0), otherwise when the worker's end notification wakes this process (LISTEN/NOTIFY, the same
 * wake-up a synchronous /v1 creation uses), or after `waitMs` with the generation as it is then
 * (its progress included). The caller's scope is checked first: another organization's or
 * mode's id is 404 without any wait.
 */
export async function followGeneration(scope: Scope, id: string, waitMs: number): Promise<ConsoleGeneration> {
  const now = await getConsoleGeneration(scope, id);
  if (now.status !== 'in_progress' || waitMs <= 0) return now;
  await waitForGenerationEnd(id, Math.min(waitMs, FOLLOW_MAX_WAIT_MS));
  return getConsoleGeneration(scope, id);
}

/**
 * For a list showing several generations in progress: answers `{ ended: true }` as soon as one
 * of them has ended (at once if one already has), or `{ ended: false }` after `waitMs`, when the
 * list reads its rows' progress again. Only the caller's own generations are waited on (another
 * organization's ids are ignored: their end is not the caller's to time).
 */
export async function waitForAnyGenerationEnd(scope: Scope, ids: readonly string[], waitMs: number): Promise<{ ended: boolean }> {
  const rows = await db().generation.findMany({
    where: { id: { in: ids.slice(0, FOLLOW_MAX_IDS) }, organizationId: scope.organizationId, mode: scope.mode },
    select: { id: true, status: true },
  });
  if (rows.some((row) => row.status !== 'in_progress')) return { ended: true };
  if (rows.length === 0 || waitMs <= 0) return { ended: false };
  const budget = Math.min(waitMs, FOLLOW_MAX_WAIT_MS);
  const ended = await Promise.race(rows.map((row) => waitForGenerationEnd(row.id, budget)));
  return { ended };
}
