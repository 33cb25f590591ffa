import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { log } from './logger';

/** Source paths whose change makes the production build stale. */
const WATCHED = ['app', 'src', 'public', 'next.config.js', 'package.json', 'tsconfig.json'];
const IGNORED = new Set(['node_modules', '.next', 'generated', '.data']);

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) {
    if (IGNORED.has(name) || name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

/** Is .next missing or older than the sources? (`npm start` builds then; `npm run build` forces.) */
export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const builtAt = fs.statSync(buildId).mtimeMs;
  return WATCHED.some((entry) => newestMtime(path.join(root, entry)) > builtAt);
}

export function ensureProductionBuild(root: string): void {
  if (!buildIsStale(root)) return;
  log.info('building the web app (next build); this takes a minute or two the first time');
  const require = createRequire(import.meta.url);
  const nextBin = require.resolve('next/dist/bin/next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
}
