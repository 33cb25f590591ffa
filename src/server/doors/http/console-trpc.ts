import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { config } from '@/server/platform/config';
import { readConsoleSession } from '@/server/capabilities/auth/sessions';
import { consoleRouter } from '@/server/doors/trpc/console-router';
import { clientIp } from '@/server/doors/client-ip';
import { httpStatusOf } from '@/server/doors/errors';

/**
 * The console's tRPC door (/api/trpc). Only the session cookie authenticates here (an API key
 * in Authorization is ignored, so a key alone is 401). Mutations must come from the console's
 * own origin: a cross-site POST carrying the cookie is refused before any procedure runs.
 */
export const CONSOLE_TRPC_ENDPOINT = '/api/trpc';

function trustsForwardedHost(): boolean {
  return config().AUTH_TRUST_HOST === 'true' || config().AUTH_TRUST_HOST === '1';
}

/**
 * Whether a mutation's Origin is the console's own. With PUBLIC_BASE_URL set, exactly its
 * origin. Unset (the zero-setup default), the console is wherever it was opened — localhost,
 * 127.0.0.1, a LAN name — so the request's own host is its origin, as Next.js Server Actions
 * decide (Origin's host equal to Host). That stays a CSRF defence: another site's page sends
 * its own Origin, which is not this Host; and a site rebinding its name to this server gets its
 * own Host but never this console's cookie (cookies follow the name, not the address).
 */
function isConsoleOrigin(origin: string, req: Request): boolean {
  if (origin === new URL(config().publicBaseUrl).origin) return true;
  const host = (trustsForwardedHost() ? req.headers.get('x-forwarded-host') : null) ?? req.headers.get('host');
  if (!host) return false;
  if (trustsForwardedHost()) {
    // Behind a proxy that sets the host (AUTH_TRUST_HOST), the request's own origin is ours too.
    const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol.replace(':', '');
    if (origin === `${proto}://${host}`) return true;
  }
  if (config().PUBLIC_BASE_URL) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  return originHost.toLowerCase() === host.toLowerCase();
}

function crossSiteRefusal(): Response {
  const apiError = { code: 'cross_site_request_refused' as const, message: 'Console changes must come from the console itself (Origin check).' };
  const status = httpStatusOf(apiError.code);
  const body = { error: { message: apiError.message, code: -32003, data: { code: 'FORBIDDEN', httpStatus: status, apiError } } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

export async function handleConsoleTrpc(req: Request): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const origin = req.headers.get('origin');
    if (!origin || !isConsoleOrigin(origin, req)) return crossSiteRefusal();
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
