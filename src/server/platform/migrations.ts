/**
 * Offline migration tooling: `prisma migrate deploy | status | dev --create-only` and
 * `migrate diff`, driven through the WebAssembly schema engine.
 *
 * Why not the prisma CLI: in Prisma 7 every `migrate` command spawns the native
 * schema-engine binary, which these machines cannot download. The same engine ships as
 * `@prisma/schema-engine-wasm` (pinned to the build that matches prisma 7.10.0) and talks
 * to PostgreSQL through a driver adapter (`@prisma/adapter-pg`). The files it reads and
 * writes are the standard ones: `prisma/migrations/<timestamp>_<name>/migration.sql`,
 * `migration_lock.toml` and the `_prisma_migrations` table, so a real
 * `prisma migrate deploy` can take over wherever the binaries are available.
 *
 * adapter-pg 7.10.1 has four bugs on the migration path; `MigrationPgFactory` below wraps
 * the adapter to work around each one (see "Workaround 1".."4"). The wasm engine itself
 * needs three more accommodations, each explained where it is made: its loader
 * (loadEngineClass), its never-cleared timers (engineSetTimeout) and the migration-state
 * cache behind createMigration (a scratch database).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type ErrorRegistry,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlQueryable,
  type SqlResultSet,
} from '@prisma/driver-adapter-utils';
import type {
  MigrationDirectory,
  MigrationList,
  SchemaContainer,
  SchemaEngine,
  SchemaFilter,
} from '@prisma/schema-engine-wasm';
import pg from 'pg';

// ---------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------

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

/**
 * `prisma migrate deploy`: applies every pending migration from the migrations directory,
 * recording each in `_prisma_migrations`. Returns the names applied now (empty when none).
 */
export async function applyMigrations(
  connectionString: string,
  opts: MigrationOptions = {},
): Promise<{ applied: string[] }> {
  const paths = resolvePaths(opts);
  const migrationsList = await listMigrations(paths.migrationsDir);
  // The schema is not needed to apply migrations, and deploy must work on a host that
  // only ships the migrations folder: load it only if present.
  const schema = await readSchemaFiles(paths.schemaPath, { optional: true });
  return withEngine(connectionString, schema, opts, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return { applied: out.appliedMigrationNames };
  });
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
 * `prisma migrate dev --create-only`: diffs the migrations directory against the schema
 * and writes `<migrationsDir>/<yyyymmddhhmmss>_<name>/migration.sql` (with the engine's
 * "Warnings" header for destructive steps) plus `migration_lock.toml`. Returns the new
 * migration's directory, or null when the schema has no changes.
 *
 * The database at `connectionString` is neither read nor changed: only its server is used,
 * for two temporary databases. Why: the engine's createMigration/evaluateDataLoss take the
 * migrations' end state from a cache that only devDiagnostic fills, and devDiagnostic
 * fills it with the migrations *applied to the main database*; when that database is
 * behind (or absent) they fail with "PostgreSQL shadow DB must be provided through an
 * external factory". `prisma migrate dev` gets around this by first applying pending
 * migrations to your database. Instead, we run the whole sequence against a scratch
 * database: apply every migration to it, then devDiagnostic (which replays them on a
 * shadow database and fills the cache), evaluateDataLoss, createMigration.
 */
