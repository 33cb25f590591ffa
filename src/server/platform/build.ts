import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { log } from './logger';

/**
 * Source paths whose change makes Next's build (the console) stale. The server and the CLI are
 * not in it: the pages reach them at run time, compiled apart (scripts/build-server.mjs), and
 * import only their types (a structure rule keeps it so).
 */
const WATCHED = ['app', 'src', 'public', 'next.config.js', 'proxy.ts', 'package.json', 'tsconfig.json'];
const IGNORED = new Set(['node_modules', '.next', 'generated', '.data', 'src/server', 'src/cli']);

function newestMtime(root: string, entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(full)) {
    const child = `${entry}/${name}`;
    if (IGNORED.has(name) || IGNORED.has(child) || name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestMtime(root, child));
  }
  return newest;
}

/** Is .next missing or older than the sources? (`npm start` builds then; `npm run build` forces.) */
export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const builtAt = fs.statSync(buildId).mtimeMs;
  return WATCHED.some((entry) => newestMtime(root, entry) > builtAt);
}

export function ensureProductionBuild(root: string): void {
  if (!buildIsStale(root)) return;
  log.info('building the web app (next build); this takes a minute or two the first time');
  const require = createRequire(import.meta.url);
  const nextBin = require.resolve('next/dist/bin/next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
}
