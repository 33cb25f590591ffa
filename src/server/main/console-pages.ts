/**
 * What the console's pages (Next.js's server bundle) call in the service: a door of its own,
 * compiled with the rest of the server (scripts/build-server.mjs) and imported by the pages at
 * run time (src/console-server/server.ts), never bundled by Next. The launcher that runs
 * Next.js has loaded the same compiled files, so the pages reach the process's one
 * configuration, database pool and key cache.
 */
export { readConsoleSession } from '@/server/capabilities/auth/sessions';
export { config } from '@/server/platform/config';
export { me } from '@/server/capabilities/members/my-organizations';
export { organizationsOpenToUsers } from '@/server/capabilities/orgs/create-my-organization';
export { consoleRouter } from '@/server/doors/trpc/console-router';
export { apiReferencePage, apiReferenceScript } from '@/server/doors/http/api-reference';
