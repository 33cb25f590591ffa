import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER } from '@/console-server/request-path';

/**
 * Security headers of the console's pages. script-src keeps 'unsafe-inline' because Next's
 * bootstrap and the theme script are inline and the pages are static (a nonce would force
 * dynamic rendering of every page); 'unsafe-eval' only in development (React's dev tooling).
 * Images may come from the object store's presigned URLs (another origin), hence https:.
 */
const isDev = process.env.NODE_ENV === 'development';

const CSP = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
};

export function proxy(request: NextRequest) {
  // Where sign-in returns to when the console layout redirects a signed-out visitor.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  // The console's pages only, never a route of the table (src/server/doors/http/routes.ts; a test
  // checks that this list covers it): a proxy there would truncate uploads at 10 MB, and the
  // API's answers would change between `npm start` (where the table is served before Next.js)
  // and plain `next start`.
  matcher: ['/((?!v1|mcp|api|files|uploads|swatches|hooks|healthz|readyz|metrics|_next/static|_next/image|favicon.ico).*)'],
};
