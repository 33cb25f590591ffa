import { apiErrorFromUnknown } from '@/server/trpc/errors';
import { errorDoorReply, type DoorReply } from './edge-checks';
import type { IncomingHead } from './request-head';

/**
 * Every URL Roomtone serves besides the console's pages (and the API reference under /docs,
 * which Next.js serves with the pages' headers and compression), in one table. The edge server
 * (http/edge-server.ts) looks a request up here before anything else; what no pattern takes
 * goes to Next.js. Patterns use the App Router's notation: `[...x]` one or more segments,
 * `[[...x]]` the path itself or anything under it.
 *
 * Handlers are loaded on first use: a route's code (next-auth, the Inngest SDK, the MCP SDK)
 * loads only in processes that serve it, and the edge server preloads them once Next.js is
 * prepared (next-auth needs Next's runtime set up first).
 */

/** A reply the servers write as is, or a fetch Response (tRPC, Auth.js, Inngest). */
export type RouteReply = DoorReply | Response;
/** A route's handler: the request's head at once, its web Request (the body) on demand. */
export type RouteHandler = (req: IncomingHead, requestId: string) => Promise<RouteReply>;
type WebRouteHandler = (req: Request, requestId: string) => Promise<RouteReply>;

/** A handler that takes the web Request (a body, or an adapter that wants one). */
const web =
  (handler: WebRouteHandler): RouteHandler =>
  (req, requestId) =>
    handler(req.request(), requestId);

interface RouteDefinition {
  /** `/readyz`, `/files/[...key]`, `/v1/[[...path]]`. */
  pattern: string;
  load: () => Promise<RouteHandler>;
  /**
   * The answer is a stream written as it comes (Server-Sent Events), and the request's signal
   * aborts when the client goes away (the edge server ties it to the socket).
   */
  streams?: true;
}

/** A keyless GET door that takes the path after its prefix (still percent-encoded) and the query. */
function underPrefix(prefix: string, serve: (method: string, rest: string, search: URLSearchParams) => Promise<RouteReply>): RouteHandler {
  return (req) => {
    const url = new URL(req.url);
    return serve(req.method, url.pathname.slice(prefix.length), url.searchParams);
  };
}

const DEFINITIONS: RouteDefinition[] = [
  // First: the API is looked up before anything else (the stream before the rest of /v1).
  { pattern: '/v1/events/stream', load: async () => web((await import('./event-stream')).serveEventStream), streams: true },
  { pattern: '/v1/[[...path]]', load: async () => (await import('./v1')).serveV1 },
  { pattern: '/mcp', load: async () => web((await import('@/server/mcp/endpoint')).serveMcp) },
  { pattern: '/uploads/[...id]', load: async () => web((await import('./upload-put')).serveUploadPut) },
  { pattern: '/files/[...key]', load: async () => underPrefix('/files/', (await import('./public-files')).serveSignedFile) },
  { pattern: '/swatches/[...id]', load: async () => underPrefix('/swatches/', (await import('./public-files')).serveSwatch) },
  { pattern: '/api/trpc/[...path]', load: async () => web((await import('./console-trpc')).handleConsoleTrpc) },
  { pattern: '/api/auth/[...nextauth]', load: async () => web((await import('./console-auth')).handleAuth) },
  {
    pattern: '/api/inngest',
    // The Inngest SDK and the job handlers (the engine) load at the first call, not with the
    // table: with the default provider, pg-boss, this route only ever answers 404.
    load: async () => async (req) => (await import('@/server/jobs/inngest-endpoint')).serveInngest(req.request()),
  },
  { pattern: '/hooks/replicate/[...token]', load: async () => web((await import('./replicate-hook')).serveReplicateHook) },
  // Stripe's webhook: the checkout events that confirm console credit purchases.
  { pattern: '/api/payments/stripe', load: async () => web((await import('./stripe-webhook')).serveStripeWebhook) },
  { pattern: '/healthz', load: async () => web((await import('./ops')).serveHealth) },
  { pattern: '/readyz', load: async () => web((await import('./ops')).serveReadiness) },
  { pattern: '/metrics', load: async () => web((await import('./ops')).serveMetrics) },
];

export interface Route {
  readonly pattern: string;
  readonly streams: boolean;
  /** The route's handler, loaded once. */
  handler(): Promise<RouteHandler>;
  /** The handler if it is already loaded (the hot path skips a promise). */
  readonly loaded: RouteHandler | null;
}

type Matcher = (pathname: string) => boolean;

/** `[[...x]]`: the folder and anything under it; `[...x]`: at least one segment under it; else exactly. */
function matcherOf(pattern: string): Matcher {
  const optional = /^(.*)\/\[\[\.\.\.\w+\]\]$/.exec(pattern);
  if (optional) {
    const base = optional[1]!;
    return (p) => p === base || p.startsWith(`${base}/`);
  }
  const catchAll = /^(.*)\/\[\.\.\.\w+\]$/.exec(pattern);
  if (catchAll) {
    const under = `${catchAll[1]!}/`;
    return (p) => p.length > under.length && p.startsWith(under);
  }
  if (pattern.includes('[')) throw new Error(`route pattern ${pattern}: only a last [...x] or [[...x]] segment is supported`);
  return (p) => p === pattern;
}

function routeOf(definition: RouteDefinition): Route & { matches: Matcher } {
  let loading: Promise<RouteHandler> | null = null;
  const route = {
    pattern: definition.pattern,
    streams: definition.streams === true,
    matches: matcherOf(definition.pattern),
    loaded: null as RouteHandler | null,
    handler(): Promise<RouteHandler> {
      loading ??= definition.load().then((handler) => (route.loaded = handler));
      return loading;
    },
  };
  return route;
}

const TABLE = DEFINITIONS.map(routeOf);

/** Every route, in lookup order. */
export const ROUTES: readonly Route[] = TABLE;

/**
 * The route files under app/, outside the table: the API reference (an HTML page and its 4 MB
 * script, for browsers), which Next.js serves with the console's security headers (proxy.ts)
 * and its compression.
 */
export const PAGE_ROUTE_FILES: readonly string[] = ['/docs', '/docs/reference.js'];

/** The route that serves `pathname` (decoded or not: patterns are plain ASCII), or null (a console page, or 404). */
export function findRoute(pathname: string): Route | null {
  for (const route of TABLE) if (route.matches(pathname)) return route;
  return null;
}

/** Load every handler now (the edge server, at start: no first request pays for it). */
export async function preloadRoutes(): Promise<void> {
  await Promise.all(TABLE.map((route) => route.handler()));
}

/**
 * One request through its route: the handler's reply with the request-id, or whatever it
 * threw in the envelope (unexpected errors logged once, 500 internal_error).
 */
export async function serveRoute(route: Route, req: IncomingHead, requestId: string): Promise<RouteReply> {
  try {
    const handler = route.loaded ?? (await route.handler());
    const reply = await handler(req, requestId);
    if (reply instanceof Response) return reply;
    return { ...reply, headers: { ...reply.headers, 'request-id': requestId } };
  } catch (error) {
    return errorDoorReply(apiErrorFromUnknown(error, { requestId, route: `${req.method} ${route.pattern}` }), requestId);
  }
}
