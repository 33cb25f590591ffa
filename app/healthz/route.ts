export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * Liveness: 200 while the process answers, whatever the database does. A database outage is
 * /readyz's to report (503 not_ready): an orchestrator that restarted the service on it would
 * only add a restart to the outage, and the service heals by itself when the database is back.
 */
export function GET(): Response {
  return Response.json({ status: 'ok' });
}
