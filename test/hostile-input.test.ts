// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Case by case: requests a hostile client sends that a server could answer with a 500, a
 * plain text body, a foreign redirect or no answer at all. Each gets the envelope, a request-id and
 * the exact status and code below.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createTestOrg, testIp, type TestOrg } from './support';
import { envelopeCode, rawRequest, requestText, serverAddress, type RawResponse } from './raw-http';
import { expectError, maskPng, post, serve, solidImage, waitForEnd } from './images-support';
import { db } from '@/server/platform/db';

const ip = testIp();
const { host, port } = serverAddress(baseUrl);
const ownHost = `${host}:${port}`;
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg();
});

function get(path: string, headers: ReadonlyArray<readonly [string, string]>, method = 'GET'): Promise<RawResponse | null> {
  return rawRequest(baseUrl, requestText(`${method} ${path} HTTP/1.1`, [...headers, ['X-Forwarded-For', ip], ['Connection', 'close']]));
}

function expectEnvelope(res: RawResponse | null, status: number, code: string): asserts res is RawResponse {
  expect(res, 'the server answered').not.toBeNull();
  expect(res!.status, res!.body).toBe(status);
  expect(res!.headers['content-type']).toMatch(/^application\/json/);
  expect(envelopeCode(res!), res!.body).toBe(code);
  expect(res!.headers['request-id']).toMatch(/^req_[0-9A-Za-z]{24}$/);
}

function styles(res: RawResponse | null): string[] {
  expect(res, 'the server answered').not.toBeNull();
  expect(res!.status, res!.body).toBe(200);
  expect(res!.headers['request-id']).toMatch(/^req_/);
  const body = JSON.parse(res!.body) as { object: string; data: { object: string }[] };
  expect(body.object).toBe('list');
  return body.data.map((d) => d.object);
}

describe('the Host header never changes what is served', () => {
  const auth = () => ['Authorization', `Bearer ${org.testKey}`] as const;

  it.each([
    ['a space', 'bad host'],
    ['a port out of range', 'localhost:99999'],
    ['empty', ''],
    ['a path and a fragment', `${ownHost}/v1/generations?limit=1#`],
    ['a path', 'h/p'],
  ])('Host with %s: GET /v1/styles answers the styles list', async (_label, hostValue) => {
    const kinds = styles(await get('/v1/styles', [['Host', hostValue], auth()]));
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['style']));
  });

  it('no Host at all (HTTP/1.0) is served too', async () => {
    const res = await rawRequest(baseUrl, requestText('GET /v1/styles HTTP/1.0', [['Authorization', `Bearer ${org.testKey}`], ['X-Forwarded-For', ip]]));
    expect(styles(res).length).toBeGreaterThan(0);
  });

  it('a bad Host on an unauthenticated /v1 request still gets 401 in the envelope', async () => {
    expectEnvelope(await get('/v1/generations', [['Host', 'localhost:99999']]), 401, 'api_key_missing');
  });

  it('a bad Host on a page outside /v1 is served (Next sees our own origin)', async () => {
    const res = await get('/healthz', [['Host', 'bad host']]);
    expect(res?.status).toBe(200);
    expect(res?.headers['request-id']).toMatch(/^req_/);
  });
});

describe('request targets and methods', () => {
  it('an absolute-form target for another origin is refused, not redirected', async () => {
    expectEnvelope(await get('http://evil.invalid/v1/styles', [['Host', 'evil.invalid']]), 400, 'parameter_invalid');
  });

  it('an absolute-form target for our own origin is served', async () => {
    const res = await get(`${baseUrl}/v1/styles`, [['Host', ownHost], ['Authorization', `Bearer ${org.testKey}`]]);
    expect(styles(res).length).toBeGreaterThan(0);
  });

  it.each(['/v1/styles', '/v1/generations/gen_x', '/', '/files/x', '/healthz'])('TRACE %s → 405 method_not_allowed', async (path) => {
    const res = await get(path, [['Host', ownHost]], 'TRACE');
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  });

  it('CONNECT → 405 method_not_allowed', async () => {
    expectEnvelope(await get(ownHost, [['Host', ownHost]], 'CONNECT'), 405, 'method_not_allowed');
  });

  it('OPTIONS * → 403 browser_request_refused', async () => {
    expectEnvelope(await get('*', [['Host', ownHost]], 'OPTIONS'), 403, 'browser_request_refused');
  });

  it('a malformed percent-encoding in a /v1 path → 400 parameter_invalid', async () => {
    expectEnvelope(await get('/v1/generations/%E0%A4%A', [['Host', ownHost], ['Authorization', `Bearer ${org.testKey}`]]), 400, 'parameter_invalid');
  });
});

