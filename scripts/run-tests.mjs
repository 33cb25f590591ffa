#!/usr/bin/env node
/**
 * `npm test`: the vitest suites (unit + integration), then the browser e2e (Playwright in
 * Debian's Chromium) when Chromium is installed. Without Chromium the e2e are skipped with a
 * loud notice — except under CI=true, where a missing browser fails the run (.ci/run installs it).
 * Extra arguments go to vitest. `TEST_SUITES=vitest` or `TEST_SUITES=e2e` runs one half only
 * (.ci/run runs the e2e beside the second vitest pass); the default is both.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { CHROMIUM_CANDIDATES, chromiumPath } from './chromium-path.mjs';

const chromium = chromiumPath();
const browserFound = chromium !== null && fs.existsSync(chromium);
const ci = process.env.CI === 'true' || process.env.CI === '1';
const suites = (process.env.TEST_SUITES ?? 'vitest,e2e').split(',').map((s) => s.trim());
const unknown = suites.filter((s) => s !== 'vitest' && s !== 'e2e');
if (unknown.length > 0 || suites.length === 0) {
  console.error(`TEST_SUITES must list vitest and/or e2e (comma-separated), not: ${process.env.TEST_SUITES}`);
  process.exit(2);
}
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status ?? 1;

const vitest = suites.includes('vitest') ? run('npx', ['vitest', 'run', ...process.argv.slice(2)]) : null;

let e2e = null;
if (suites.includes('e2e')) {
  if (browserFound) {
    e2e = run('npx', ['playwright', 'test']);
  } else {
    const bar = '!'.repeat(78);
    console.error(`\n${bar}\n!! SKIPPED the browser (e2e) tests: no Chromium at ${chromium ?? CHROMIUM_CANDIDATES.join(' or ')}.`);
    console.error('!! Install it with:  sudo apt-get update && sudo apt-get install -y chromium-headless-shell');
    console.error('!! (or set CHROMIUM_PATH), then run:  npm run test:e2e');
    console.error(`${bar}\n`);
    if (ci) {
      console.error('CI=true: the e2e tests must run in CI; failing.');
      e2e = 1;
    }
  }
}
const said = (status) => (status === 0 ? 'passed' : 'FAILED');
const e2eSaid = !suites.includes('e2e') ? 'not asked (TEST_SUITES)' : browserFound ? said(e2e) : ci ? 'MISSING (CI)' : 'skipped (no Chromium)';
console.log(`\nnpm test: vitest ${vitest === null ? 'not asked (TEST_SUITES)' : said(vitest)}; e2e ${e2eSaid}`);
process.exit(vitest ? vitest : (e2e ?? 0));
