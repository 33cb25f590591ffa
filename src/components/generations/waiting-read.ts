'use client';
import * as React from 'react';
import { errorStatus } from '@/console-client/trpc';

/** How long one read waits on the server for a generation's end before answering with the progress as it is. */
export const FOLLOW_WAIT_MS = 2_000;

/**
 * While `active`, one read that waits on the server at a time (the worker's end-of-generation
 * wake-up answers it at once, or its wait runs out with the progress as it is): `read` updates
 * the screen's data, whose new `version` (any value: compared by identity) starts the next read.
 * A refusal (404: not this member's) ends the reads; an outage is retried after a second with
 * `reread`; leaving the screen aborts the read.
 */
export function useWaitingRead(active: boolean, version: unknown, read: (signal: AbortSignal) => Promise<void>, reread: () => Promise<unknown>): void {
  const latest = React.useRef({ read, reread });
  React.useEffect(() => {
    latest.current = { read, reread };
  });
  React.useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      try {
        await latest.current.read(signal);
        return;
      } catch (error) {
        const status = errorStatus(error);
        if (signal.aborted || (status !== undefined && status < 500)) return;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      if (!signal.aborted) await latest.current.reread().catch(() => undefined);
    })();
    return () => controller.abort();
  }, [active, version]);
}
