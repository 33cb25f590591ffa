import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { stampEveryServer } from '@/server/http/incoming-request';
import { flushRequestLog } from '@/server/requestlog/requestlog';
import { endEventStreams } from '@/server/http/event-stream';
import { prepareRuntime } from './runtime';
import { startupBanner, startupChecks } from './startup';

/**
 * Plain `next start` (run by instrumentation.ts before Next.js serves): the same service as
 * `WEB_PROCESSES=1 npm start`, in Next's own server. The runtime (configuration checks,
 * secrets, the database — the embedded one unless DATABASE_URL —, migrations, reference data,
 * the demo organization on a first run), the job workers unless WORKERS_IN_PROCESS=false, and
 * what only the raw request knows (http/incoming-request.ts: the socket address, repeated
 * Authorization headers). The routes are the same table (http/routes.ts) through
 * the App Router. What only the launcher has: the edge server's raw-socket checks, the web
 * processes of a cluster, the build check, and a drain on stop (docs/architecture.md).
 */
export async function startInsideNext(): Promise<void> {
  stampEveryServer();
  const runtime = await prepareRuntime();
  const demo = await startupChecks();
  let workers: { stop(): Promise<void> } | null = null;
  if (config().WORKERS_IN_PROCESS) {
    const { startWorkers } = await import('@/server/jobs/workers');
    workers = await startWorkers();
  }
  process.stdout.write(startupBanner({ processes: 'next start, 1 web process', runtime, demo }));

  // Next.js owns SIGINT/SIGTERM and exits once its server has closed; the job workers and the
  // database are stopped alongside. A job cut by that exit is resumed by another worker (its
  // heartbeat lapses) or by the sweeper, as after a crash.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    // Next.js closes its server once in-flight requests end: open event streams never would.
    endEventStreams();
    void (async () => {
      await workers?.stop().catch(() => undefined);
      await flushRequestLog();
      await runtime.shutdown();
    })();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
