/**
 * What the console's pages (Next.js's server bundle) call in the service: a door of its own,
 * compiled with the rest of the server (scripts/build-server.mjs) and imported by the pages at
 * run time (src/console-server/server.ts), never bundled by Next. The launcher that runs
 * Next.js has loaded the same compiled files, so the pages reach the process's one
 * configuration, database pool and key cache.
 */
export { readConsoleSession } from '@/server/auth/sessions';
export { config } from '@/server/platform/config';
export { me } from '@/server/members/my-organizations';
export { organizationsOpenToUsers } from '@/server/orgs/create-my-organization';
export { consoleRouter } from '@/server/trpc/console-router';
export { apiReferencePage, apiReferenceScript } from '@/server/http/api-reference';
