// @node-lines same: our route table and the console proxy's matchers
/** The route table (routes.ts): what each path takes, and the console's proxy never sees one of its paths. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoute, ROUTES, serveRoute } from './routes';
import type { IncomingHead } from './request-head';
import { config as proxyConfig } from '../../../../proxy';
import { REPLICATE_WEBHOOK_PATH } from '@/server/capabilities/engine/replicate/replicate-webhook';
import { INNGEST_SERVE_PATH } from '@/server/platform/jobs/providers/inngest-events';
import { EVENT_STREAM_PATH } from '@/server/capabilities/webhooks/event-stream';

/**
 * The App Router's own route files (the `route.ts` files under app/: the API reference, served by
 * Next.js with the pages' headers and compression), as the paths they serve.
 */
const APP_ROUTE_PATHS = fs
  .readdirSync(path.join(import.meta.dirname, '../../../../app'), { recursive: true, encoding: 'utf8' })
  .filter((file) => path.basename(file) === 'route.ts')
  .map((file) => `/${path.dirname(file).split(path.sep).join('/')}`);

/** A concrete path a route serves: `/files/*` → `/files/x`. */
const sample = (routePath: string) => routePath.replace(/\/\*\*?$/, '/x');

describe('the route table and the console proxy', () => {
  it('the console proxy matches no path of the table, and still matches the pages', () => {
    const matchers = proxyConfig.matcher.map((m) => new RegExp(`^${m}$`));
    const proxied = (p: string) => matchers.some((m) => m.test(p));
    for (const route of ROUTES) {
      const base = route.path.replace(/\/\*\*?$/, '');
      for (const p of [base, sample(route.path)]) expect({ path: p, proxied: proxied(p) }).toEqual({ path: p, proxied: false });
    }
    for (const page of ['/', '/sign-in', '/o/org_1/test/generations', '/invite/abc', ...APP_ROUTE_PATHS]) expect({ page, proxied: proxied(page) }).toEqual({ page, proxied: true });
  });
});

describe('findRoute', () => {
  const patternOf = (p: string) => findRoute(p)?.path ?? null;

  it('/x/**: the folder itself and everything under it (a plain path listed before it first)', () => {
    expect(patternOf('/v1')).toBe('/v1/**');
    expect(patternOf('/v1/events/stream')).toBe('/v1/events/stream');
    expect(patternOf('/v1/events')).toBe('/v1/**');
    expect(patternOf('/v1/generations/gen_1/cancel')).toBe('/v1/**');
    expect(patternOf('/v1x')).toBeNull();
  });

  it('/x/*: at least one segment under the folder', () => {
    expect(patternOf('/files/org/a.webp')).toBe('/files/*');
    expect(patternOf('/files/')).toBeNull();
    expect(patternOf('/files')).toBeNull();
    expect(patternOf('/uploads/upl_1')).toBe('/uploads/*');
    expect(patternOf('/api/trpc/keys.list,usage.summary')).toBe('/api/trpc/*');
    expect(patternOf('/api/auth/callback/credentials')).toBe('/api/auth/*');
  });

  it('a plain path: that path only', () => {
    for (const p of ['/mcp', '/healthz', '/readyz', '/metrics', '/api/inngest']) expect(patternOf(p)).toBe(p);
    for (const p of ['/mcp/x', '/readyz/', '/api/inngest/x', '/api', '/']) expect(patternOf(p)).toBeNull();
  });

  it('console pages and the App Router\'s route files are not in the table', () => {
    expect(APP_ROUTE_PATHS).toContain('/docs');
    for (const p of ['/sign-in', '/o/org_1/test/overview', '/_next/static/chunk.js', ...APP_ROUTE_PATHS]) expect(patternOf(p)).toBeNull();
  });

  it('the paths other modules hand out are the table\'s', () => {
    expect(patternOf(`${REPLICATE_WEBHOOK_PATH}gen_1.token`)).toBe('/hooks/replicate/*');
    expect(patternOf(INNGEST_SERVE_PATH)).toBe('/api/inngest');
    expect(patternOf(EVENT_STREAM_PATH)).toBe('/v1/events/stream');
  });
});

describe('serveRoute', () => {
  const head = (method: string, path: string): IncomingHead => ({
    method,
    url: `http://roomtone.test${path}`,
    headers: new Headers(),
    request: () => new Request(`http://roomtone.test${path}`, { method }),
  });

  it('a method the table does not list for a route: 405 method_not_allowed with Allow, before the handler, with the request-id', async () => {
    for (const [method, path, allow] of [
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/files/org/a.webp', 'GET, HEAD'],
      ['PATCH', '/swatches/mat_1', 'GET, HEAD'],
      ['GET', '/uploads/upl_1', 'PUT'],
    ] as const) {
      const route = findRoute(path)!;
      const reply = await serveRoute(route, head(method, path), 'req_test');
      expect({ path, status: reply.status, headers: reply.headers, body: JSON.parse(reply.body as string) as unknown }).toMatchObject({
        path,
        status: 405,
        headers: { allow, 'request-id': 'req_test' },
        body: { error: { code: 'method_not_allowed' } },
      });
    }
  });

  it('every path is in one of the three notations', () => {
    for (const route of ROUTES) expect(route.path).toMatch(/^\/[a-z0-9/-]*[a-z0-9](\/\*\*?)?$/);
  });
});
