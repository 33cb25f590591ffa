/**
 * Next.js runs this once per server process before it serves requests. Under plain
 * `next start` it makes the socket address the client IP of /v1, as the launcher does
 * (src/server/http/client-ip.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { stampEveryServer } = await import('@/server/http/client-ip');
  stampEveryServer();
}
