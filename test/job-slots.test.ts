// @node-lines same: our scheduling rules on pg-boss; pg-boss's workers run under both lines in test/worker.test.ts
// @worker-process shared: pg-boss workers in this process on a queue of its own, stopped and the queue deleted after it; it starts no server or process and sets no environment
/**
 * A pg-boss slot that frees while runs wait takes the next one at once: pg-boss alone waits out
 * the rest of its poll interval after each job (for the generation queues, 5 s behind NOTIFY),
 * so queued runs started seconds apart on each slot. Here the poll is two minutes: runs that
 * wait for it cannot finish within the test's timeout. The runs are queued before the workers
 * start, so no NOTIFY is involved: the first is found by the workers' first fetch.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type Stoppable } from '@/server/platform/jobs/job';
import { pgBossProvider, queueClient } from '@/server/platform/jobs/providers/pgboss';

const QUEUE = `test.slot-refetch.${process.pid}`;
const ran: number[] = [];
let allRan: () => void = () => undefined;
const RUNS = 4;

const slotProbe = defineJob({
  id: 'slot-probe',
  version: 1,
  name: 'Slot probe',
  schema: z.object({ n: z.number() }),
  trigger: { event: 'test/slot.probe' },
  retries: 0,
  handler: async ({ n }) => {
    ran.push(n);
    if (ran.length === RUNS) allRan();
    return n;
  },
  queue: {
    queues: () => [
      {
        name: QUEUE,
        options: { retryLimit: 0, expireInSeconds: 60, deleteAfterSeconds: 3600, notify: true },
        worker: { slots: 2, pollingIntervalSeconds: 120, notifyPollingIntervalSeconds: 120 },
      },
    ],
  },
});

let workers: Stoppable | null = null;

afterAll(async () => {
  await workers?.stop();
  await (await queueClient()).deleteQueue(QUEUE).catch(() => undefined);
});

describe('pg-boss slots', () => {
  it('a slot takes the next waiting run as soon as its run ends, not at its next poll', async () => {
    const boss = await queueClient();
    await boss.createQueue(QUEUE, slotProbe.queue!.queues()[0]!.options);
    await boss.insert(QUEUE, Array.from({ length: RUNS }, (_, i) => ({ data: { n: i + 1 } })));
    const done = new Promise<void>((resolve) => (allRan = resolve));
    workers = await pgBossProvider.startWorkers([slotProbe]);
    await done;
    expect([...ran].sort()).toEqual([1, 2, 3, 4]);
  }, 30_000);
});