export async function createMigration(
  connectionString: string,
  name: string,
  opts: MigrationOptions = {},
): Promise<string | null> {
  const migrationName = sanitizeMigrationName(name);
  const paths = resolvePaths(opts);
  const migrationsList = await listMigrations(paths.migrationsDir);
  const schema = requireSchema(await readSchemaFiles(paths.schemaPath, { optional: false }));
  const warn = opts.onWarning;

  return withEngine(
    connectionString,
    schema,
    opts,
    async (engine) => {
      await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
      const { action } = await engine.devDiagnostic({ migrationsList, filters: NO_FILTERS });
      if (action.tag === 'reset') {
        // Cannot happen on a fresh database that just took every migration; kept as a guard.
        throw new MigrationError(`The migration history is inconsistent: ${action.reason}`);
      }

      const loss = await engine.evaluateDataLoss({ migrationsList, schema, filters: NO_FILTERS });
      if (loss.migrationSteps === 0) return null;
      // Warnings about existing rows are moot on an empty database; the ones that matter
      // (dropped columns, new required columns) are in the script's Warnings header.
      for (const u of loss.unexecutableSteps) warn?.(`Unexecutable step: ${u.message}`);

      const created = await engine.createMigration({
        draft: true,
        migrationName,
        migrationsList,
        schema,
        filters: NO_FILTERS,
      });
      if (created.migrationScript === null) return null;

      const dirName = sortAfter(
        created.generatedMigrationName,
        migrationsList.migrationDirectories.map((d) => d.path),
      );
      const dir = path.join(paths.migrationsDir, dirName);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `migration.${created.extension}`), created.migrationScript, 'utf8');
      await writeFile(
        path.join(paths.migrationsDir, migrationsList.lockfile.path),
        `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${created.connectorType}"\n`,
        'utf8',
      );
      return dir;
    },
    { scratch: true },
  );
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

/** A refusal or failure reported by the schema engine (message is user-facing). */
export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    message: string,
    /** Prisma error code such as P3006, when the engine gave one. */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// ---------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------

const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

interface SchemaFiles {
  files: SchemaContainer[];
  /** Directory of the schema, against which the engine resolves relative paths. */
  configDir: string;
}

function resolvePaths(opts: MigrationOptions): { migrationsDir: string; schemaPath: string } {
  return {
    migrationsDir: path.resolve(opts.migrationsDir ?? path.join('prisma', 'migrations')),
    schemaPath: path.resolve(opts.schemaPath ?? path.join('prisma', 'schema.prisma')),
  };
}

function sanitizeMigrationName(name: string): string {
  // Same idea as the prisma CLI: directory-safe, lowercase snake case.
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
  if (slug === '') throw new MigrationError(`Invalid migration name ${JSON.stringify(name)}`);
  return slug;
}

/**
 * Migrations are applied in name order, and names start with a second-resolution UTC
 * timestamp (yyyymmddhhmmss). Two migrations created within one second (scripts, tests)
 * or after a clock step back would sort by name instead of creation order, so when the
 * engine's name does not sort after every existing one, move its timestamp to one second
 * after the latest.
 */
