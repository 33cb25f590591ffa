import { config, setEnv } from '@/server/platform/config';
import { ensureAppSecret, ensureAuthSecret } from '@/server/platform/secrets';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@/server/platform/embedded-postgres';
import { migrateDatabase } from '@/server/tools/migrations/migrate-database';
import { db, closeDb, databaseUrl as databaseUrlOf } from '@/server/platform/db';
import { log } from '@/server/platform/logger';
import { seedReferenceData } from '@/server/tools/seed/seed';
import { addServiceConfigChecks } from './config-checks';

/**
 * What every process of Roomtone does before serving (web server, worker, CLI): load and check
 * the configuration, make sure APP_SECRET exists, find the database (DATABASE_URL, or the
 * embedded PostgreSQL under DATA_DIR, attaching to a running one), migrate, seed reference data.
 */
export interface Runtime {
  databaseUrl: string;
  embedded: EmbeddedDatabase | null;
  shutdown(): Promise<void>;
}

export async function prepareRuntime(options: { migrate?: boolean; seed?: boolean; fastDatabase?: boolean } = {}): Promise<Runtime> {
  addServiceConfigChecks();
  const c = config();
  ensureAppSecret(c.dataDir);
  ensureAuthSecret(c.dataDir);
  let embedded: EmbeddedDatabase | null = null;
  if (!c.DATABASE_URL) {
    embedded = await startEmbeddedPostgres(c.dataDir, { fast: options.fastDatabase ?? false });
    setEnv('DATABASE_URL', embedded.url);
    setEnv('ROOMTONE_EMBEDDED_DATABASE', 'true');
  }
  const databaseUrl = databaseUrlOf();
  if (options.migrate !== false) {
    const { applied } = await migrateDatabase(databaseUrl);
    if (applied.length > 0) log.info('applied migrations', { applied });
  }
  if (options.seed !== false) await seedReferenceData(db());
  return {
    databaseUrl,
    embedded,
    async shutdown() {
      await closeDb();
      if (embedded?.owned) await embedded.stop();
    },
  };
}
