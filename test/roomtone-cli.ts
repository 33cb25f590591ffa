/**
 * The `roomtone` admin CLI, run in the test's own process (`runCli`, what `npx roomtone` runs
 * after loading): the same commands, arguments, output and exit codes as the bin, without
 * starting a Node process and the TypeScript loader per call. The database pool stays open
 * between calls (it is the test's own). test/cli.test.ts runs the real bin once, as a smoke test.
 */
import { runCli } from '@/cli/main';
import { resetConfigCache } from '@/server/platform/config';
import { restoreEnvironment } from './file-environment';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * One command; `env` is set for its duration only (the configuration is read again around it).
 * What the command itself sets (the runtime exports AUTH_SECRET, as a process of its own would)
 * is gone after it too: the environment is given back whole.
 */
export async function roomtone(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const before = { ...process.env };
  Object.assign(process.env, env);
  resetConfigCache();
  let stdout = '';
  let stderr = '';
  try {
    const code = await runCli(args, {
      output: { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) },
      keepRuntime: true,
    });
    return { code, stdout, stderr };
  } finally {
    restoreEnvironment(before);
  }
}

/** The one JSON document a `--json` command printed (an error when it printed anything else). */
export function jsonOf(run: CliRun): Record<string, unknown> {
  const lines = run.stdout.trim().split('\n').filter(Boolean);
  if (lines.length !== 1) throw new Error(`stdout must be exactly one JSON document:\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}
