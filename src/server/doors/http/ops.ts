import { timingSafeEqual } from 'node:crypto';
import { ApiError, httpStatusOf } from '@/server/doors/errors';
import { config } from '@/server/platform/config';
import { METRICS_CONTENT_TYPE, metricsText } from '@/server/capabilities/observability/metrics';
import { jobs } from '@/server/platform/jobs/client';
import { readiness } from '@/server/capabilities/observability/readiness';
import type { DoorReply } from '@/server/doors/door';

/**
 * The operator's doors: GET /healthz (liveness), GET /readyz (readiness probe) and GET /metrics
 * (Prometheus, token-protected; off, it is 404 for every method, like an unknown route).
 */
const NO_STORE = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/**
 * Liveness: 200 while the process answers, whatever the database does. A database outage is
 * /readyz's to report (503 not_ready): an orchestrator that restarted the service on it would
 * only add a restart to the outage, and the service heals by itself when the database is back.
 */
export async function serveHealth(): Promise<DoorReply> {
  return { status: 200, headers: NO_STORE, body: JSON.stringify({ status: 'ok' }) };
}

export async function serveReadiness(): Promise<DoorReply> {
  const state = await readiness();
  const embedded = state.embeddedDatabase
    ? { embedded_database: { state: state.embeddedDatabase.state, restarts: state.embeddedDatabase.restarts, last_exit: state.embeddedDatabase.lastExit } }
    : {};
  return { status: state.ready ? 200 : httpStatusOf('service_unavailable'), headers: NO_STORE, body: JSON.stringify({ status: state.ready ? 'ready' : 'not_ready', checks: state.checks, ...embedded }) };
}

/** Off (404, like any unknown route) unless METRICS_TOKEN is set; then `Authorization: Bearer <token>`. */
export async function serveMetrics(req: Request): Promise<DoorReply> {
  const token = config().METRICS_TOKEN;
  if (!token) throw new ApiError('route_not_found', 'Unrecognized request URL.');
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('method_not_allowed', `Method ${req.method} is not allowed here; use GET.`, { headers: { allow: 'GET, HEAD' } });
  const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError('api_key_invalid', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
  }
  return { status: 200, headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }, body: await metricsText(() => jobs().waitingJobs()) };
}