describe('/files and /swatches with malformed paths', () => {
  it('GET /files/%E0%A4%A → 403 url_invalid (as any invalid signed URL)', async () => {
    expectEnvelope(await get('/files/%E0%A4%A', [['Host', ownHost]]), 403, 'url_invalid');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s /files/%E0%A4%A → 405 method_not_allowed', async (method) => {
    const res = await get('/files/%E0%A4%A', [['Host', ownHost], ['Content-Length', '0']], method);
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('a multipart POST to a console page (not a server action) → 415 content_type_unsupported, before Next.js parses it', async () => {
    const body = '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n';
    const res = await rawRequest(
      baseUrl,
      requestText('POST /sign-in HTTP/1.1', [['Host', ownHost], ['Content-Type', 'multipart/form-data; boundary=b'], ['Content-Length', String(body.length)], ['X-Forwarded-For', ip], ['Connection', 'close']], body),
    );
    expectEnvelope(res, 415, 'content_type_unsupported');
  });

  it('GET /swatches/%E0%A4%A → 404 resource_not_found', async () => {
    expectEnvelope(await get('/swatches/%E0%A4%A', [['Host', ownHost]]), 404, 'resource_not_found');
  });
});

describe("requests Node's HTTP parser refuses are answered in the envelope", () => {
  const send = (text: string) => rawRequest(baseUrl, text);

  it('over-long headers → 431 request_too_large', async () => {
    expectEnvelope(await send(requestText('GET /v1/styles HTTP/1.1', [['Host', ownHost], ['X-Big', 'a'.repeat(20_000)]])), 431, 'request_too_large');
  });

  it('a garbage request line → 400 parameter_invalid', async () => {
    expectEnvelope(await send('\u0001\u0002 garbage\r\n\r\n'), 400, 'parameter_invalid');
  });

  it('an unknown method → 400 parameter_invalid', async () => {
    expectEnvelope(await send(requestText('FROB /v1/styles HTTP/1.1', [['Host', ownHost]])), 400, 'parameter_invalid');
  });

  it('Content-Length with chunked → 400 parameter_invalid', async () => {
    const text = requestText('POST /v1/renders HTTP/1.1', [['Host', ownHost], ['Content-Length', '5'], ['Transfer-Encoding', 'chunked']], '0\r\n\r\n');
    expectEnvelope(await send(text), 400, 'parameter_invalid');
  });

  it('Expect other than 100-continue → 417 in the envelope', async () => {
    expectEnvelope(await send(requestText('GET /v1/styles HTTP/1.1', [['Host', ownHost], ['Expect', 'teapot']])), 417, 'expectation_unsupported');
  });
});

describe('image URLs pointing at our own /files', () => {
  it('a malformed own URL is an image error, not a 500', async () => {
    const res = await post('/v1/upscales', org.testKey, ip, { image: `${baseUrl}/files/%E0%A4%A`, scale: 'x2' });
    expectError(res, 400, 'parameter_invalid', 'image');
  });
});

describe('the client IP is the socket address unless TRUST_PROXY (x-roomtone-client-ip from outside is ignored)', () => {
  it('the request log records the socket address, not a client-sent x-roomtone-client-ip', async () => {
    const res = await rawRequest(baseUrl, requestText('GET /v1/styles HTTP/1.1', [['Host', ownHost], ['x-roomtone-client-ip', '9.9.9.9'], ['Connection', 'close']]));
    const requestId = res!.headers['request-id']!;
    let row = null;
    for (let i = 0; i < 40 && !row; i++) {
      row = await db().requestLog.findUnique({ where: { id: requestId } });
      if (!row) await new Promise((r) => setTimeout(r, 100));
    }
    expect(row?.ip).toBe('127.0.0.1');
  });
});

describe('a small image with a mask of its own size (spec: allowed below 512 px)', () => {
  /** A mask-mode edit of a 64×48 image with a mask of `maskWidth`×`maskHeight` (left half red). */
  async function smallEdit(maskWidth: number, maskHeight: number) {
    const image = serve(await solidImage(64, 48), 'png');
    const mask = serve(await maskPng(maskWidth, maskHeight, [{ x: 0, y: 0, w: maskWidth / 2, h: maskHeight, color: '#FF0000' }]), 'png');
    const layers = [{ mask_color: '#FF0000', action: 'modify', color: '#6B8E7F' }];
    return post('/v1/edits', org.testKey, ip, { image, mask, mode: 'mask', quality: '1k', background: true, layers });
  }

  it('a 64×48 mask-mode edit with a 64×48 mask succeeds', async () => {
    const res = await smallEdit(64, 48);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const gen = await waitForEnd((res.body as { id: string }).id, org.testKey, ip);
    expect(gen.status, JSON.stringify(gen.error)).toBe('succeeded');
  });

  it('a 32×24 mask for a 64×48 image is refused at admission', async () => {
    expectError(await smallEdit(32, 24), 400, 'mask_dimensions_mismatch', 'mask');
  });
});

it('the server is healthy after all of the above', async () => {
  expect((await api('/healthz')).status).toBe(200);
});
