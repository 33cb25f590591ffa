import { describe, expect, it } from 'vitest';
import { Roomtone } from '../src/client.js';
import { APIConnectionError, APIError } from '../src/core/errors.js';
import type { RetryEvent } from '../src/core/hooks.js';

/** A fetch that answers from a script, one entry per attempt (an Error rejects as fetch does). */
function scripted(answers: (Response | Error)[]) {
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request): Promise<Response> => {
    urls.push(String(input));
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, urls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const refused = () => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });

describe('retry rules', () => {
  it('x-should-retry: false is final even on a 503; true is retried even on a status it would not retry', async () => {
    const permanent = scripted([json(503, { error: { code: 'mode_unavailable', message: 'no backend' } }, { 'x-should-retry': 'false' })]);
    const client = new Roomtone({ apiKey: 'rt_test_x', baseUrl: 'http://api.test', fetch: permanent.fetch, logLevel: 'off' });
    await expect(client.styles.list()).rejects.toMatchObject({ status: 503, code: 'mode_unavailable' });
    expect(permanent.urls).toHaveLength(1);

    const passing = scripted([json(409, { error: { code: 'x', message: 'busy' } }, { 'x-should-retry': 'true', 'retry-after': '0' }), json(200, { object: 'list', data: [], has_more: false })]);
    const retries: RetryEvent[] = [];
    const second = new Roomtone({ apiKey: 'rt_test_x', baseUrl: 'http://api.test', fetch: passing.fetch, logLevel: 'off' }).on('retry', (e) => retries.push(e));
    expect(await second.styles.list()).toEqual({ object: 'list', data: [], has_more: false });
    expect(retries).toMatchObject([{ attempt: 1, delayMs: 0, status: 409, retryAfter: 0, reason: '409 x' }]);
  });

  it('a refused connection fails at once with the URL, until the service has answered once (then it is retried)', async () => {
    const wrong = scripted([refused(), refused()]);
    const client = new Roomtone({ apiKey: 'rt_test_x', baseUrl: 'http://127.0.0.1:1', fetch: wrong.fetch, logLevel: 'off' });
    const error = await client.styles.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe('Could not connect to http://127.0.0.1:1/v1/styles: ECONNREFUSED. Check baseUrl (or ROOMTONE_BASE_URL): nothing answers at http://127.0.0.1:1.');
    expect(wrong.urls).toHaveLength(1);

    const restart = scripted([json(200, { object: 'list', data: [], has_more: false }), refused(), json(200, { object: 'list', data: [], has_more: false })]);
    const reached = new Roomtone({ apiKey: 'rt_test_x', baseUrl: 'http://api.test', fetch: restart.fetch, logLevel: 'off' });
    await reached.styles.list();
    await reached.styles.list();
    expect(restart.urls).toHaveLength(3);
  });

  it('withResponse gives the request id, status and headers; logLevel info prints each retry', async () => {
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (l: string) => lines.push(`warn ${l}`), info: (l: string) => lines.push(`info ${l}`), debug: () => {} };
    const script = scripted([json(500, { error: { code: 'internal_error', message: 'x' } }, { 'request-id': 'req_1', 'retry-after': '0' }), json(200, { object: 'list', data: [], has_more: false }, { 'request-id': 'req_2' })]);
    const client = new Roomtone({ apiKey: 'rt_test_x', baseUrl: 'http://api.test', fetch: script.fetch, logLevel: 'info', logger });
    const { data, response } = await client.styles.list().withResponse();
    expect(data.object).toBe('list');
    expect(response).toMatchObject({ requestId: 'req_2', status: 200 });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(client.lastResponse).toMatchObject({ requestId: 'req_2', status: 200 });
    expect(lines).toEqual(['info [roomtone] GET http://api.test/v1/styles: 500 internal_error (req_1); retrying in 0.0 s (attempt 2)']);
    await expect(new Roomtone({ apiKey: 'rt_test_x', baseUrl: 'http://api.test', fetch: scripted([json(400, { error: { code: 'parameter_invalid', message: 'm' } })]).fetch }).styles.list()).rejects.toBeInstanceOf(APIError);
  });
});