function sortAfter(generated: string, existing: string[]): string {
  const m = /^(\d{14})_(.*)$/.exec(generated);
  const last = existing.reduce<string | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);
  if (!m || last === undefined || generated > last) return generated;
  const lastStamp = /^(\d{14})/.exec(last)?.[1];
  if (lastStamp === undefined) return generated;
  const t = lastStamp.replace(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3T$4:$5:$6Z');
  const next = new Date(Date.parse(t) + 1000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `${next}_${m[2]}`;
}

/** The engine's view of the migrations folder (sorted, like the prisma CLI's listMigrations). */
async function listMigrations(migrationsDir: string): Promise<MigrationList> {
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
async function readSchemaFiles(schemaPath: string, { optional }: { optional: boolean }): Promise<SchemaFiles | null> {
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

function requireSchema(schema: SchemaFiles | null): SchemaFiles {
  if (schema === null) throw new MigrationError('A Prisma schema is required for this operation');
  return schema;
}

// ---------------------------------------------------------------------------------------
// Engine session
// ---------------------------------------------------------------------------------------

type EngineClass = typeof SchemaEngine;
let engineClass: Promise<EngineClass> | undefined;

/**
 * Instantiates the engine's WebAssembly module once per process. The package's entry
 * point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node cannot import
 * (no ESM-wasm integration without a flag), so we do what the prisma CLI's loader does:
 * instantiate the .wasm with the wasm-bindgen glue module as its import object. Once only:
 * the glue keeps module-level state, and instantiating twice breaks it.
 */
function loadEngineClass(): Promise<EngineClass> {
  engineClass ??= (async () => {
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const gluePath = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));

    const wasm: { memory?: WebAssembly.Memory } = {}; // set once instantiated
    const imports: WebAssembly.ModuleImports = { ...(glue as unknown as WebAssembly.ModuleImports) };
    for (const key of Object.keys(imports)) {
      if (key.startsWith('__wbg_setTimeout_')) imports[key] = engineSetTimeout;
      // On a Rust panic the glue hands the message to `global.PRISMA_WASM_PANIC_REGISTRY`
      // (which only the prisma CLI sets up); without it the panic hook itself throws
      // "Cannot read properties of undefined (reading 'set_message')" and the real message
      // is lost. We keep it instead of installing a global: toMigrationError attaches it
      // to the RuntimeError ("unreachable") that follows. A panic inside an engine
      // callback surfaces as an uncaught exception no caller can catch, so the message
      // also goes to stderr: it is fatal, and the only clue.
      if (key.startsWith('__wbg_set_message_')) {
        imports[key] = (ptr: number, len: number) => {
          lastPanicMessage = wasm.memory
            ? new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, ptr >>> 0, len >>> 0))
            : 'unknown panic';
          process.stderr.write(`Schema engine panicked: ${lastPanicMessage}\n`);
        };
      }
    }
    const instance = await WebAssembly.instantiate(await WebAssembly.compile(bytes), {
      './schema_engine_bg.js': imports,
    });
    wasm.memory = instance.exports.memory as WebAssembly.Memory;
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  engineClass.catch(() => {
    engineClass = undefined; // let a later call retry
  });
  return engineClass;
}

/** Message of the last Rust panic inside the engine (see loadEngineClass). */
let lastPanicMessage: string | undefined;

/**
 * The engine schedules timers (e.g. a 60 s connection timeout) through this import and
 * never clears them: the glue has no clearTimeout import, and dropped futures leave their
 * timers armed. Left alone they keep a finished CLI alive for up to a minute. We track
 * them and, once no engine session is running any more, clear whatever is left (the
 * futures that owned them are gone by then). Timers stay ref'd while a session runs, so
 * a pure engine sleep cannot let the process exit mid-operation.
 */
const engineTimers = new Set<ReturnType<typeof setTimeout>>();
let activeSessions = 0;

function engineSetTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(() => {
    engineTimers.delete(timer);
    callback();
  }, ms >>> 0);
  engineTimers.add(timer);
  return timer;
}

function clearEngineTimersIfIdle(): void {
  if (activeSessions > 0) return;
  for (const timer of engineTimers) clearTimeout(timer);
  engineTimers.clear();
}

interface Session {
  /** Names in `_prisma_migrations` that finished and were not rolled back, by start time. */
  appliedMigrationNames(): Promise<string[]>;
}

/**
 * Runs `fn` with an engine connected to the database, or with `scratch`, to a temporary
 * empty database created beside it (and dropped after).
 */
async function withEngine<T>(
  connectionString: string,
  schema: SchemaFiles | null,
  { logger, onWarning }: MigrationOptions,
  fn: (engine: SchemaEngine, session: Session) => Promise<T>,
  { scratch = false }: { scratch?: boolean } = {},
): Promise<T> {
  const conn = parseConnectionString(connectionString);
  const factory = new MigrationPgFactory(conn, onWarning);
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const Engine = await loadEngineClass();

  let engine: SchemaEngine | undefined;
  activeSessions += 1;
  try {
    if (scratch) await factory.useScratchDatabase();
    engine = await Engine.new(
      // `datamodels` must be undefined or non-empty. No datasource url here: in Prisma 7
      // the connection comes from the adapter, and a `url` in the schema is an error.
      { datamodels: schema ? schema.files.map((f): [string, string] => [f.path, f.content]) : undefined },
      (line: string) => {
        const trimmed = line.trimEnd(); // the engine's lines end with a newline
        if (trimmed !== '') logger?.(trimmed);
      },
      bound,
    );
    const session: Session = {
      appliedMigrationNames: () => factory.appliedMigrationNames(),
    };
    return await fn(wrapEngineErrors(engine, bound.errorRegistry), session);
  } catch (error) {
    throw toMigrationError(error, bound.errorRegistry);
  } finally {
    engine?.free();
    // The engine does not dispose of its main connection on free(): end every pool we
    // opened (otherwise idle connections keep a CLI process alive), then drop the scratch
    // database and any shadow database the engine did not dispose of.
    await factory.close();
    activeSessions -= 1;
    clearEngineTimersIfIdle();
  }
}

