#!/usr/bin/env node
/**
 * `npm test`: the vitest suites (unit + integration), then the browser e2e (Playwright in
 * Debian's Chromium) when Chromium is installed. Without Chromium the e2e are skipped with a
 * loud notice — except under CI=true, where a missing browser fails the run (.ci/run installs it).
 * Extra arguments go to vitest.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env: process.env }).status ?? 1;

const vitest = run('npx', ['vitest', 'run', ...process.argv.slice(2)]);

let e2e = 0;
if (fs.existsSync(chromium)) {
  e2e = run('npx', ['playwright', 'test']);
} else {
  const bar = '!'.repeat(78);
  console.error(`\n${bar}\n!! SKIPPED the browser (e2e) tests: no Chromium at ${chromium}.`);
  console.error('!! Install it with:  sudo apt-get update && sudo apt-get install -y chromium');
  console.error('!! (or set CHROMIUM_PATH), then run:  npm run test:e2e');
  console.error(`${bar}\n`);
  if (ci) {
    console.error('CI=true: the e2e tests must run in CI; failing.');
    e2e = 1;
  }
}
console.log(`\nnpm test: vitest ${vitest === 0 ? 'passed' : 'FAILED'}; e2e ${fs.existsSync(chromium) ? (e2e === 0 ? 'passed' : 'FAILED') : ci ? 'MISSING (CI)' : 'skipped (no Chromium)'}`);
process.exit(vitest !== 0 ? vitest : e2e);
