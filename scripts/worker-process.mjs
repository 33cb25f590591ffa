/**
 * Which integration files share their vitest worker process with the files before and after
 * them (the `integration-shared` project, vitest.config.ts; docs/testing.md "vitest projects").
 * Every integration file has a process of its own unless its header declares that nothing it
 * starts or moves outlives it:
 *
 *   // @worker-process shared: <why: what it does, and that it leaves nothing behind>
 *
 * A file that declares nothing keeps a process of its own, so a new file never shares one
 * silently; a declaration without its reason, with another word than `shared`, or outside
 * test/ fails `scripts/worker-process.test.ts`. A declared file is held to it when it runs:
 * test/shared-worker-guard.ts fails it if it leaves the environment, the clock, fake timers, a
 * listening server or a child process other than it found them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { headDeclaration, testFiles } from './node-lines.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The declaration of one file's text: `own` when it has none, `shared` with its reason, or an
 * error for a malformed one.
 * @returns {{ kind: 'own' } | { kind: 'shared', reason: string } | { kind: 'invalid', error: string }}
 */
export function workerProcessDeclaration(text) {
  const declared = headDeclaration(text, 'worker-process', 'shared');
  if (!declared) return { kind: 'own' };
  if ('error' in declared) return { kind: 'invalid', error: declared.error };
  return { kind: 'shared', reason: declared.reason };
}

/** Each test file with its declaration; one outside test/ (not an integration file) is invalid. */
export function workerProcessDeclarations(root = ROOT) {
  return testFiles(root).map((file) => {
    const declared = workerProcessDeclaration(fs.readFileSync(path.join(root, file), 'utf8'));
    if (declared.kind === 'shared' && !file.startsWith('test/')) return { file, kind: 'invalid', error: 'only an integration file (test/) declares @worker-process: the unit files all share theirs' };
    return { file, ...declared };
  });
}

/** The integration files that declare `shared` (the `integration-shared` project runs them). */
export function sharedWorkerFiles(root = ROOT) {
  return workerProcessDeclarations(root)
    .filter((d) => d.kind === 'shared')
    .map((d) => d.file);
}
