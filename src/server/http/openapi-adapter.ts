import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { TrpcContext } from '@/server/trpc/context';
import { v1Router } from '@/server/trpc/v1-router';

/**
 * trpc-to-openapi behind /v1, with its handler built once. The library's own fetch adapter
 * rebuilds the handler (and its procedure table) on every request and re-parses the body; here
 * the wrapper hands over the body it already read and parsed within the limits, and the
 * context travels on the request.
 */
const CONTEXT = Symbol('roomtone.trpcContext');
// Keyed by the request: a failure before any context exists (unknown route) has no ctx.
const FAILURE = new WeakMap<object, unknown>();

type ContextCarrier = Request & { [CONTEXT]: TrpcContext };

const nodeHandler = createOpenApiNodeHttpHandler({
  router: v1Router,
  createContext: ({ req }: { req: unknown }) => (req as ContextCarrier)[CONTEXT],
  responseMeta: ({ ctx, errors }: { ctx?: TrpcContext; errors: unknown[] }) =>
    errors.length > 0 ? {} : { status: ctx?.response.status ?? 200, headers: ctx?.response.headers ?? {} },
  onError: ({ error, req }: { error: unknown; req: object }) => {
    FAILURE.set(req, error);
  },
} as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]);

export interface OpenApiResult {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** The error a procedure (or input validation) raised, if any. */
  failure: unknown;
}

/**
 * Run the procedure behind `url` with `body` (already parsed; undefined for GET).
 * `url` must be the /v1 URL; the adapter matches the path without the /v1 prefix.
 */
export function callOpenApi(req: Request, url: URL, body: Record<string, unknown> | undefined, ctx: TrpcContext): Promise<OpenApiResult> {
  const relative = `${url.pathname.slice('/v1'.length) || '/'}${url.search}`;
  const proxied = new Proxy(req, {
    get(target, prop) {
      if (prop === CONTEXT) return ctx;
      if (prop === 'url') return relative;
      if (prop === 'body') return body;
      if (prop === 'headers' && body !== undefined) {
        // The body handed over is JSON, whatever the wire format was (multipart included).
        const headers = new Headers(target.headers);
        headers.set('content-type', 'application/json');
        return headers;
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has(target, prop) {
      return prop === 'body' ? body !== undefined : Reflect.has(target, prop);
    },
  });
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    let status = 200;
    const res = {
      setHeader(name: string, value: string | string[]) {
        headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
      },
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      end(text?: string) {
        resolve({ status, headers, body: text ?? '', failure: FAILURE.get(proxied) ?? null });
      },
    };
    // A throw inside the library must reach the door (a 500 in the envelope), never hang.
    (nodeHandler as unknown as (req: unknown, res: unknown) => Promise<void>)(proxied, res).catch(reject);
  });
}
