import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ConsolePages from '@/server/main/console-pages';

let loaded: Promise<typeof ConsolePages> | null = null;

/**
 * The service, as the console's pages reach it: the server's compiled door for them
 * (src/server/main/console-pages.ts, built by scripts/build-server.mjs), imported by Node at
 * run time and never bundled by Next. The launcher runs Next.js in its own process from the
 * same compiled files, so this is the process's one instance of every module (one database
 * pool, one configuration, one key cache). The project root is the working directory (the
 * launcher's).
 */
export function service(): Promise<typeof ConsolePages> {
  loaded ??= import(
    /* turbopackIgnore: true */ /* webpackIgnore: true */ pathToFileURL(path.join(/* turbopackIgnore: true */ process.cwd(), 'dist', 'server', 'console-pages.js')).href
  ) as Promise<typeof ConsolePages>;
  return loaded;
}
