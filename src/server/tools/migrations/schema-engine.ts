/**
 * A session with the WebAssembly schema engine (`@prisma/schema-engine-wasm`, pinned to the
 * build that matches prisma 7.10.0), connected to PostgreSQL through the adapter of
 * adapter-pg-workarounds.ts. The engine needs three accommodations, each explained where it
 * is made: its loader (loadEngineClass), its never-cleared timers (engineSetTimeout) and
 * its panics (the `set_message` import).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

import { bindMigrationAwareSqlAdapterFactory, type ErrorRegistry } from '@prisma/driver-adapter-utils';
import type { SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';

import { MigrationPgFactory, parseConnectionString } from './adapter-pg-workarounds';
import { errorMessage, MigrationError } from './migration-error';
import type { MigrationOptions, SchemaFiles } from './migration-files';

export const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

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
 * them and, once no engine session is running, clear whatever is left (the
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

/** Engine sessions this process has started (a test sees which calls needed the engine). */
let sessionsStarted = 0;
export const engineSessionsStarted = (): number => sessionsStarted;

export interface Session {
  /** Names in `_prisma_migrations` that finished and were not rolled back, by start time. */
  appliedMigrationNames(): Promise<string[]>;
}

/**
 * Runs `fn` with an engine connected to the database, or with `scratch`, to a temporary
 * empty database created beside it (and dropped after).
 */
export async function withEngine<T>(
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
  sessionsStarted += 1;
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
export async function diffScript(
  engine: SchemaEngine,
  from: Parameters<SchemaEngine['diff']>[0]['from'],
  to: Parameters<SchemaEngine['diff']>[0]['to'],
): Promise<string> {
  const out = await engine.diff({ from, to, script: true, exitCode: true, filters: NO_FILTERS });
  // exitCode 2 means "non-empty diff"; an empty one still prints
  // "-- This is an empty migration.".
  return out.exitCode === 2 ? (out.stdout ?? '') : '';
}
