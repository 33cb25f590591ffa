import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { config } from '@/server/platform/config';
import { readConsoleSession } from '@/server/auth/sessions';
import { consoleRouter } from '@/server/trpc/console-router';
import { clientIp } from './client-ip';

/**
 * The console's tRPC door (/api/trpc). Only the session cookie authenticates here (an API key
 * in Authorization is ignored, so a key alone is 401). Mutations must come from the console's
 * own origin: a cross-site POST carrying the cookie is refused before any procedure runs.
 */
export const CONSOLE_TRPC_ENDPOINT = '/api/trpc';

function allowedOrigins(req: Request): Set<string> {
  const origins = new Set([new URL(config().publicBaseUrl).origin]);
  // Behind a proxy that sets the host (AUTH_TRUST_HOST), the request's own origin is ours too.
  if (config().AUTH_TRUST_HOST === 'true' || config().AUTH_TRUST_HOST === '1') {
    const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
    const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol.replace(':', '');
    if (host) origins.add(`${proto}://${host}`);
  }
  return origins;
}

function crossSiteRefusal(): Response {
  const apiError = { code: 'cross_site_request_refused', message: 'Console changes must come from the console itself (Origin check).' };
  const body = { error: { message: apiError.message, code: -32003, data: { code: 'FORBIDDEN', httpStatus: 403, apiError } } };
  return new Response(JSON.stringify(body), { status: 403, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

export async function handleConsoleTrpc(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const origin = req.headers.get('origin');
    if (!origin || !allowedOrigins(req).has(origin)) return crossSiteRefusal();
  }
  return fetchRequestHandler({
    endpoint: CONSOLE_TRPC_ENDPOINT,
    req,
    router: consoleRouter,
    createContext: async () => {
      const origin = { ip: clientIp(req), userAgent: req.headers.get('user-agent') };
      const { user, pending } = await readConsoleSession(req.headers.get('cookie'), origin);
      return { user, pending, ...origin };
    },
    responseMeta: () => ({ headers: { 'cache-control': 'no-store' } }),
  });
}
