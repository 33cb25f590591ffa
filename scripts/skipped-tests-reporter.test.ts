// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * The skipped-tests reporter in a real vitest run (a child process on fixture files): under CI a
 * skip without a reason fails the run and is named; a skip with one is printed and passes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-skips-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // Worker threads, not forked processes: the reporter runs in vitest's main process either way.
  fs.writeFileSync(
    path.join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.mjs'], pool: 'threads', reporters: ['default', ${JSON.stringify(path.join(root, 'scripts/skipped-tests-reporter.ts'))}] } };\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'silent.test.mjs'),
    `import { it } from 'vitest';\nit('runs', () => {});\nit.skip('is skipped by it.skip', () => {});\nit.runIf(false)('is skipped by runIf', () => {});\n`,
  );
  fs.writeFileSync(path.join(dir, 'loud.test.mjs'), `import { it } from 'vitest';\nit('needs a device', (ctx) => { ctx.skip('no such device here'); });\n`);
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function vitest(files: string[], ci: boolean): { status: number | null; out: string } {
  // A fresh vitest: none of this worker's own variables.
  const env: NodeJS.ProcessEnv = { ...process.env, CI: ci ? 'true' : '', NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files], { cwd: dir, env, encoding: 'utf8', timeout: 90_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('skipped-tests reporter', () => {
  it('under CI, fails a run with skips that give no reason and names each one', () => {
    const { status, out } = vitest(['silent', 'loud'], true);
    expect(status, out).toBe(1);
    expect(out).toContain('3 test(s) did not run:');
    expect(out).toContain('silent.test.mjs > is skipped by it.skip — NO REASON GIVEN');
    expect(out).toContain('silent.test.mjs > is skipped by runIf — NO REASON GIVEN');
    expect(out).toContain('loud.test.mjs > needs a device — no such device here');
    expect(out).toContain('CI: 2 test(s) skipped without a reason');
  });

  it('under CI, passes a run whose only skip gives its reason, and prints the reason', () => {
    const { status, out } = vitest(['loud'], true);
    expect(status, out).toBe(0);
    expect(out).toContain('loud.test.mjs > needs a device — no such device here');
  });

  it('outside CI, counts the skips without a reason and passes', () => {
    const { status, out } = vitest(['silent'], false);
    expect(status, out).toBe(0);
    expect(out).toContain('2 test(s) did not run.');
    expect(out).toContain('2 of them without a reason');
  });
});
