import { waitForGenerationEnd } from '@/server/jobs/notify';
import { getConsoleGeneration, type ConsoleGeneration } from './console-generations';
import type { Scope } from './generations';

/** The longest a reader may hold one request open waiting for the end. */
export const FOLLOW_MAX_WAIT_MS = 10_000;

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