/**
 * Engine methods reject with errors that reference the adapter's error registry or carry
 * a Prisma error code. Wrap each call so the caller sees a readable MigrationError.
 * (Methods must be called on the engine itself: extracting them loses the wasm pointer.)
 */
function wrapEngineErrors(engine: SchemaEngine, registry: ErrorRegistry): SchemaEngine {
  return new Proxy(engine, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const out: unknown = Reflect.apply(value, target, args);
          return out instanceof Promise ? out.catch((e: unknown) => Promise.reject(toMigrationError(e, registry))) : out;
        } catch (e) {
          throw toMigrationError(e, registry);
        }
      };
    },
  });
}

function toMigrationError(error: unknown, registry: ErrorRegistry): Error {
  if (error instanceof MigrationError) return error;
  if (error instanceof WebAssembly.RuntimeError && lastPanicMessage !== undefined) {
    const message = `Schema engine panicked: ${lastPanicMessage}`;
    lastPanicMessage = undefined;
    return new MigrationError(message, undefined, { cause: error });
  }
  if (typeof error === 'object' && error !== null) {
    const e = error as { code?: unknown; message?: unknown };
    const message = typeof e.message === 'string' ? e.message : String(error);
    // A JS error thrown inside our adapter (e.g. CREATE DATABASE refused for the shadow
    // database) reaches us as "<engine context>\nExternal error id#N", N indexing the
    // adapter's error registry: put the original message back.
    const id = /External error id#(\d+)/.exec(message)?.[1];
    const original = id === undefined ? undefined : registry.consumeError(Number(id))?.error;
    if (original !== undefined) {
      const context = message.split('\n', 1)[0] ?? '';
      return new MigrationError(`${context}: ${errorMessage(original)}`, undefined, { cause: original });
    }
    // Engine errors may carry a Prisma error code (P3009…); pg errors carry a SQLSTATE
    // in the same property, which is not one.
    const code = typeof e.code === 'string' && /^P\d{4}$/.test(e.code) ? e.code : undefined;
    return new MigrationError(code ? `${code}: ${message}` : message, code, { cause: error });
  }
  return new MigrationError(String(error));
}

/** Runs `diff` and returns the SQL script ('' when the two sides match). */
async function diffScript(
  engine: SchemaEngine,
  from: Parameters<SchemaEngine['diff']>[0]['from'],
  to: Parameters<SchemaEngine['diff']>[0]['to'],
): Promise<string> {
  const out = await engine.diff({ from, to, script: true, exitCode: true, filters: NO_FILTERS });
  // exitCode 2 means "non-empty diff"; an empty one still prints
  // "-- This is an empty migration.".
  return out.exitCode === 2 ? (out.stdout ?? '') : '';
}

// ---------------------------------------------------------------------------------------
// Connection handling and the adapter-pg workarounds
// ---------------------------------------------------------------------------------------

/** Discrete connection fields (see workaround 2 for why not a connectionString). */
interface ConnFields {
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
  database: string;
  ssl: pg.PoolConfig['ssl'];
  /** PostgreSQL schema from `?schema=` (Prisma URL convention), default public. */
  schema: string | undefined;
}

