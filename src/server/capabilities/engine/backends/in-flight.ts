/**
 * The backend work running in this process (calls, and the clean-ups that outlive them), and
 * the signal that stops it when the workers stop.
 */

/** Fires when the workers stop (shutdown): calls in flight cancel their remote jobs. */
export const stopping = new AbortController();
const inFlight = new Set<Promise<unknown>>();

/** Counts `work` as running until it settles: a stop waits for it. */
export function track<T>(work: Promise<T>): Promise<T> {
  inFlight.add(work);
  void work.finally(() => inFlight.delete(work)).catch(() => undefined);
  return work;
}

/**
 * Stops the backend calls in flight and resolves once each has ended: its remote job canceled,
 * its attempt recorded, its generation left in progress for the job's retry. A stop that did not
 * wait could exit during a Replicate create held open by `Prefer: wait` (which is never aborted:
 * the prediction's id comes with its answer), and leave that prediction running, billed to the
 * operator, with nothing to cancel it. So a stop can take up to REPLICATE_WAIT_SECONDS.
 */
export async function interruptBackendCalls(): Promise<void> {
  stopping.abort();
  // Until none is left: a call that gives up can start a clean-up of its own (tracked too).
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}
