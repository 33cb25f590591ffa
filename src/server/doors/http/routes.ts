import { ApiError, apiErrorFromUnknown } from '@/server/doors/errors';
import { errorReply, replyOfResponse, type DoorReply } from '@/server/doors/door';
import type { IncomingHead } from './request-head';

/**
 * Every URL Roomtone serves besides the console's pages (and the API reference under /docs,
 * which Next.js serves with the pages' headers and compression), in one table. The edge server
 * (http/edge-server.ts) looks a request up here before anything else; what no row takes goes to
 * Next.js. Rows are tried in order.
 *
 * path     `/x` that path only; `/x/*` one or more segments under /x; `/x/**` /x and anything under it.
 * methods  what the route serves: any other method is 405 method_not_allowed with `Allow`, before
 *          the handler runs. `ANY`: the handler judges the method itself, after what must come
 *          first (the keyed doors refuse browsers, whose preflight is an OPTIONS, and count the
 *          request; Auth.js, tRPC and Inngest route methods themselves; /metrics is 404 when off).
 * handler  loaded on first use, so a route's code (next-auth, the Inngest SDK, the MCP SDK) loads
 *          only in processes that serve it; the edge server preloads them once Next.js is
 *          prepared (next-auth needs Next's runtime set up first).
 * streams  what the route streams, written as it comes; the request's signal aborts when the
 *          client goes away (the edge server ties it to the socket). Others answer in one write.
 * console  the console's own routes: an instance without the console (CONSOLE_ENABLED=false)
 *          serves them as it serves its pages, with a 404.
 */
const ANY = 'ANY';
const READ = ['GET', 'HEAD'] as const;

const ROUTE_TABLE: readonly RouteRow[] = [
  { path: '/v1/events/stream',         methods: ANY,      handler: async () => web((await import('./event-stream')).serveEventStream), streams: 'test-mode generation events (Server-Sent Events)' },
  { path: '/v1/**',                    methods: ANY,      handler: async () => (await import('./v1')).serveV1 },
  { path: '/mcp',                      methods: ANY,      handler: async () => web((await import('@/server/doors/mcp/endpoint')).serveMcp) },
  { path: '/uploads/*',                methods: ['PUT'],  handler: async () => web((await import('./upload-put')).serveUploadPut) },
  { path: '/files/*',                  methods: READ,     handler: async () => underPrefix('/files/', (await import('./public-files')).serveSignedFile) },
  { path: '/swatches/*',               methods: READ,     handler: async () => underPrefix('/swatches/', (await import('./public-files')).serveSwatch) },
  { path: '/api/trpc/*',               methods: ANY,      handler: async () => fetchHandler((await import('./console-trpc')).handleConsoleTrpc), console: true },
  { path: '/api/auth/*',               methods: ANY,      handler: async () => fetchHandler((await import('./console-auth')).handleAuth), console: true },
  // The Inngest SDK and the job handlers (the engine) load at the first call, not with the table:
  // with the default provider, pg-boss, this route only ever answers 404.
  { path: '/api/inngest',              methods: ANY,      handler: async () => fetchHandler(async (req) => (await import('@/server/jobs/inngest-endpoint')).serveInngest(req)) },
  { path: '/hooks/replicate/*',        methods: ANY,      handler: async () => web((await import('./replicate-hook')).serveReplicateHook) },
  // Stripe's webhook: the checkout events that confirm console credit purchases.
  { path: '/api/payments/stripe',      methods: ANY,      handler: async () => web((await import('./stripe-webhook')).serveStripeWebhook) },
  { path: '/healthz',                  methods: READ,     handler: async () => (await import('./ops')).serveHealth },
  { path: '/readyz',                   methods: READ,     handler: async () => (await import('./ops')).serveReadiness },
  { path: '/metrics',                  methods: ANY,      handler: async () => web((await import('./ops')).serveMetrics) },
];

/** A route's handler: the request's head at once, its web Request (the body) on demand. */
export type RouteHandler = (req: IncomingHead, requestId: string) => Promise<DoorReply>;

interface RouteRow {
  path: string;
  methods: typeof ANY | readonly string[];
  handler: () => Promise<RouteHandler>;
  streams?: string;
  console?: true;
}