function parseConnectionString(connectionString: string): ConnFields {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new MigrationError('DATABASE_URL is not a valid postgresql:// URL');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new MigrationError(`Unsupported database URL protocol ${url.protocol} (expected postgresql://)`);
  }
  const q = url.searchParams;
  // sslmode as pg 8 (pg-connection-string 2.x) reads it, so this tool connects exactly
  // like the app's own `connectionString` pool: prefer/require/verify-ca are aliases of
  // verify-full; no-verify encrypts without checking the certificate.
  const sslmode = q.get('sslmode');
  const ssl: pg.PoolConfig['ssl'] =
    sslmode === null
      ? undefined // pg then applies PGSSLMODE, as for any pg connection
      : sslmode === 'disable'
        ? false
        : sslmode === 'no-verify'
          ? { rejectUnauthorized: false }
          : true;
  for (const unsupported of ['sslrootcert', 'sslcert', 'sslkey', 'options']) {
    if (q.has(unsupported)) throw new MigrationError(`Database URL parameter ${unsupported} is not supported by the migration tool`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return {
    // `?host=/var/run/postgresql` selects a unix socket directory, as libpq does.
    host: q.get('host') ?? (url.hostname.replace(/^\[|\]$/g, '') || 'localhost'),
    port: url.port ? Number(url.port) : 5432,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: database || 'postgres',
    ssl,
    schema: q.get('schema') ?? undefined,
  };
}

/**
 * Workaround 1 — prisma/orm#27403: adapter-pg maps result column types by OID and throws
 * "Unsupported column type …" ("could not be deserialized") for catalog types it does not
 * know: notably `"char"` (oid 18: pg_constraint.contype, pg_class.relkind, … which the
 * engine's describer selects) and `void` (2278); 6.x also lacked `name` (19). A pg.Client
 * subclass (handed to the pool as `Client`) relabels every unmapped low-OID field before
 * the adapter reads the field list: as text (25), or text[] (1009) when pg parsed the
 * value to an array. User types (OID >= 16384) are untouched (the adapter maps them to
 * text itself).
 *
 * `"char"` needs more than text: the describer reads it with `as char`, which rejects a
 * Text value and panics the engine ("Getting constraint_type … as char failed"; measured
 * on PostgreSQL 18, where every NOT NULL column has a pg_constraint row of contype 'n',
 * so any table triggers it). adapter-pg has no OID that maps to ColumnType.Character,
 * so we note which columns were `"char"` against the result's `rows` array (which
 * adapter-pg passes through as is) and `withCharColumns` retypes them after queryRaw.
 */
const ADAPTER_PG_MAPPED_OIDS = new Set([
  // scalars (adapter-pg 7.10.1 src/conversion.ts fieldToColumnType)
  16, 17, 19, 20, 21, 23, 25, 26, 114, 142, 650, 700, 701, 790, 869, 1042, 1043, 1082, 1083, 1114, 1184,
  1266, 1560, 1562, 1700, 2950, 3802,
  // arrays
  143, 199, 651, 791, 1000, 1001, 1002, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1041, 1115, 1182,
  1183, 1185, 1231, 1561, 1563, 2951, 3807,
]);
const FIRST_NORMAL_OBJECT_ID = 16384;
const CHAR_OID = 18;
const TEXT_OID = 25;
const TEXT_ARRAY_OID = 1009;

/** Result `rows` array → indices of its `"char"` columns (see workaround 1). */
const charColumnsByRows = new WeakMap<object, number[]>();

interface PgResultLike {
  fields?: { dataTypeID: number }[];
  rows?: unknown[];
}

function relabelCatalogTypes(result: unknown): void {
  for (const r of Array.isArray(result) ? (result as unknown[]) : [result]) {
    if (typeof r !== 'object' || r === null) continue;
    const { fields, rows } = r as PgResultLike;
    if (!Array.isArray(fields)) continue;
    const charColumns: number[] = [];
    fields.forEach((field, i) => {
      if (field.dataTypeID >= FIRST_NORMAL_OBJECT_ID || ADAPTER_PG_MAPPED_OIDS.has(field.dataTypeID)) return;
      if (field.dataTypeID === CHAR_OID) charColumns.push(i);
      const sample = rows?.map((row) => (Array.isArray(row) ? row[i] : undefined)).find((v) => v != null);
      field.dataTypeID = Array.isArray(sample) ? TEXT_ARRAY_OID : TEXT_OID;
    });
    if (charColumns.length > 0 && Array.isArray(rows)) charColumnsByRows.set(rows, charColumns);
  }
}

/** Gives `"char"` columns (workaround 1) the Character column type the engine expects. */
function withCharColumns<Q extends SqlQueryable>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  return Object.assign(Object.create(queryable) as Q, {
    queryRaw: async (query: SqlQuery): Promise<SqlResultSet> => {
      const result = await queryRaw(query);
      for (const i of charColumnsByRows.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    },
  });
}

/** pg.Client whose query results never carry catalog types adapter-pg cannot map. */
class CatalogSafeClient extends pg.Client {}
{
  const baseQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  // Patched on the prototype rather than declared as an override: pg.Client#query has a
  // dozen overloads (promise and callback styles) that one override signature cannot match.
  (CatalogSafeClient.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ): unknown {
    const first = args[0] as { submit?: unknown } | null | undefined;
    if (typeof first === 'object' && first !== null && typeof first.submit === 'function') {
      return baseQuery.apply(this, args); // Submittable (cursor/stream): leave alone
    }
    // pg-pool's Pool#query uses the callback style: wrap the (last) callback.
    const cbIndex = args.findIndex((a) => typeof a === 'function');
    if (cbIndex !== -1) {
      const cb = args[cbIndex] as (err: Error | null, res: unknown) => void;
      args[cbIndex] = (err: Error | null, res: unknown) => {
        if (!err) relabelCatalogTypes(res);
        cb(err, res);
      };
      return baseQuery.apply(this, args);
    }
    return (baseQuery.apply(this, args) as Promise<unknown>).then((res) => {
      relabelCatalogTypes(res);
      return res;
    });
  };
}

/**
 * The driver adapter factory handed to the engine: adapter-pg underneath (with the
 * CatalogSafeClient of workaround 1), plus workarounds 2–4. Owns every pool and temporary
 * (shadow, scratch) database it creates, so `close()` can release them all even when the
 * engine never calls dispose.
 */
class MigrationPgFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  private readonly pools = new Set<pg.Pool>();
  /** Shadow and scratch databases we created and must drop. */
  private readonly tempDbs = new Set<string>();
  /** Database the engine's main connection uses: the URL's, or a scratch one. */
  private target: string;

  constructor(
    private readonly conn: ConnFields,
    private readonly warn: ((message: string) => void) | undefined,
  ) {
    this.target = conn.database;
  }

  private poolConfig(database: string): pg.PoolConfig {
    const { host, port, user, password, ssl, schema } = this.conn;
    return {
      host,
      port,
      user,
      password,
      ssl,
      database,
      // `?schema=` (Prisma's URL convention): migration scripts use unqualified names,
      // so they must run with that schema first on the search path.
      ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
      Client: CatalogSafeClient,
      max: 4,
    };
  }

  private async openPool(database: string): Promise<{ pool: pg.Pool; adapter: SqlDriverAdapter }> {
    const pool = new pg.Pool(this.poolConfig(database));
    pool.on('error', (err) => this.warn?.(`pool error: ${err.message}`));
    this.pools.add(pool);
    // An external pool: adapter-pg will not end it; we do, in dispose()/close().
    const schema = this.conn.schema;
    const adapter = await new PrismaPg(pool, schema ? { schema } : undefined).connect();
    return { pool, adapter };
  }

  private async endPool(pool: pg.Pool): Promise<void> {
    if (!this.pools.delete(pool)) return; // pg throws if end() is called twice
    await pool.end();
  }

  async connect(): Promise<SqlDriverAdapter> {
    const { pool, adapter } = await this.openPool(this.target);
    return wholeScriptAdapter(adapter, () => this.endPool(pool));
  }

  /**
   * Workaround 2: adapter-pg's connectToShadowDb builds the shadow pool as
   * `{ ...config, database }`, but with a connectionString config pg lets the URL's
   * database override `database` — the "shadow" database is then the real one, which the
   * engine resets. We connect with discrete host/port/user/database fields.
   *
   * Workaround 3: adapter-pg's shadow dispose runs DROP DATABASE before ending the shadow
   * pool, so the drop fails ("is being accessed by other users") and shadow databases
   * pile up. We end the pool first, then drop.
   */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = await this.createTempDatabase('shadow');
    const { pool, adapter } = await this.openPool(name);
    return wholeScriptAdapter(adapter, async () => {
      await this.endPool(pool);
      await this.dropTempDatabase(name);
    });
  }

  /** Points the engine's main connection at a new empty database (see createMigration). */
  async useScratchDatabase(): Promise<void> {
    this.target = await this.createTempDatabase('scratch');
  }

  private async createTempDatabase(kind: 'shadow' | 'scratch'): Promise<string> {
    const name = `prisma_migrate_${kind}_db_${randomUUID().replaceAll('-', '')}`;
    await this.admin(`CREATE DATABASE ${quoteIdent(name)}`).catch((error: unknown) => {
      throw new MigrationError(
        `Could not create a temporary ${kind} database (the database user needs the CREATEDB privilege): ${errorMessage(error)}`,
        undefined,
        { cause: error },
      );
    });
    this.tempDbs.add(name);
    return name;
  }

  private async dropTempDatabase(name: string): Promise<void> {
    if (!this.tempDbs.delete(name)) return;
    await this.admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
  }

  /** Runs one statement on a short-lived connection to the URL's database. */
  private async admin(sql: string): Promise<void> {
    const client = new pg.Client(this.poolConfig(this.conn.database));
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async appliedMigrationNames(): Promise<string[]> {
    const table = this.conn.schema ? `${quoteIdent(this.conn.schema)}._prisma_migrations` : '_prisma_migrations';
    const client = new pg.Client(this.poolConfig(this.target));
    await client.connect();
    try {
      const res = await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM ${table}
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL
          ORDER BY started_at, migration_name`,
      );
      return [...new Set(res.rows.map((r) => r.migration_name))];
    } finally {
      await client.end();
    }
  }

  /** Ends every pool still open, then drops the temporary databases left. Never throws. */
  async close(): Promise<void> {
    for (const pool of [...this.pools]) {
      await this.endPool(pool).catch((e: unknown) => this.warn?.(`closing pool: ${errorMessage(e)}`));
    }
    for (const name of [...this.tempDbs]) {
      await this.dropTempDatabase(name).catch((e: unknown) =>
        this.warn?.(`could not drop temporary database ${name}: ${errorMessage(e)}`),
      );
    }
  }
}

/**
 * Workaround 4: adapter-pg's executeScript splits the script on every `;` and runs the
 * pieces one by one, which breaks valid SQL (a `;` inside a string default, a plpgsql
 * body). We send the whole script as one simple-protocol query instead: executeRaw with
 * no parameters goes through pg's simple query protocol, which accepts several
 * statements, and keeps adapter-pg's error mapping. Also installs our dispose (2/3).
 */
function wholeScriptAdapter(inner: SqlDriverAdapter, dispose: () => Promise<void>): SqlDriverAdapter {
  const queryable = withCharColumns(inner);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => queryable.queryRaw(query),
    executeRaw: (query) => inner.executeRaw(query),
    startTransaction: async (isolationLevel) => withCharColumns(await inner.startTransaction(isolationLevel)),
    executeScript: async (script) => {
      await inner.executeRaw({ sql: script, args: [], argTypes: [] });
    },
    getConnectionInfo: () => inner.getConnectionInfo?.() ?? { supportsRelationJoins: true },
    dispose,
  };
}

// ---------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function isErrnoException(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && 'code' in error;
}
