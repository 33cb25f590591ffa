import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '@/server/http/api-error';
import { config } from '@/server/platform/config';
import { METRICS_CONTENT_TYPE, metricsText } from '@/server/observability/metrics';
import { readiness } from '@/server/observability/readiness';
import type { DoorReply } from './front-door';

/** The operator's doors: GET /readyz (readiness probe) and GET /metrics (Prometheus, token-protected). */
function readOnly(method: string): void {
  if (method !== 'GET' && method !== 'HEAD') throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed here; use GET.`, { headers: { allow: 'GET, HEAD' } });
}

export async function serveReadiness(method: string): Promise<DoorReply> {
  readOnly(method);
  const state = await readiness();
  return { status: state.ready ? 200 : 503, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify({ status: state.ready ? 'ready' : 'not_ready', checks: state.checks }) };
}

/** Off (404, like any unknown route) unless METRICS_TOKEN is set; then `Authorization: Bearer <token>`. */
export async function serveMetrics(method: string, authorization: string | undefined): Promise<DoorReply> {
  const token = config().METRICS_TOKEN;
  if (!token) throw new ApiError(404, 'route_not_found', 'Unrecognized request URL.');
  readOnly(method);
  const given = Buffer.from(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(401, 'api_key_invalid', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
  }
  return { status: 200, headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }, body: await metricsText() };
}
