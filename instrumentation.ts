/**
 * Next.js runs this once per server process before it serves requests. Under plain
 * `next start` it starts the service around Next.js (src/server/main/inside-next.ts, loaded
 * from the sources: never bundled); under `npm start`, Next.js runs inside the launcher's web
 * processes, which have done that.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { launchedByLauncher } = await import('@/server/main/process-role');
  if (launchedByLauncher()) return;
  const { importFromSources } = await import('@/server/platform/source-modules');
  const { startInsideNext } = await importFromSources<typeof import('@/server/main/inside-next')>('src/server/main/inside-next.ts');
  await startInsideNext();
}
