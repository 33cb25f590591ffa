import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER } from '@/app-server/request-path';

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
  // Never the API doors: /v1 and /mcp (a proxy there truncates uploads at 10 MB), /api, signed /files.
  matcher: ['/((?!v1|mcp|api|files|_next/static|_next/image|favicon.ico).*)'],
};
