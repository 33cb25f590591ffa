import type http from 'node:http';
import { requestBodyStream } from './request-body';
import type { RequestHead } from '@/server/doors/request-head';

/**
 * A request as the route table's handlers receive it: the head at once, the web `Request`
 * (the body, for adapters that take one) built only when a handler asks. Measured, building
 * Node's `Request` and `Headers` for every request is a visible share of a /v1 read's CPU,
 * and the reads never need them.
 */
export interface IncomingHead extends RequestHead {
  request(): Request;
}

function toWebRequest(req: http.IncomingMessage, url: string, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    ...(signal ? { signal } : {}),
    ...(hasBody ? { body: requestBodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * A node:http request as a head (the launcher's edge server). `headers.get` answers what the
 * web `Headers` built from the same request would: Node has already merged or dropped
 * repeated fields, and only `set-cookie` stays a list (joined as `Headers` joins it).
 */
export function headOfIncoming(req: http.IncomingMessage, url: string, signal?: AbortSignal): IncomingHead {
  let request: Request | undefined;
  return {
    method: req.method ?? 'GET',
    url,
    headers: {
      get(name: string): string | null {
        const value = req.headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    request: () => (request ??= toWebRequest(req, url, signal)),
  };
}

/** A path `new URL` gives back as it is: letters, digits, `_`, `-` and `/` (no dot segment, no escape, no query). */
const PLAIN_PATH = /^\/[\w/-]*$/;

/** What a door reads of a request's URL. */
export type RequestTarget = Pick<URL, 'pathname' | 'search' | 'searchParams'>;

/** A plain path without a query, as a RequestTarget. */
class PlainTarget implements RequestTarget {
  readonly search = '';
  constructor(readonly pathname: string) {}
  get searchParams(): URLSearchParams {
    return new URLSearchParams();
  }
}

/**
 * The path and query of a request's absolute URL, as `new URL(url)` gives them. A plain path
 * without a query (a /v1 read by id) is taken as it is, without the parse: measured, a visible
 * share of such a read's CPU.
 */
export function requestTarget(url: string): RequestTarget {
  const scheme = url.indexOf('://');
  const pathAt = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (pathAt !== -1) {
    const pathname = url.slice(pathAt);
    if (PLAIN_PATH.test(pathname)) return new PlainTarget(pathname);
  }
  return new URL(url);
}
