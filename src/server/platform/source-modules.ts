import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * One of our modules loaded from the TypeScript sources at run time, outside any bundle. Next.js
 * bundles what its routes import; the service around them (the runtime with its migrations,
 * the job workers and the engine they run) reads project files at run time, which a bundler
 * cannot follow (Turbopack then traces the whole project into the build and fails). So under
 * `next start` those modules load from the sources through tsx, as everything does under
 * `npm start` (node --import tsx). State that both module graphs need lives on globalThis
 * (the database pool, the metrics, the workers' state, …).
 */
const state = globalThis as unknown as { roomtoneTypeScript?: Promise<void> };

/** This process loads TypeScript already (the launcher runs under `node --import tsx`). */
export function typeScriptLoaded(): void {
  state.roomtoneTypeScript ??= Promise.resolve();
}

function ensureTypeScript(): Promise<void> {
  state.roomtoneTypeScript ??= import(/* turbopackIgnore: true */ /* webpackIgnore: true */ 'tsx/esm/api').then(({ register }: typeof import('tsx/esm/api')) => {
    register({ tsconfig: path.join(/* turbopackIgnore: true */ process.cwd(), 'tsconfig.json') });
  });
  return state.roomtoneTypeScript;
}

/** `file` relative to the project root (the working directory), e.g. `src/server/main/inside-next.ts`. */
export async function importFromSources<T>(file: string): Promise<T> {
  await ensureTypeScript();
  const url = pathToFileURL(path.join(/* turbopackIgnore: true */ process.cwd(), file)).href;
  return (await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ url)) as T;
}
