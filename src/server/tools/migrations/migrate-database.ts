/**
 * The database migration tool: Prisma's `migrate` commands run offline, through the
 * WebAssembly schema engine. `migrateDatabase` is the one call the service makes (every
 * process's start, src/server/main/runtime.ts, which the CLI shares); the developer commands
 * of `scripts/db.ts` live beside it (create-migration.ts, migration-status.ts).
 *
 * Why not the prisma CLI: in Prisma 7 every `migrate` command spawns the native
 * schema-engine binary, which these machines cannot download. The same engine ships as
 * `@prisma/schema-engine-wasm` (pinned to the build that matches prisma 7.10.0) and talks
 * to PostgreSQL through a driver adapter (`@prisma/adapter-pg`). The files it reads and
 * writes are the standard ones: `prisma/migrations/<timestamp>_<name>/migration.sql`,
 * `migration_lock.toml` and the `_prisma_migrations` table, so a real
 * `prisma migrate deploy` can take over wherever the binaries are available.
 *
 * The parts, by what each does: migration-files.ts reads the migrations folder and the
 * schema; schema-engine.ts loads the engine and runs a session with it; and
 * adapter-pg-workarounds.ts is the driver adapter, with adapter-pg's four bugs on the
 * migration path worked around.
 */
import pg from 'pg';
import type { MigrationList } from '@prisma/schema-engine-wasm';

import { parseConnectionString, quoteIdent } from './adapter-pg-workarounds';
import { listMigrations, readSchemaFiles, resolvePaths, type MigrationOptions } from './migration-files';
import { NO_FILTERS, withEngine } from './schema-engine';

export type { MigrationOptions } from './migration-files';

/**
 * `prisma migrate deploy`: applies every pending migration from the migrations directory,
 * recording each in `_prisma_migrations`. Returns the names applied now (empty when none).
 */
export async function migrateDatabase(
  connectionString: string,
  opts: MigrationOptions = {},
): Promise<{ applied: string[] }> {
  const paths = resolvePaths(opts);
  const migrationsList = await listMigrations(paths.migrationsDir);
  if (await allApplied(connectionString, migrationsList)) return { applied: [] };
  // The schema is not needed to apply migrations, and deploy must work on a host that
  // only ships the migrations folder: load it only if present.
  const schema = await readSchemaFiles(paths.schemaPath, { optional: true });
  return withEngine(connectionString, schema, opts, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return { applied: out.appliedMigrationNames };
  });
}

/**
 * Whether `_prisma_migrations` records every migration of the folder as applied, and none as
 * failed or still running: then deploy has nothing to do, and one query says so without the
 * schema engine (a 5 MB WebAssembly module each process would compile: most of a restart's
 * migration cost). Anything else goes to the engine, which applies or reports it: no table yet,
 * a failed, running or rolled-back migration, an unreadable migration file, another provider's
 * lock file, a database that cannot be read.
 */
async function allApplied(connectionString: string, migrationsList: MigrationList): Promise<boolean> {
  if (migrationsList.migrationDirectories.some((d) => d.migrationFile.content.tag !== 'ok')) return false;
  const lock = migrationsList.lockfile.content;
  if (lock != null && !/^\s*provider\s*=\s*"postgresql"\s*$/m.test(lock)) return false;
  const { host, port, user, password, database, ssl, schema } = parseConnectionString(connectionString);
  const table = schema ? `${quoteIdent(schema)}._prisma_migrations` : '_prisma_migrations';
  const client = new pg.Client({ host, port, user, password, database, ssl });
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; finished: boolean }>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished FROM ${table} WHERE rolled_back_at IS NULL`,
    );
    if (rows.some((row) => !row.finished)) return false;
    const applied = new Set(rows.map((row) => row.migration_name));
    return migrationsList.migrationDirectories.every((d) => applied.has(d.path));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
