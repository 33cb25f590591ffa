/**
 * Which vitest files run under a second Node line (CI's Node 24 pass, docs/testing.md "Node
 * lines"). Every test file runs there unless its header declares that nothing it exercises
 * differs between Node lines:
 *
 *   // @node-lines same: <why: what it exercises, and which file covers the Node-facing part>
 *
 * A file that declares nothing runs under both lines, so a new test is never left out
 * silently; a declaration without its reason, or with another word than `same`, fails
 * `scripts/node-lines.test.ts`. A reason that leans on another file for the Node-facing part
 * names it by its path (`test/mcp.test.ts`, or a folder such as `sdk/test`), and that file (or
 * one in that folder) must itself run under both lines: a covering file cannot leave the pass
 * while others still count on it. vitest.config.ts leaves the `same` files out when
 * SECOND_NODE_PASS=1.
 *
 * `node scripts/node-lines.mjs` prints the files the second pass runs, one a line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folders vitest's projects include test files from (scripts/node-lines.test.ts holds them equal). */
export const TEST_ROOTS = ['src', 'scripts', 'bench', 'sdk/test', 'test'];

/** Where a declaration may stand: the file's head, before the code. */
const HEAD_LINES = 40;

/**
 * A file's head declaration `@<tag> <word>: <reason>`: absent (null), its reason, or an error for
 * a malformed one (another word, or a reason under ten characters). Shared by the tags of test
 * files (`@node-lines same`, `@worker-process shared`).
 * @returns {null | { reason: string } | { error: string }}
 */
export function headDeclaration(text, tag, word) {
  const head = text.split('\n').slice(0, HEAD_LINES).join('\n');
  const found = new RegExp(`@${tag}\\b(.*)$`, 'm').exec(head);
  if (!found) return null;
  const declared = new RegExp(`^\\s+${word}:\\s*(\\S.{9,})$`).exec(found[1].replace(/\s*\*\/\s*$/, ''));
  if (!declared) return { error: `"@${tag}${found[1]}" must read "@${tag} ${word}: <reason of ten characters or more>"` };
  return { reason: declared[1].trim() };
}

/**
 * The declaration of one file's text: `both` when it has none, `same` with its reason, or an
 * error for a malformed one.
 * @returns {{ kind: 'both' } | { kind: 'same', reason: string } | { kind: 'invalid', error: string }}
 */
export function nodeLinesDeclaration(text) {
  const declared = headDeclaration(text, 'node-lines', 'same');
  if (!declared) return { kind: 'both' };
  if ('error' in declared) return { kind: 'invalid', error: declared.error };
  return { kind: 'same', reason: declared.reason };
}

/** Every vitest test file under TEST_ROOTS, relative to the root, sorted. */
export function testFiles(root = ROOT) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.test.ts')) found.push(rel);
    }
  };
  for (const dir of TEST_ROOTS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return [...new Set(found)].sort();
}

/** Each test file with its declaration. */
export function declarations(root = ROOT) {
  return testFiles(root).map((file) => ({ file, ...nodeLinesDeclaration(fs.readFileSync(path.join(root, file), 'utf8')) }));
}

/** The files that declare `same` (the second Node line's pass leaves them out). */
export function sameOnEveryNodeLine(root = ROOT) {
  return declarations(root)
    .filter((d) => d.kind === 'same')
    .map((d) => d.file);
}

/** Paths a reason names under a test root: a test file or a folder (`sdk/test`, `src/server/capabilities/engine/builtin`). */
const NAMED_PATH = /(?<![\w./-])[a-z]+(?:\/[\w.-]*\w)+/g;

/** The paths one reason names, in order. */
export function namedPaths(reason) {
  return [...reason.matchAll(NAMED_PATH)].map((m) => m[0]).filter((p) => TEST_ROOTS.some((root) => p === root || p.startsWith(`${root}/`)));
}

/**
 * What is wrong with the covering files the `same` reasons name: each must be a test file that
 * runs under both lines, or a folder holding one.
 * @returns {string[]} one line per problem, empty when every reason holds
 */
export function coverageProblems(all = declarations()) {
  const both = all.filter((d) => d.kind === 'both').map((d) => d.file);
  const known = new Set(all.map((d) => d.file));
  const problems = [];
  for (const d of all) {
    if (d.kind !== 'same') continue;
    for (const named of namedPaths(d.reason)) {
      if (named.endsWith('.test.ts')) {
        if (!known.has(named)) problems.push(`${d.file}: its reason names ${named}, which is no test file`);
        else if (!both.includes(named)) problems.push(`${d.file}: its reason names ${named}, which does not run under both lines`);
      } else if (!both.some((f) => f.startsWith(`${named}/`))) {
        problems.push(`${d.file}: its reason names ${named}, which is no folder with a test file run under both lines`);
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const all = declarations();
  const invalid = all.filter((d) => d.kind === 'invalid');
  for (const d of invalid) console.error(`${d.file}: ${d.error}`);
  const problems = coverageProblems(all);
  for (const p of problems) console.error(p);
  if (invalid.length > 0 || problems.length > 0) process.exit(1);
  for (const d of all) if (d.kind === 'both') console.log(d.file);
}
