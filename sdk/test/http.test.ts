// @node-lines same: backoff, error classes and the package version: our code; the browser check reads window and document, which no Node line defines
import { describe, expect, it } from 'vitest';
import { backoffMs, refuseBrowsers } from '../src/core/http.js';
import { APIError, AuthenticationError, ConflictError, InvalidRequestError, NotFoundError, PermissionDeniedError, RateLimitError, retryAfterSeconds } from '../src/core/errors.js';
import { VERSION } from '../src/version.js';
import pkg from '../package.json' with { type: 'json' };

describe('retries', () => {
  it('back off exponentially from 0.5 s to 8 s, less up to 25 % of jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect([0, 1, 4].map((n) => backoffMs(n, () => 1))).toEqual([375, 750, 6000]);
  });

  it('read Retry-After as seconds, as an HTTP date, or retry-after-ms', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterSeconds(new Headers({ 'retry-after': '3' }), now)).toBe(3);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 12:00:30 GMT' }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1.5);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterSeconds(new Headers(), now)).toBeUndefined();
  });
});

describe('errors', () => {
  it('one class per family, with status, code, param and requestId', () => {
    const body = (code: string) => ({ error: { code, message: 'm', param: 'image' } });
    const headers = new Headers({ 'request-id': 'req_1', 'retry-after': '7' });
    const cases: [number, unknown][] = [
      [400, InvalidRequestError],
      [402, InvalidRequestError],
      [413, InvalidRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [409, ConflictError],
      [429, RateLimitError],
      [503, APIError],
    ];
    for (const [status, kind] of cases) {
      const error = APIError.from(status, body('c'), headers);
      expect(error.constructor, String(status)).toBe(kind);
      expect(error).toMatchObject({ status, code: 'c', param: 'image', message: 'm', requestId: 'req_1', retryAfter: 7 });
    }
    expect(APIError.from(502, '<html>', new Headers())).toMatchObject({ status: 502, code: 'unknown_error', message: 'The API answered 502.' });
  });
});

describe('the package', () => {
  it('sends the version of package.json', () => {
    expect(VERSION).toBe(pkg.version);
  });

  it('refuses a browser environment', () => {
    const global = globalThis as { window?: unknown; document?: unknown };
    expect(() => refuseBrowsers()).not.toThrow();
    global.window = {};
    global.document = {};
    try {
      expect(() => refuseBrowsers()).toThrow(/does not run in a browser/);
    } finally {
      delete global.window;
      delete global.document;
    }
  });
});
