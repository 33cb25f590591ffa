// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * The rule of the Node 24 pass (docs/testing.md, "Node lines"): every test file runs under both
 * Node lines unless its head declares `@node-lines same: <reason>`; a malformed declaration
 * fails here, a covering file a reason names must itself run under both lines, and no folder of
 * test files is outside the rule's reach.
 */
import { describe, expect, it } from 'vitest';
import config from '../vitest.config';
import { TEST_ROOTS, coverageProblems, declarations, namedPaths, nodeLinesDeclaration, sameOnEveryNodeLine, testFiles } from './node-lines.mjs';

describe('@node-lines declarations', () => {
  it('every declaration in the repository reads "@node-lines same: <reason>"', () => {
    const invalid = declarations().filter((d) => d.kind === 'invalid');
    expect(invalid.map((d) => `${d.file}: ${d.kind === 'invalid' ? d.error : ''}`)).toEqual([]);
  });

  it('a file that declares nothing runs under both lines; `same` needs its reason; any other word is refused', () => {
    expect(nodeLinesDeclaration("import { it } from 'vitest';\n")).toEqual({ kind: 'both' });
    expect(nodeLinesDeclaration('// @node-lines same: pixel arithmetic on typed arrays\nimport x;\n')).toEqual({ kind: 'same', reason: 'pixel arithmetic on typed arrays' });
    expect(nodeLinesDeclaration('/**\n * Header.\n * @node-lines same: the Python client, not Node\n */\n')).toEqual({ kind: 'same', reason: 'the Python client, not Node' });
    expect(nodeLinesDeclaration('// @node-lines same\n').kind).toBe('invalid');
    expect(nodeLinesDeclaration('// @node-lines same: short\n').kind).toBe('invalid');
    expect(nodeLinesDeclaration('// @node-lines differs: uses TLS sockets here\n').kind).toBe('invalid');
    expect(nodeLinesDeclaration('// @node-lines sme: pixel arithmetic on typed arrays\n').kind).toBe('invalid');
  });

  it('every file or folder a reason names as covering the Node-facing part runs under both lines', () => {
    expect(coverageProblems()).toEqual([]);
  });

  it('a reason naming a file that has left the pass, no test file, or a folder without a file in the pass is refused', () => {
    const d = (file: string, reason?: string) => (reason ? { file, kind: 'same' as const, reason } : { file, kind: 'both' as const });
    expect(namedPaths('covered in test/mcp.test.ts and sdk/test; the benchmark, sdk-python and sdk/src/client.ts are not paths of tests')).toEqual(['test/mcp.test.ts', 'sdk/test']);
    const all = [d('test/mcp.test.ts'), d('test/a.test.ts', 'our rules; the transport runs under both lines in test/mcp.test.ts'), d('test/b.test.ts', 'our rules; see test/a.test.ts'), d('test/c.test.ts', 'our rules; see test/gone.test.ts'), d('src/x.test.ts', 'our rules; see src/server and test')];
    expect(coverageProblems(all)).toEqual([
      'test/b.test.ts: its reason names test/a.test.ts, which does not run under both lines',
      'test/c.test.ts: its reason names test/gone.test.ts, which is no test file',
      'src/x.test.ts: its reason names src/server, which is no folder with a test file run under both lines',
    ]);
  });

  it('only a declaration at the head counts (not one in a test body)', () => {
    const body = `${'\n'.repeat(60)}// @node-lines same: pixel arithmetic on typed arrays\n`;
    expect(nodeLinesDeclaration(body)).toEqual({ kind: 'both' });
  });

  it('the rule reaches every folder vitest takes test files from', () => {
    const projects = (config.test?.projects ?? []) as Array<{ test?: { name?: string; include?: string[] } }>;
    const includes = projects.flatMap((p) => p.test?.include ?? []);
    expect(includes.length).toBeGreaterThan(0);
    for (const glob of includes) expect(TEST_ROOTS.some((root) => glob.startsWith(`${root}/`)), glob).toBe(true);
    const files = testFiles();
    expect(files).toContain('scripts/node-lines.test.ts');
    expect(files).toContain('test/webhooks.test.ts');
    for (const file of sameOnEveryNodeLine()) expect(files).toContain(file);
  });
});
