/**
 * Which integration files share their vitest worker process (docs/testing.md, "Shared
 * workers"). An integration file runs in a process of its own unless its head declares
 *
 *   // @test-worker shared
 *
 * Such a file promises to leave nothing in the process for the next file: no environment or
 * configuration written, no server, queue or worker started in-process, no hold left. The
 * integration project runs the declared files in workers that go from file to file with one
 * module graph (a fifth of the vitest half's CPU was each file's fork and imports); the others
 * keep a fresh process each. The safe side is the default: a new file runs on its own until it
 * declares otherwise, and `scripts/test-worker.test.ts` refuses the declaration in a file whose
 * text writes process state (STATE_WRITERS).
 *
 * `node scripts/test-worker.mjs` prints the shared files, one a line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEAD_LINES = 40;
const TAG = /^\s*\/\/\s*@test-worker\s+shared\s*$/m;

/** What a shared file must not do: each pattern, and why it needs a process of its own. */
export const STATE_WRITERS = [
  [/\bsetEnv\(|process\.env(\.[A-Z_]+|\[[^\]]+\])\s*=[^=]|vi\.stubEnv|delete process\.env|Object\.assign\(process\.env|resetConfigCache/, 'writes the environment or the configuration cache'],
  [/\bstartWorkers\(|new PgBoss\(|\bcreateServer\(|startEdgeServer\(/, 'starts a server, a queue or workers in the test process'],
  [/\bvi\.(useFakeTimers|mock|doMock|spyOn)\(/, 'replaces timers or modules'],
];

/** Whether a file's text declares a shared worker (in its head only). */
export function declaresSharedWorker(text) {
  return TAG.test(text.split('\n').slice(0, HEAD_LINES).join('\n'));
}

/** What a file's text does that a shared file must not (empty when nothing). */
export function stateWrites(text) {
  return STATE_WRITERS.filter(([pattern]) => pattern.test(text)).map(([, why]) => why);
}

/** The integration files (test/**) that declare a shared worker, relative to the root, sorted. */
export function sharedWorkerFiles(root = ROOT) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.test.ts') && declaresSharedWorker(fs.readFileSync(path.join(root, rel), 'utf8'))) found.push(rel);
    }
  };
  walk('test');
  return found.sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of sharedWorkerFiles()) console.log(file);
}
