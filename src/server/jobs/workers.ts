import { PgBoss } from 'pg-boss';
import { databaseUrl } from '@/server/platform/db';
import { log } from '@/server/platform/logger';

/**
 * pg-boss on the application's PostgreSQL. Job handlers are registered here; the web process
 * runs them in-process by default, `roomtone worker` runs them alone.
 */
export async function startWorkers(): Promise<{ boss: PgBoss; stop(): Promise<void> }> {
  const boss = new PgBoss({ connectionString: databaseUrl(), schema: 'pgboss' });
  boss.on('error', (error: unknown) => log.error('job queue error', { error: String(error) }));
  await boss.start();
  return {
    boss,
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
