/**
 * Prometheus metrics (prom-client). Every process keeps its own registry; GET /metrics answers
 * the sum over the processes of `npm start`: a web process asks the primary, which asks every
 * web process for its registry as JSON and merges them with its own (job workers, queues)
 * through prom-client's AggregatorRegistry. Off unless METRICS_TOKEN is set.
 */
import client from 'prom-client';
import cluster from 'node:cluster';
import { poolStats } from '@/server/platform/db';
import { embeddedDatabaseState } from '@/server/platform/embedded-database-state';
import { askPrimary, askWebProcesses } from '@/server/platform/primary-ipc';
import { HttpSeriesRecorder } from './http-series';

const CREATION_ROUTES = new Set(['/v1/renders', '/v1/edits', '/v1/decorations', '/v1/upscales']);
const EXACT_ROUTES = new Set([
  ...CREATION_ROUTES, '/v1/generations', '/v1/styles', '/v1/edit-materials', '/v1/edit-material-categories', '/v1/openapi.json',
  '/healthz', '/readyz', '/metrics', '/mcp', '/',
]);
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const GENERATION_PATH = '/v1/generations/';

/** A bounded route label: templates for paths with ids, "other" for anything unknown. */
export function routeLabel(pathname: string): string {
  if (EXACT_ROUTES.has(pathname)) return pathname;
  // `/v1/generations/{id}` and `/v1/generations/{id}/cancel`, an id being one or more characters but `/`.
  if (pathname.length > GENERATION_PATH.length && pathname.startsWith(GENERATION_PATH)) {
    const slash = pathname.indexOf('/', GENERATION_PATH.length);
    if (slash === -1) return '/v1/generations/{id}';
    if (slash > GENERATION_PATH.length && pathname.length === slash + '/cancel'.length && pathname.endsWith('/cancel')) return '/v1/generations/{id}/cancel';
  }
  if (pathname.startsWith('/files/')) return '/files/{key}';
  if (pathname.startsWith('/swatches/')) return '/swatches/{id}';
  return pathname.startsWith('/v1/') || pathname === '/v1' ? '/v1/other' : 'other';
}

const HTTP_DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The counter and the histogram every request adds to (`registers`: where they export). */
export function httpMetrics(registers: client.Registry[]) {
  const requests = new client.Counter({ name: 'roomtone_http_requests_total', help: 'HTTP requests by route, method and status.', labelNames: ['route', 'method', 'status'] as const, registers });
  const duration = new client.Histogram({
    name: 'roomtone_http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers,
  });
  return { requests, duration, recorder: new HttpSeriesRecorder(requests, duration, HTTP_DURATION_BUCKETS) };
}

function build() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'roomtone_' });
  const registers = [registry];
  return {
    registry,
    http: httpMetrics(registers),
    admissionRefusals: new client.Counter({ name: 'roomtone_admission_refusals_total', help: 'Creation requests refused, by route and error code.', labelNames: ['route', 'code'], registers }),
    generations: new client.Counter({ name: 'roomtone_generations_total', help: 'Generations ended by this process, by type and final status.', labelNames: ['type', 'status'], registers }),
    engineSeconds: new client.Histogram({
      name: 'roomtone_generation_engine_seconds',
      help: 'Engine time of succeeded generations, by type and method.',
      labelNames: ['type', 'method'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers,
    }),
    pool: new client.Gauge({
      name: 'roomtone_db_pool_connections',
      help: "Database pool connections of the process (state: total, idle, waiting clients).",
      labelNames: ['state'],
      registers,
      collect() {
        const stats = poolStats();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    }),
    embeddedRestarts: new client.Counter({
      name: 'roomtone_embedded_database_restarts_total',
      help: 'Times the supervisor started the embedded PostgreSQL again after it exited (only in the process that runs it).',
      registers,
      collect() {
        const state = embeddedDatabaseState();
        if (!state) return;
        this.reset();
        this.inc(state.restarts);
      },
    }),
    embeddedState: new client.Gauge({
      name: 'roomtone_embedded_database_state',
      help: 'The embedded PostgreSQL: 1 for its current state (running; restarting after it exited; external: started again by another process), only in the process that runs it.',
      labelNames: ['state'],
      registers,
      collect() {
        const state = embeddedDatabaseState();
        this.reset();
        if (state) this.set({ state: state.state }, 1);
      },
    }),
  };
}

let built: ReturnType<typeof build> | undefined;
function metrics(): ReturnType<typeof build> {
  return (built ??= build());
}

export function observeHttp(pathname: string, method: string, status: number, seconds: number): void {
  metrics().http.recorder.observe(routeLabel(pathname), KNOWN_METHODS.has(method) ? method : 'other', status, seconds);
}

export function observeV1Reply(method: string, pathname: string, status: number, errorCode: string | null): void {
  if (method === 'POST' && CREATION_ROUTES.has(pathname) && status >= 400 && errorCode) metrics().admissionRefusals.inc({ route: pathname, code: errorCode });
}

export function observeGenerationEnd(type: string, status: 'succeeded' | 'failed', engine?: { method: string; seconds: number }): void {
  const m = metrics();
  m.generations.inc({ type, status });
  if (engine) m.engineSeconds.observe({ type, method: engine.method }, engine.seconds);
}

/** What waits in the job queues, from the job provider (the caller hands it in: the jobs import these metrics). */
export type QueueDepthSource = () => Promise<{ queue: string; waiting: number; oldestSeconds: number }[]>;

async function queueMetrics(source: QueueDepthSource): Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]> {
  const registry = new client.Registry();
  const waiting = new client.Gauge({ name: 'roomtone_queue_waiting_jobs', help: 'Jobs waiting to start, per queue.', labelNames: ['queue'], registers: [registry] });
  const oldest = new client.Gauge({ name: 'roomtone_queue_oldest_waiting_seconds', help: 'Age of the oldest waiting job, per queue (0 when none).', labelNames: ['queue'], registers: [registry] });
  for (const row of await source()) {
    waiting.set({ queue: row.queue }, row.waiting);
    oldest.set({ queue: row.queue }, row.oldestSeconds);
  }
  return registry.getMetricsAsJSON();
}

/** This process's registry as JSON: what a web process answers the primary. */
export function localMetricsJson(): Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]> {
  return metrics().registry.getMetricsAsJSON();
}

/** In the primary (or the only process): every process's metrics, merged, as Prometheus text. */
export async function mergedMetricsText(queues: QueueDepthSource): Promise<string> {
  const parts = [await localMetricsJson(), await queueMetrics(queues).catch(() => [])];
  if (cluster.isPrimary) parts.push(...((await askWebProcesses('metrics')) as Awaited<ReturnType<typeof localMetricsJson>>[]));
  return client.AggregatorRegistry.aggregate(parts as Parameters<typeof client.AggregatorRegistry.aggregate>[0]).metrics();
}

/** What GET /metrics answers in any process: the merged text (from the primary when there is one). */
export async function metricsText(queues: QueueDepthSource): Promise<string> {
  if (cluster.isWorker) {
    const text = await askPrimary('metrics-merged', 10_000);
    if (typeof text === 'string') return text;
  }
  return mergedMetricsText(queues);
}

export const METRICS_CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE;
