import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';

/**
 * Questions a web process forked by `npm start` asks its primary (metrics of every process,
 * readiness of the job workers that run there), and the primary asking each web process in
 * turn. Every question has a timeout: a stalled peer costs an incomplete answer, never a hang.
 */
interface Ask {
  roomtone: 'ask';
  id: string;
  kind: string;
}
interface Answer {
  roomtone: 'answer';
  id: string;
  value: unknown;
}

type Channel = { send(message: unknown): boolean; on(event: 'message', fn: (message: unknown) => void): unknown; off(event: 'message', fn: (message: unknown) => void): unknown };

function ask(channel: Channel, kind: string, timeoutMs: number): Promise<unknown> {
  const id = randomUUID();
  return new Promise((resolve) => {
    const done = (value: unknown) => {
      clearTimeout(timer);
      channel.off('message', onMessage);
      resolve(value);
    };
    const onMessage = (message: unknown) => {
      const m = message as Partial<Answer> | null;
      if (m?.roomtone === 'answer' && m.id === id) done(m.value);
    };
    const timer = setTimeout(() => done(null), timeoutMs).unref();
    channel.on('message', onMessage);
    try {
      channel.send({ roomtone: 'ask', id, kind } satisfies Ask);
    } catch {
      done(null);
    }
  });
}

/** In a web process: the primary's answer, or null (no primary, no answer in time). */
export function askPrimary(kind: string, timeoutMs = 3000): Promise<unknown> {
  if (!cluster.isWorker || !process.send) return Promise.resolve(null);
  return ask(process as unknown as Channel, kind, timeoutMs);
}

/** In the primary: each live web process's answer (nulls dropped). */
export async function askWebProcesses(kind: string, timeoutMs = 3000): Promise<unknown[]> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
  const answers = await Promise.all(workers.map((w) => ask(w as unknown as Channel, kind, timeoutMs)));
  return answers.filter((a) => a !== null);
}

/** Answer questions of `kind` arriving on `channel` (a forked web process, or this process's primary). */
export function answerQuestions(channel: Channel, handlers: Record<string, () => Promise<unknown>>): void {
  channel.on('message', (message: unknown) => {
    const m = message as Partial<Ask> | null;
    if (m?.roomtone !== 'ask' || !m.id || !m.kind) return;
    const handler = handlers[m.kind];
    if (!handler) return;
    const id = m.id;
    handler()
      .catch(() => null)
      .then((value) => {
        try {
          channel.send({ roomtone: 'answer', id, value } satisfies Answer);
        } catch {
          // the asker is gone
        }
      });
  });
}
