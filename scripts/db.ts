/**
 * Offline stand-in for `prisma migrate` (which needs a native binary these machines
 * cannot download). Run from the project root:
 *
 *   tsx scripts/db.ts create <name>   like `prisma migrate dev --create-only --name <name>`
 *   tsx scripts/db.ts deploy          like `prisma migrate deploy`
 *   tsx scripts/db.ts status          like `prisma migrate status`, plus drift
 *   tsx scripts/db.ts drift           SQL that would make the database match the schema
 *
 * Options: --schema <path> (default prisma/schema.prisma), --migrations <dir> (default
 * prisma/migrations), --json (status), --verbose (print the engine's log lines).
 * Needs DATABASE_URL. Exit codes: 0 ok; 1 failure; 2 `status` not up to date or drifted,
 * `drift` found differences.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import { createMigration } from '../src/server/tools/migrations/create-migration';
import { migrateDatabase, type MigrationOptions } from '../src/server/tools/migrations/migrate-database';
import { migrationStatus, schemaDrift, type MigrationStatus } from '../src/server/tools/migrations/migration-status';

const USAGE = 'Usage: tsx scripts/db.ts <create NAME | deploy | status | drift> [--schema PATH] [--migrations DIR] [--json] [--verbose]';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      schema: { type: 'string' },
      migrations: { type: 'string' },
      json: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }

  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      'DATABASE_URL is not set. Set it to the PostgreSQL connection string, e.g.\n' +
        '  DATABASE_URL=postgresql://USER:PASSWORD@localhost:5432/roomtone tsx scripts/db.ts ' +
        command,
    );
    return 1;
  }

  const opts: MigrationOptions = {
    ...(values.schema ? { schemaPath: values.schema } : {}),
    ...(values.migrations ? { migrationsDir: values.migrations } : {}),
    ...(values.verbose ? { logger: (line: string) => console.error(line) } : {}),
    onWarning: (message) => console.error(`warning: ${message}`),
  };
  const rel = (p: string) => path.relative(process.cwd(), p) || '.';
  const started = performance.now();
  const took = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

  switch (command) {
    case 'create': {
      const name = rest.join('_');
      if (!name) {
        console.error('Missing migration name. ' + USAGE);
        return 1;
      }
      const dir = await createMigration(url, name, opts);
      if (dir === null) {
        console.log(`No schema changes, no migration created (${took()}).`);
      } else {
        console.log(`Created ${rel(path.join(dir, 'migration.sql'))} (${took()}).`);
        console.log('Review it, then apply it with: tsx scripts/db.ts deploy');
      }
      return 0;
    }
    case 'deploy': {
      const { applied } = await migrateDatabase(url, opts);
      if (applied.length === 0) {
        console.log(`No pending migrations to apply (${took()}).`);
      } else {
        console.log(`Applied ${applied.length} migration(s) (${took()}):`);
        for (const name of applied) console.log(`  ${name}`);
      }
      return 0;
    }
    case 'status': {
      const status = await migrationStatus(url, opts);
      if (values.json) console.log(JSON.stringify(status, null, 2));
      else printStatus(status, took());
      const drifted = status.drift !== null && status.drift !== '';
      return status.upToDate && !drifted ? 0 : 2;
    }
    case 'drift': {
      const sql = await schemaDrift(url, opts);
      if (sql === '') {
        console.log(`The database matches the schema (${took()}).`);
        return 0;
      }
      console.error(`The database differs from the schema (${took()}). SQL that would make it match:`);
      console.log(sql.trimEnd());
      return 2;
    }
    default:
      console.error(`Unknown command ${JSON.stringify(command)}. ${USAGE}`);
      return 1;
  }
}

function printStatus(s: MigrationStatus, took: string): void {
  const list = (title: string, names: string[]) => {
    if (names.length === 0) return;
    console.log(`${title}:`);
    for (const n of names) console.log(`  ${n}`);
  };
  console.log(
    `${s.local.length} migration(s) found locally; ${s.applied.length} applied to the database` +
      (s.hasMigrationsTable ? '' : ' (no _prisma_migrations table yet)') +
      ` (${took}).`,
  );
  list('Pending (run deploy)', s.pending);
  list('Failed (resolve before deploying)', s.failed);
  list('Edited after being applied', s.edited);
  list('Applied to the database but missing locally', s.missingLocally);
  if (s.divergedAfter !== undefined) {
    console.log(`The histories diverge after ${s.divergedAfter ?? 'the first migration'}.`);
  }
  if (s.drift === null) {
    if (s.driftError) console.log(`Drift not checked: ${s.driftError}`);
  } else if (s.drift === '') {
    console.log('No drift: the database matches its applied migrations.');
  } else {
    console.log('Drift: the database differs from its applied migrations. SQL that would undo the difference:');
    console.log(s.drift.trimEnd());
  }
  console.log(s.upToDate ? 'Database schema is up to date.' : 'Database schema is NOT up to date.');
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? `Error: ${error.message}` : error);
    process.exitCode = 1;
  },
);
