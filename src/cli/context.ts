import { prepareRuntime, type Runtime } from '@/server/main/runtime';
import { config } from '@/server/platform/config';
import { databaseUrl } from '@/server/platform/db';

/**
 * What one run of a `roomtone` command writes to and runs on. `npx roomtone` hands it the
 * process's streams and shuts the runtime down at the end; a caller inside a longer-lived
 * process (the tests) hands its own writers and keeps the runtime, so the database pool it
 * shares with the command stays open.
 */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface CliContext {
  /** --json: exactly one JSON document on stdout, errors included. */
  json: boolean;
  out(line: string): void;
  err(line: string): void;
  /** The database, secrets and migrations (and the reference data with `seed`), ready (once per run). */
  ready(options?: { seed?: boolean }): Promise<void>;
}

export const processOutput: CliOutput = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** A kept runtime and the database it was prepared for (a process may move to another database). */
let kept: { runtime: Runtime; databaseUrl: string } | null = null;

export function cliContext(json: boolean, output: CliOutput, keepRuntime: boolean): { context: CliContext; close(): Promise<void> } {
  let runtime: Runtime | null = null;
  const context: CliContext = {
    json,
    out: (line) => output.stdout(`${line}\n`),
    err: (line) => output.stderr(`${line}\n`),
    async ready(options = {}) {
      if (runtime) return;
      if (keepRuntime && kept && kept.databaseUrl === config().DATABASE_URL) {
        runtime = kept.runtime;
        return;
      }
      runtime = await prepareRuntime({ seed: options.seed ?? false });
      if (keepRuntime) kept = { runtime, databaseUrl: databaseUrl() };
    },
  };
  return {
    context,
    async close() {
      if (runtime && !keepRuntime) await runtime.shutdown().catch(() => undefined);
    },
  };
}
