/**
 * Next.js runs this once per server process before it serves requests. Under plain
 * `next start` it stamps every request as the launcher does (the socket address as client IP,
 * repeated Authorization headers kept: src/server/http/incoming-request.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { stampEveryServer } = await import('@/server/http/incoming-request');
  stampEveryServer();
}
