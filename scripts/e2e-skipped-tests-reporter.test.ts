// @node-lines same: CI and test tooling, run by the machine's Node only
/**
 * The e2e skipped-tests reporter in a real Playwright run (a child process on fixture files that
 * open no browser): under CI a skip without a reason fails the run and is named; a skip with one
 * is printed and passes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-e2e-skips-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(
    path.join(dir, 'playwright.config.mjs'),
    `export default { testDir: '.', workers: 1, reporter: [['line'], [${JSON.stringify(path.join(root, 'scripts/e2e-skipped-tests-reporter.ts'))}]] };\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'silent.spec.mjs'),
    `import { test } from '@playwright/test';\ntest('runs', () => {});\ntest('is skipped without a reason', () => { test.skip(); });\ntest.skip('is declared skipped', () => {});\n`,
  );
  fs.writeFileSync(path.join(dir, 'loud.spec.mjs'), `import { test } from '@playwright/test';\ntest('needs a device', () => { test.skip(true, 'no such device here'); });\n`);
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function playwright(files: string[], ci: boolean): { status: number | null; out: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: ci ? 'true' : '', NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key.startsWith('PW_')) delete env[key];
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', '--config', 'playwright.config.mjs', ...files], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('e2e skipped-tests reporter', () => {
  it('under CI, fails a run with skips that give no reason and names each one', () => {
    const { status, out } = playwright(['silent', 'loud'], true);
    expect(status, out).toBe(1);
    expect(out).toContain('3 e2e test(s) did not run:');
    expect(out).toContain('silent.spec.mjs > is skipped without a reason — NO REASON GIVEN');
    expect(out).toContain('silent.spec.mjs > is declared skipped — NO REASON GIVEN');
    expect(out).toContain('loud.spec.mjs > needs a device — no such device here');
    expect(out).toContain('CI: 2 e2e test(s) skipped without a reason');
  });

  it('under CI, passes a run whose only skip gives its reason, and prints the reason', () => {
    const { status, out } = playwright(['loud'], true);
    expect(status, out).toBe(0);
    expect(out).toContain('loud.spec.mjs > needs a device — no such device here');
  });
});
