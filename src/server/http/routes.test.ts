/** The route table (routes.ts): what each pattern takes, and the console's proxy never sees one of its paths. */
import { describe, expect, it } from 'vitest';
import { findRoute, PAGE_ROUTE_FILES, ROUTES } from './routes';
import { config as proxyConfig } from '../../../proxy';
import { REPLICATE_WEBHOOK_PATH } from '@/server/engine/replicate/replicate-webhook';
import { INNGEST_SERVE_PATH } from '@/server/platform/jobs/providers/inngest-events';
import { EVENT_STREAM_PATH } from '@/server/webhooks/event-stream';

/** A concrete path a pattern serves: `/files/[...key]` → `/files/x`. */
const sample = (pattern: string) => pattern.replace(/\/\[\[?\.\.\.\w+\]\]?$/, '/x');

describe('the route table and the console proxy', () => {
  it('the console proxy matches no path of the table, and still matches the pages', () => {
    const matchers = proxyConfig.matcher.map((m) => new RegExp(`^${m}$`));
    const proxied = (p: string) => matchers.some((m) => m.test(p));
    for (const route of ROUTES) {
      const base = route.pattern.replace(/\/\[.*$/, '');
      for (const p of [base, sample(route.pattern)]) expect({ path: p, proxied: proxied(p) }).toEqual({ path: p, proxied: false });
    }
    for (const page of ['/', '/sign-in', '/o/org_1/test/generations', '/invite/abc', ...PAGE_ROUTE_FILES]) expect({ page, proxied: proxied(page) }).toEqual({ page, proxied: true });
  });
});

describe('findRoute', () => {
  const patternOf = (p: string) => findRoute(p)?.pattern ?? null;

  it('[[...x]]: the folder itself and everything under it (a plain pattern listed before it first)', () => {
    expect(patternOf('/v1')).toBe('/v1/[[...path]]');
    expect(patternOf('/v1/events/stream')).toBe('/v1/events/stream');
    expect(patternOf('/v1/events')).toBe('/v1/[[...path]]');
    expect(patternOf('/v1/generations/gen_1/cancel')).toBe('/v1/[[...path]]');
    expect(patternOf('/v1x')).toBeNull();
  });

  it('[...x]: at least one segment under the folder', () => {
    expect(patternOf('/files/org/a.webp')).toBe('/files/[...key]');
    expect(patternOf('/files/')).toBeNull();
    expect(patternOf('/files')).toBeNull();
    expect(patternOf('/uploads/upl_1')).toBe('/uploads/[...id]');
    expect(patternOf('/api/trpc/keys.list,usage.summary')).toBe('/api/trpc/[...path]');
    expect(patternOf('/api/auth/callback/credentials')).toBe('/api/auth/[...nextauth]');
  });

  it('a plain pattern: that path only', () => {
    for (const p of ['/mcp', '/healthz', '/readyz', '/metrics', '/api/inngest']) expect(patternOf(p)).toBe(p);
    for (const p of ['/mcp/x', '/readyz/', '/api/inngest/x', '/api', '/']) expect(patternOf(p)).toBeNull();
  });

  it('console pages are not in the table', () => {
    for (const p of ['/sign-in', '/o/org_1/test/overview', '/_next/static/chunk.js', ...PAGE_ROUTE_FILES]) expect(patternOf(p)).toBeNull();
  });

  it('the paths other modules hand out are the table\'s', () => {
    expect(patternOf(`${REPLICATE_WEBHOOK_PATH}gen_1.token`)).toBe('/hooks/replicate/[...token]');
    expect(patternOf(INNGEST_SERVE_PATH)).toBe('/api/inngest');
    expect(patternOf(EVENT_STREAM_PATH)).toBe('/v1/events/stream');
  });
});
