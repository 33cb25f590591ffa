/**
 * `npm start`: the zero-setup service. Embedded PostgreSQL (unless DATABASE_URL), migrations,
 * reference data, a demo organization on first run, the production build (built if missing or
 * stale), the web server and the job workers, in one process.
 */
import path from 'node:path';
import { config } from '@/server/platform/config';
import { prepareRuntime } from '@/server/platform/runtime';
import { ensureProductionBuild } from '@/server/platform/build';
import { startWebServer } from '@/server/platform/web-server';
import { seedDemoIfEmpty } from '@/server/seed/seed';
import { db } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import { flushRequestLog } from '@/server/requestlog/requestlog';
import { loopbackWarning } from '@/server/net/safe-http';

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  process.chdir(root);
  const c = config();
  const runtime = await prepareRuntime();
  const demo = process.env.SEED_DEMO === 'false' ? null : await seedDemoIfEmpty(db());
  const loopback = loopbackWarning();
  if (loopback) log.warn(loopback);
  if (process.env.SKIP_BUILD !== '1') ensureProductionBuild(root);
  const server = await startWebServer({ root, port: c.PORT, host: c.HOST });

  let workers: { stop(): Promise<void> } | null = null;
  if (c.WORKERS_IN_PROCESS) {
    const { startWorkers } = await import('@/server/jobs/workers');
    workers = await startWorkers();
  }

  const consoleUrl = c.publicBaseUrl;
  const lines = [`Roomtone is up: ${consoleUrl}  (API ${consoleUrl}/v1, health ${consoleUrl}/healthz)`];
  if (runtime.embedded) lines.push(`Database: embedded PostgreSQL under ${c.dataDir}`);
  if (demo) {
    lines.push(
      '',
      'First run: a demo organization was created. These secrets are shown once — keep them:',
      `  organization  ${demo.organizationId}`,
      `  test key      ${demo.testKey}`,
      `  live key      ${demo.liveKey}`,
      `  console login ${demo.email} / ${demo.password}`,
      '',
      `Try: curl -H "Authorization: Bearer ${demo.testKey}" ${consoleUrl}/v1/styles`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    server.close();
    await workers?.stop().catch(() => undefined);
    await flushRequestLog();
    await runtime.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  log.error('start failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
