import { describe, expect, it } from 'vitest';
import { requestTarget } from './request-head';

describe('requestTarget', () => {
  it('reads every path and query as new URL does', () => {
    const paths = [
      '/v1/generations/gen_1AbC', '/v1/generations/', '/v1/generations', '/v1//generations', '/v1/generations/gen-1_x', '/',
      '/v1/generations?limit=20', '/v1/generations?limit=2&limit=3', '/v1/generations?', '/v1/generations#x', '/v1/./generations', '/v1/a/../generations',
      '/v1/%2e%2e/x', '/v1/gen%41', '/v1/gén', '/v1/a b', '/v1/a\\b', '/v1/a|b', '/v1/a.b', '/v1/GENERATIONS/X', '/v1/a?b=c#d', '/v1/%',
    ];
    for (const origin of ['http://127.0.0.1:3000', 'https://api.example.com']) {
      for (const path of paths) {
        const url = `${origin}${path}`;
        const parsed = new URL(url);
        const target = requestTarget(url);
        expect(target.pathname, url).toBe(parsed.pathname);
        expect(target.search, url).toBe(parsed.search);
        expect([...target.searchParams], url).toEqual([...parsed.searchParams]);
      }
    }
  });

  it('takes a plain path as it is, without a URL', () => {
    const target = requestTarget('http://127.0.0.1:3000/v1/generations/gen_1');
    expect(target).not.toBeInstanceOf(URL);
    expect(target.pathname).toBe('/v1/generations/gen_1');
    expect(requestTarget('http://127.0.0.1:3000/v1/generations?limit=1')).toBeInstanceOf(URL);
  });
});
