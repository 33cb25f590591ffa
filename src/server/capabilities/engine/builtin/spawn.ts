/**
 * Starting the engine's worker threads. In the compiled server (dist/server, every Roomtone
 * process) they are entries beside this module's chunk (`ops-worker.js`, `neural-worker.js`).
 * Tests that import the sources find the TypeScript files next to this one and load them
 * through tsx's ESM hooks, registered inside the worker (Node 20 does not honour `--import` in
 * a worker's execArgv). ROOMTONE_ENGINE_DIR overrides the folder.
 */
import { Worker } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { config } from '@/server/platform/config';

/** Where the worker entries are: this module's own folder (dist/server, or the sources under test). */
function engineDirs(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const configured = config().ROOMTONE_ENGINE_DIR;
  return configured ? [configured, here] : [here];
}

export function workerFile(name: string): string {
  for (const d of engineDirs()) {
    for (const ext of ['.js', '.mjs', '.ts']) {
      const f = path.join(d, name + ext);
      if (existsSync(f)) return f;
    }
  }
  throw new Error(`engine worker ${name} not found (set ROOMTONE_ENGINE_DIR)`);
}

/** ESM entry of tsx's register API (require.resolve would give the CJS one). */
function tsxEsmApi(): string {
  const req = createRequire(import.meta.url);
  const pkgPath = req.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as {
    exports?: Record<string, { import?: { default?: string } } | string>;
  };
  const e = pkg.exports?.['./esm/api'];
  const rel = typeof e === 'object' ? e.import?.default : undefined;
  if (!rel) throw new Error('tsx/esm/api not found');
  return path.join(path.dirname(pkgPath), rel);
}

export function spawnTsWorker(name: string): Worker {
  const file = workerFile(name);
  if (!file.endsWith('.ts')) return new Worker(file);
  const api = pathToFileURL(tsxEsmApi()).href;
  const entry = pathToFileURL(file).href;
  const boot =
    `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })` +
    `.catch((e) => { setImmediate(() => { throw e; }); });`;
  return new Worker(boot, { eval: true });
}
