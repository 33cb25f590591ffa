import type http from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError, PARSER_REFUSALS } from '@/server/doors/errors';
import { config } from '@/server/platform/config';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';

/**
 * What the launcher's HTTP server checks before any route sees a request:
 * the request URL is built from a fixed origin and the request path, never from `Host`; an
 * absolute-form target is served for our own origin only; methods outside HTTP's usual set
 * are refused in the envelope; a path whose percent-encoding is malformed is refused.
 */
export const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

let parsedOrigin: { base: string; origin: string; host: string } | null = null;

/** The origin every request URL is built on (PUBLIC_BASE_URL, else http://localhost:PORT): parsed once, not per request. */
export function fixedOrigin(): { readonly origin: string; readonly host: string } {
  const base = config().publicBaseUrl;
  if (parsedOrigin?.base !== base) {
    const url = new URL(base);
    parsedOrigin = { base, origin: url.origin, host: url.host };
  }
  return parsedOrigin;
}

/**
 * The request's path and query, checked; or the refusal. Rewrites nothing on `req`: the
 * caller decides (Next.js gets `req.url` = the path and `Host` = our own).
 */
export function checkTarget(req: http.IncomingMessage): { path: string } | ApiError {
  const method = req.method ?? '';
  if (!KNOWN_METHODS.has(method)) {
    return new ApiError('method_not_allowed', `Method ${method} is not supported.`, { headers: { allow: [...KNOWN_METHODS].join(', ') } });
  }
  const target = req.url ?? '';
  let path = target;
  if (target === '*') {
    // OPTIONS * asks about the server as a whole: a browser's question, refused like any OPTIONS.
    return method === 'OPTIONS'
      ? new ApiError('browser_request_refused', 'The API does not accept browser (CORS) requests.')
      : new ApiError('parameter_invalid', 'The request target * is only meaningful with OPTIONS.');
  }
  if (!target.startsWith('/')) {
    // Absolute form (`GET http://host/path`): proxies send it; serve it only for our own origin.
    let absolute: URL;
    try {
      absolute = new URL(target);
    } catch {
      return new ApiError('parameter_invalid', 'The request target is not a valid path or URL.');
    }
    if (absolute.origin !== fixedOrigin().origin) {
      return new ApiError('parameter_invalid', `This server does not serve ${absolute.origin}.`);
    }
    path = `${absolute.pathname}${absolute.search}`;
  }
  if (path.startsWith('//')) return new ApiError('parameter_invalid', 'The request path must not start with //.');
  const end = path.search(/[?#]/);
  const pathOnly = end === -1 ? path : path.slice(0, end);
  // Only a `%` can make the path invalid percent-encoding.
  if (pathOnly.includes('%')) {
    try {
      decodeURIComponent(pathOnly);
    } catch {
      // /files and /swatches answer their own refusal (an invalid file URL, an unknown swatch).
      if (!/^\/(files|swatches)\//.test(path)) return new ApiError('parameter_invalid', 'The request path is not valid percent-encoding.');
    }
  }
  return { path };
}

/**
 * Requests Node's parser refuses (over-long headers, garbage request line, unknown method,
 * Content-Length with chunked, …) are answered in the envelope, with a request-id, then closed.
 */
export function answerClientError(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? PARSER_REFUSALS.headersTooLarge
      : error.code === 'CONNECT'
        ? PARSER_REFUSALS.connect
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? PARSER_REFUSALS.timeout
          : PARSER_REFUSALS.malformed;
  const { status, code, message } = refusal;
  const requestId = newId('req');
  log.info('unparseable request refused', { requestId, status, reason: error.code ?? error.message });
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\nrequest-id: ${requestId}\r\n` +
      `connection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
