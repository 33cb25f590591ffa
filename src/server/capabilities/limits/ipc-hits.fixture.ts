/**
 * A web process for request-rate.test.ts: forked by the test (its cluster primary), it counts
 * the hits it is asked for through hitRateLimit and reports the decisions and how long they took.
 */
import { hitRateLimit } from './request-rate';

process.on('message', (message: { hits?: number; limit: number; key: string; blockMs?: number }) => {
  // The primary's rate-limit answers arrive on the same channel.
  const hits = message.hits;
  if (typeof hits !== 'number') return;
  void (async () => {
    const started = performance.now();
    const pending = Promise.all(Array.from({ length: hits }, () => hitRateLimit('ip', message.key, message.limit)));
    if (message.blockMs) {
      // Once the lease request has gone out (it leaves in the next turn), block the event loop
      // past the IPC timeout, as a route's first load can on a loaded machine.
      setImmediate(() => {
        const until = performance.now() + message.blockMs!;
        while (performance.now() < until);
      });
    }
    const decisions = await pending;
    process.send?.({ decisions, ms: performance.now() - started });
  })();
});
process.send?.({ ready: true });
