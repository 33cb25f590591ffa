/**
 * What the migration tool reads from disk: the migrations folder in Prisma's layout
 * (`<timestamp>_<name>/migration.sql`, `migration_lock.toml`) and the Prisma schema.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import type { MigrationDirectory, MigrationList, SchemaContainer } from '@prisma/schema-engine-wasm';

import { errorMessage, MigrationError } from './migration-error';

export interface MigrationOptions {
  /** Migrations directory. Default: `<cwd>/prisma/migrations`. */
  migrationsDir?: string;
  /** Prisma schema file (or folder of `.prisma` files). Default: `<cwd>/prisma/schema.prisma`. */
  schemaPath?: string;
  /**
   * Receives the engine's log lines (JSON, one per call). Quiet when omitted: the app
   * prints its own start-up lines.
   */
  logger?: (line: string) => void;
  /**
   * Receives notices a person should see: data-loss warnings and unexecutable steps of a
   * new migration, shadow databases that could not be dropped. Quiet when omitted.
   */
  onWarning?: (message: string) => void;
}

export interface SchemaFiles {
  files: SchemaContainer[];
  /** Directory of the schema, against which the engine resolves relative paths. */
  configDir: string;
}

export function resolvePaths(opts: MigrationOptions): { migrationsDir: string; schemaPath: string } {
  return {
    migrationsDir: path.resolve(opts.migrationsDir ?? path.join('prisma', 'migrations')),
    schemaPath: path.resolve(opts.schemaPath ?? path.join('prisma', 'schema.prisma')),
  };
}

/** The engine's view of the migrations folder (sorted, like the prisma CLI's listMigrations). */
export async function listMigrations(migrationsDir: string): Promise<MigrationList> {
  const lockfilePath = 'migration_lock.toml';
  const lockContent = await readFile(path.join(migrationsDir, lockfilePath), 'utf8').catch(() => null);
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: unknown) => {
    if (isErrnoException(error) && error.code === 'ENOENT') return [];
    throw error;
  });
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  dirs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  const migrationDirectories: MigrationDirectory[] = [];
  for (const dir of dirs) {
    const file = 'migration.sql';
    const content = await readFile(path.join(migrationsDir, dir, file), 'utf8').then(
      (value) => ({ tag: 'ok' as const, value }),
      (error: unknown) => ({ tag: 'error' as const, value: errorMessage(error) }),
    );
    migrationDirectories.push({ path: dir, migrationFile: { path: file, content } });
  }
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockfilePath, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/** Reads a schema file, or every `.prisma` file under a folder (multi-file schemas). */
export async function readSchemaFiles(schemaPath: string, { optional }: { optional: boolean }): Promise<SchemaFiles | null> {
  const info = await stat(schemaPath).catch(() => null);
  if (info === null) {
    if (optional) return null;
    throw new MigrationError(`Prisma schema not found at ${schemaPath}`);
  }
  if (info.isFile()) {
    return {
      files: [{ path: schemaPath, content: await readFile(schemaPath, 'utf8') }],
      configDir: path.dirname(schemaPath),
    };
  }
  const names = (await readdir(schemaPath, { recursive: true }))
    .filter((n) => n.endsWith('.prisma'))
    .sort();
  const files = await Promise.all(
    names.map(async (n) => ({ path: path.join(schemaPath, n), content: await readFile(path.join(schemaPath, n), 'utf8') })),
  );
  if (files.length === 0) throw new MigrationError(`No .prisma files under ${schemaPath}`);
  return { files, configDir: schemaPath };
}

export function requireSchema(schema: SchemaFiles | null): SchemaFiles {
  if (schema === null) throw new MigrationError('A Prisma schema is required for this operation');
  return schema;
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
