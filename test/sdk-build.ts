/**
 * The SDK's tests run its built package (sdk/dist), as its users and `npx @roomtone/sdk` do:
 * built here when missing or older than its sources (`npm run build` builds it in CI).
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const sdk = path.resolve(import.meta.dirname, '..', 'sdk');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : fs.statSync(file).mtimeMs);
  }
  return latest;
}

export function ensureSdkBuild(): void {
  const built = path.join(sdk, 'dist', 'index.js');
  const sources = Math.max(newest(path.join(sdk, 'src')), fs.statSync(path.join(sdk, 'package.json')).mtimeMs, fs.statSync(path.join(sdk, 'tsconfig.json')).mtimeMs);
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  execFileSync(process.execPath, [path.join(sdk, '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(sdk, 'tsconfig.build.json')], { stdio: 'inherit' });
  // tsc leaves an unchanged output file's time alone: mark the build as done now.
  const now = new Date();
  fs.utimesSync(built, now, now);
}