/** A handler that takes the web Request (a body, or a library that wants one). */
function web(handler: (req: Request, requestId: string) => Promise<DoorReply>): RouteHandler {
  return (req, requestId) => handler(req.request(), requestId);
}

/** A library's fetch handler (tRPC, Auth.js, Inngest): its Response read whole. */
function fetchHandler(handler: (req: Request) => Promise<Response>): RouteHandler {
  return async (req) => replyOfResponse(await handler(req.request()));
}

/** A keyless GET door that takes the path after its prefix (still percent-encoded) and the query. */
function underPrefix(prefix: string, serve: (rest: string, search: URLSearchParams) => Promise<DoorReply>): RouteHandler {
  return (req) => {
    const url = new URL(req.url);
    return serve(url.pathname.slice(prefix.length), url.searchParams);
  };
}

export interface Route {
  readonly path: string;
  /** What it streams, or null: it answers in one write. */
  readonly streams: string | null;
  /** One of the console's routes (served only where the console is). */
  readonly console: boolean;
  /** The route's handler, loaded once. */
  handler(): Promise<RouteHandler>;
  /** The handler if it is already loaded (the hot path skips a promise). */
  readonly loaded: RouteHandler | null;
  /** The 405 for a method the route does not serve, or null. */
  refuse(method: string): ApiError | null;
}

interface TableRoute extends Route {
  matches(pathname: string): boolean;
}

/** `/x/**`: /x and anything under it; `/x/*`: at least one segment under /x; else that path. */
function matcherOf(path: string): (pathname: string) => boolean {
  if (path.endsWith('/**')) {
    const base = path.slice(0, -3);
    return (p) => p === base || p.startsWith(`${base}/`);
  }
  if (path.endsWith('/*')) {
    const under = path.slice(0, -1);
    return (p) => p.length > under.length && p.startsWith(under);
  }
  return (p) => p === path;
}

function routeOf(row: RouteRow): TableRoute {
  let loading: Promise<RouteHandler> | null = null;
  const allowed = row.methods === ANY ? null : new Set(row.methods);
  const allow = row.methods === ANY ? '' : row.methods.join(', ');
  const route = {
    path: row.path,
    streams: row.streams ?? null,
    console: row.console === true,
    matches: matcherOf(row.path),
    refuse: (method: string) =>
      allowed === null || allowed.has(method) ? null : new ApiError('method_not_allowed', `Method ${method} is not allowed here; use ${allow}.`, { headers: { allow } }),
    loaded: null as RouteHandler | null,
    handler(): Promise<RouteHandler> {
      loading ??= row.handler().then((handler) => (route.loaded = handler));
      return loading;
    },
  };
  return route;
}

const TABLE = ROUTE_TABLE.map(routeOf);

/** Every route, in lookup order. */
export const ROUTES: readonly Route[] = TABLE;

/**
 * The route that serves `pathname` (decoded or not: paths are plain ASCII), or null (a console
 * page, or 404). Without the console (`withConsole` false) its routes are not served either.
 */
export function findRoute(pathname: string, withConsole = true): Route | null {
  for (const route of TABLE) if (route.matches(pathname)) return withConsole || !route.console ? route : null;
  return null;
}

/** Load every handler this process serves now (the edge server, at start: no first request pays for it). */
export async function preloadRoutes(options: { withConsole: boolean }): Promise<void> {
  await Promise.all(TABLE.filter((route) => options.withConsole || !route.console).map((route) => route.handler()));
}

/**
 * One request through its route: the handler's reply with the request-id, or what it threw
 * in the envelope (unexpected errors logged once, 500 internal_error).
 */
export async function serveRoute(route: Route, req: IncomingHead, requestId: string): Promise<DoorReply> {
  try {
    const refusal = route.refuse(req.method);
    if (refusal) throw refusal;
    const handler = route.loaded ?? (await route.handler());
    const reply = await handler(req, requestId);
    return { ...reply, headers: { ...reply.headers, 'request-id': requestId } };
  } catch (error) {
    return errorReply(apiErrorFromUnknown(error, { requestId, route: `${req.method} ${route.path}` }), requestId);
  }
}
