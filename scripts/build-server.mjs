/**
 * The server's one compiled form (docs/architecture.md, "Process model"): esbuild bundles our
 * TypeScript into ESM under dist/server, one file per entry plus shared chunks, packages left
 * to node_modules. Every Roomtone process runs these files: the launcher (`npm start`), the
 * CLI and `roomtone worker`, the engine's worker threads, and Next.js's console pages, which
 * import `console-pages.js` at run time (src/console-server/server.ts). Node loads each file
 * once per process, so every module (configuration, the database pool, metrics, the key
 * cache, …) exists once.
 *
 * `node scripts/build-server.mjs` builds; `npm start`, `npx roomtone` and the test harness
 * call ensureServerBuild, which builds when a source the last build read has changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = 'dist/server';

const ENTRIES = {
  launcher: 'src/server/main/launcher.ts',
  cli: 'src/cli/bin.ts',
  'console-pages': 'src/server/main/console-pages.ts',
  'ops-worker': 'src/server/capabilities/engine/builtin/ops-worker.ts',
  'neural-worker': 'src/server/capabilities/engine/builtin/neural-worker.ts',
};

/**
 * Packages stay in node_modules, with two exceptions: `server-only` (a marker whose plain entry
 * throws; Next's bundler picks its empty `react-server` entry, so do we), and next-auth, which
 * imports `next/server` without the extension Node's ESM resolver needs (next has no
 * `exports` map): it is bundled, its `next/*` imports pointed at the files.
 */
const packagesOutside = {
  name: 'packages-outside',
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }));
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '', loader: 'js' }));
    build.onResolve({ filter: /^next\/[\w-]+$/ }, (args) => ({ path: `${args.path}.js`, external: true }));
    build.onResolve({ filter: /.*/ }, (args) => {
      const { path: request } = args;
      if (request.startsWith('.') || request.startsWith('/') || request.startsWith('@/')) return undefined;
      if (request === 'next-auth' || request.startsWith('next-auth/')) return undefined;
      return { path: request, external: true };
    });
  },
};

function stampPath(root) {
  return path.join(root, SERVER_OUT, 'inputs.json');
}

/** Whether the last build is missing, or a file it read (or package.json, tsconfig.json) changed since. */
export function serverBuildIsStale(root = ROOT) {
  const stamp = stampPath(root);
  if (!fs.existsSync(stamp)) return true;
  const builtAt = fs.statSync(stamp).mtimeMs;
  const inputs = [...JSON.parse(fs.readFileSync(stamp, 'utf8')), 'package.json', 'tsconfig.json', 'scripts/build-server.mjs'];
  return inputs.some((input) => {
    const file = path.join(root, input);
    return !fs.existsSync(file) || fs.statSync(file).mtimeMs > builtAt;
  });
}

/**
 * Build into dist/server. Without `clean`, files are overwritten in place and chunks of an
 * earlier build stay: a process still running that build loads its own chunks later (route
 * handlers, the engine's worker threads).
 */
export async function buildServer(root = ROOT, { clean = false } = {}) {
  const { build } = await import('esbuild');
  const outdir = path.join(root, SERVER_OUT);
  if (clean) fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    tsconfig: path.join(root, 'tsconfig.json'),
    plugins: [packagesOutside],
    // Chunks beside the entries: a chunk's import.meta.url finds the worker entries (engine/builtin/spawn.ts).
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':') && !input.startsWith('node_modules/'));
  fs.writeFileSync(stampPath(root), `${JSON.stringify(inputs)}\n`);
}

export async function ensureServerBuild(root = ROOT) {
  if (serverBuildIsStale(root)) await buildServer(root);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer(ROOT, { clean: true });
}
