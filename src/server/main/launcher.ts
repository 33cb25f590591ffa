/**
 * The launcher (`npm start`: scripts/start.mjs runs it from the compiled server, dist/server):
 * the zero-setup service and the one way Roomtone runs in production. Embedded PostgreSQL
 * (unless DATABASE_URL), migrations, reference data, a demo organization on first run, the
 * production build (built if missing or stale), the web server and the job workers.
 *
 * Processes: with WEB_PROCESSES = 1, everything runs in this one process. Otherwise (default:
 * one per core but one, at least one: defaultWebProcesses), this process is the primary: it
 * prepares the runtime, forks the web processes (node:cluster; they share the port), runs the
 * job workers and holds the request-rate counters the web processes lease slices of over IPC.
 * The job workers then never share an event loop with the API. Each web process runs the edge
 * server (http/edge-server.ts), which hands the console's pages to Next.js in the same process
 * (Next's custom-server pattern).
 *
 * What a process does is decided here and only here: a web process serves HTTP; the primary (or
 * the single process) also runs the job workers unless WORKERS_IN_PROCESS=false, when
 * `roomtone worker` processes (src/cli/worker.ts) run them.
 */
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import type http from 'node:http';
import { config } from '@/server/platform/config';
import { ensureProductionBuild } from '@/server/platform/build';
import { startEdgeServer } from '@/server/doors/http/edge-server';
import { closeDb } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import { flushRequestLog } from '@/server/capabilities/requestlog/requestlog';
import { SHARED_LIMITS_ENV, serveRateLimits } from '@/server/capabilities/limits/request-rate';
import { answerQuestions } from '@/server/platform/primary-ipc';
import { localMetricsJson, mergedMetricsText } from '@/server/capabilities/observability/metrics';
import { workersRunning } from '@/server/platform/jobs/workers-state';
import { embeddedDatabaseState } from '@/server/platform/embedded-database-state';
import { jobs } from '@/server/platform/jobs/client';
import { endEventStreams } from '@/server/doors/http/event-stream';
import { addServiceConfigChecks } from './config-checks';
import { prepareRuntime } from './runtime';
import { startupBanner, startupChecks } from './startup';

const STOP_MESSAGE = { roomtone: 'web-stop' } as const;
const DRAIN_MS = 10_000;

/** Stop accepting, let in-flight requests finish (bounded), write the last log lines. */
async function drain(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  endEventStreams(); // open streams never finish on their own; clients reconnect with Last-Event-ID
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  await flushRequestLog();
}

/** A web process forked by the primary: the web server only. */
async function runWebProcess(root: string): Promise<void> {
  const c = config();
  answerQuestions(process as never, { metrics: localMetricsJson });
  const server = await startEdgeServer({ root, port: c.PORT, host: c.HOST });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await drain(server);
    await closeDb();
    process.exit(0);
  };
  process.on('message', (message: { roomtone?: string }) => {
    if (message?.roomtone === STOP_MESSAGE.roomtone) void stop();
  });
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The primary is gone (killed): do not linger as an orphan holding the port.
  process.on('disconnect', () => void stop());
}

interface WebFleet {
  stop(): Promise<void>;
}

/** Fork `count` web processes and resolve once every one listens; replace any that dies. */
async function forkWebProcesses(count: number): Promise<WebFleet> {
  let stopping = false;
  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [SHARED_LIMITS_ENV]: '1' });
      serveRateLimits(worker);
      answerQuestions(worker, {
        'metrics-merged': () => mergedMetricsText(() => jobs().waitingJobs()),
        workers: async () => workersRunning(),
        'embedded-database': async () => embeddedDatabaseState(),
      });
      const failed = (code: number | null) => reject(new Error(`web process ${worker.process.pid} exited with ${code} while starting`));
      worker.once('exit', failed);
      worker.once('listening', () => {
        worker.off('exit', failed);
        worker.once('exit', (code, signal) => {
          if (stopping) return;
          log.error('web process died; starting a new one', { pid: worker.process.pid, code, signal });
          fork().catch((error: unknown) => log.error('could not replace a web process', { error: String(error) }));
        });
        resolve(worker);
      });
    });
  await Promise.all(Array.from({ length: count }, fork));
  return {
    async stop() {
      stopping = true;
      const exits = Object.values(cluster.workers ?? {}).map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (!worker || worker.isDead()) return resolve();
            const timer = setTimeout(() => worker.kill('SIGKILL'), DRAIN_MS + 5_000).unref();
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            if (worker.isConnected()) worker.send(STOP_MESSAGE);
          }),
      );
      await Promise.all(exits);
    },
  };
}

/**
 * Web processes when WEB_PROCESSES is 0: one per core but one, at least one, at most 4. The
 * core left is the primary's (job workers, the rate-limit store) and PostgreSQL's. Measured on
 * 2 cores with the http bench section: two web processes spent about 1.25–1.55 times the CPU per
 * /v1 read of one (four busy processes on two cores: fewer requests per wake-up, more switches).
 */
function defaultWebProcesses(): number {
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

async function main(root: string): Promise<void> {
  // The console's pages find the compiled server from the working directory (console-server/server.ts).
  process.chdir(root);
  addServiceConfigChecks();
  if (cluster.isWorker) return runWebProcess(root);

  const c = config();
  const runtime = await prepareRuntime();
  const demo = await startupChecks();
  // An API-only instance never serves the console, so it never builds it either.
  if (c.SKIP_BUILD !== '1' && c.CONSOLE_ENABLED) ensureProductionBuild(root);

  const single = c.WEB_PROCESSES === 1;
  const webProcesses = c.WEB_PROCESSES || defaultWebProcesses();
  const server = single ? await startEdgeServer({ root, port: c.PORT, host: c.HOST }) : null;
  const fleet = single ? null : await forkWebProcesses(webProcesses);

  let workers: { stop(): Promise<void> } | null = null;
  if (c.WORKERS_IN_PROCESS) {
    const { startWorkers } = await import('@/server/jobs/workers');
    workers = await startWorkers();
  }

  process.stdout.write(startupBanner({ processes: single ? 'one process' : `${webProcesses} web process${webProcesses > 1 ? 'es' : ''}`, runtime, demo }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    await Promise.all([server ? drain(server) : null, fleet?.stop()]);
    await workers?.stop().catch(() => undefined);
    await flushRequestLog();
    await runtime.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Start the service of the project at `root` (its build, its migrations). */
export function launch(root: string): void {
  main(root).catch((error: unknown) => {
    log.error('start failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  });
}
