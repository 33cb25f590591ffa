/**
 * The read-only developer commands of `scripts/db.ts`: `prisma migrate status` (plus drift)
 * and `prisma migrate diff`, offline (migrate-database.ts says why).
 */
import type { MigrationList } from '@prisma/schema-engine-wasm';

import { errorMessage } from './migration-error';
import { listMigrations, readSchemaFiles, requireSchema, resolvePaths, type MigrationOptions } from './migration-files';
import { diffScript, NO_FILTERS, withEngine } from './schema-engine';

export interface MigrationStatusOptions extends MigrationOptions {
  /**
   * Also compute drift (database vs. what its applied migrations describe). Needs a
   * temporary shadow database, i.e. CREATE DATABASE rights. Default: true.
   */
  checkDrift?: boolean;
}

export interface MigrationStatus {
  /** Migration directory names found locally, in order. */
  local: string[];
  /** Whether `_prisma_migrations` exists in the database. */
  hasMigrationsTable: boolean;
  /** Migrations recorded as successfully applied (not rolled back), in order of start. */
  applied: string[];
  /** Local migrations not yet applied to the database. */
  pending: string[];
  /** Migrations whose last attempt failed (must be resolved before deploy proceeds). */
  failed: string[];
  /** Applied migrations whose local migration.sql no longer matches the applied checksum. */
  edited: string[];
  /** Migrations applied to the database that do not exist locally. */
  missingLocally: string[];
  /**
   * When the local and database histories diverge: the last migration they share (null
   * if none). undefined when they do not diverge.
   */
  divergedAfter: string | null | undefined;
  /**
   * SQL that would bring the database back to what its applied migrations describe
   * ('' when there is no drift). null when not checked (option off, or the history is
   * inconsistent so drift is meaningless).
   */
  drift: string | null;
  /** Why drift could not be computed (e.g. no CREATE DATABASE right for the shadow DB). */
  driftError?: string;
  /** True when nothing is pending, failed, edited or missing locally. Drift is reported apart. */
  upToDate: boolean;
}

/** `prisma migrate status`, as a plain object (plus drift, which `migrate status` lacks). */
export async function migrationStatus(
  connectionString: string,
  opts: MigrationStatusOptions = {},
): Promise<MigrationStatus> {
  const paths = resolvePaths(opts);
  const migrationsList = await listMigrations(paths.migrationsDir);
  const schema = await readSchemaFiles(paths.schemaPath, { optional: true });
  const local = migrationsList.migrationDirectories.map((d) => d.path);

  return withEngine(connectionString, schema, opts, async (engine, session) => {
    const diag = await engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });

    let pending: string[] = [];
    let missingLocally: string[] = [];
    let divergedAfter: string | null | undefined;
    const history = diag.history;
    if (history?.diagnostic === 'databaseIsBehind') {
      pending = history.unappliedMigrationNames;
    } else if (history?.diagnostic === 'migrationsDirectoryIsBehind') {
      missingLocally = history.unpersistedMigrationNames;
    } else if (history?.diagnostic === 'historiesDiverge') {
      pending = history.unappliedMigrationNames;
      missingLocally = history.unpersistedMigrationNames;
      divergedAfter = history.lastCommonMigrationName;
    }

    const applied = diag.hasMigrationsTable ? await session.appliedMigrationNames() : [];
    const failed = diag.failedMigrationNames;
    const edited = diag.editedMigrationNames;
    const upToDate =
      pending.length === 0 && failed.length === 0 && edited.length === 0 && missingLocally.length === 0;

    // Drift only means something when the database's history is a prefix of the local one.
    let drift: string | null = null;
    let driftError: string | undefined;
    const consistent = failed.length === 0 && edited.length === 0 && missingLocally.length === 0;
    if ((opts.checkDrift ?? true) && consistent) {
      const pendingSet = new Set(pending);
      const appliedList: MigrationList = {
        ...migrationsList,
        migrationDirectories: migrationsList.migrationDirectories.filter((d) => !pendingSet.has(d.path)),
      };
      try {
        drift = await diffScript(engine, { tag: 'schemaDatasource', ...requireSchema(schema) }, {
          tag: 'migrations',
          ...appliedList,
        });
      } catch (error) {
        driftError = errorMessage(error);
      }
    }

    return {
      local,
      hasMigrationsTable: diag.hasMigrationsTable,
      applied,
      pending,
      failed,
      edited,
      missingLocally,
      divergedAfter,
      drift,
      ...(driftError === undefined ? {} : { driftError }),
      upToDate,
    };
  });
}

/**
 * `prisma migrate diff --from-config-datasource --to-schema --script`: the SQL that would
 * make the database match the schema. '' when they match.
 */
export async function schemaDrift(connectionString: string, opts: MigrationOptions = {}): Promise<string> {
  const paths = resolvePaths(opts);
  const schema = requireSchema(await readSchemaFiles(paths.schemaPath, { optional: false }));
  return withEngine(connectionString, schema, opts, (engine) =>
    diffScript(engine, { tag: 'schemaDatasource', ...schema }, { tag: 'schemaDatamodel', files: schema.files }),
  );
}
