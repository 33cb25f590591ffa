/**
 * Deadlines and waits that fire on every supported Node line.
 *
 * `AbortSignal.any([AbortSignal.timeout(ms), other])` is not safe on Node 20: the combined signal
 * holds its sources weakly and the timeout signal's timer holds it weakly too, so when nothing
 * else references the timeout signal a garbage collection removes it and the combined signal
 * never fires (a backend call that never answers then holds its generation forever). Here the
 * timer closure and every source's abort listener hold our own controller strongly, so the
 * signal fires for as long as anything can still make it fire. Every deadline of the project is
 * built with this module (a lint rule refuses `AbortSignal.any` and `AbortSignal.timeout`).
 */

export interface Deadline {
  /** Fires at `at`, or as soon as one of the source signals fires (with that signal's reason). */
  readonly signal: AbortSignal;
  /** When the timer fires, ms since the epoch (Infinity without a timer). */
  readonly at: number;
  /** Milliseconds left before the timer fires (never negative; Infinity without a timer). */
  remainingMs(): number;
  /** Stops the timer and lets go of the source signals: call it when the work has ended. */
  dispose(): void;
}

export interface DeadlineOptions {
  /** The abort reason at the timer (default: a DOMException named TimeoutError, as AbortSignal.timeout). */
  reason?: () => unknown;
}

function timeoutReason(ms: number): DOMException {
  return new DOMException(`The operation timed out after ${ms} ms.`, 'TimeoutError');
}

/**
 * A signal that fires after `ms` (null: no timer) or when any of `sources` fires. The timer does
 * not keep the process alive on its own (like AbortSignal.timeout).
 */
export function deadline(ms: number | null, sources: ReadonlyArray<AbortSignal | null | undefined> = [], options: DeadlineOptions = {}): Deadline {
  const controller = new AbortController();
  const at = ms === null ? Infinity : Date.now() + Math.max(0, ms);
  const attached: Array<[AbortSignal, () => void]> = [];
  let timer: NodeJS.Timeout | null = null;
  const dispose = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (const [source, listener] of attached.splice(0)) source.removeEventListener('abort', listener);
  };
  const abort = (reason: unknown) => {
    dispose();
    if (!controller.signal.aborted) controller.abort(reason);
  };
  for (const source of sources) {
    if (!source) continue;
    if (source.aborted) {
      abort(source.reason);
      break;
    }
    const listener = () => abort(source.reason);
    source.addEventListener('abort', listener, { once: true });
    attached.push([source, listener]);
  }
  if (ms !== null && !controller.signal.aborted) {
    timer = setTimeout(() => abort(options.reason ? options.reason() : timeoutReason(ms)), Math.max(0, ms));
    timer.unref();
  }
  return {
    signal: controller.signal,
    at,
    remainingMs: () => (at === Infinity ? Infinity : Math.max(0, at - Date.now())),
    dispose,
  };
}

/**
 * A signal that fires after `ms`: the drop-in for `AbortSignal.timeout(ms)` when the signal is
 * handed to one call (fetch, a client) and never combined. Its timer holds it until it fires.
 */
export function timeoutSignal(ms: number): AbortSignal {
  return deadline(ms).signal;
}

/** Waits `ms`, or less when `signal` fires first (backoffs and polls that must not outlive a deadline). */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}
