/**
 * One routing table, two servers: the production build under plain `next start` (a real
 * `next start` process, the App Router's route files) answers every route of the table as
 * `npm start` does (the launcher's edge server): same status, same error code and param, same
 * headers that matter, same body where the body is deterministic. Both servers run on one
 * fresh database with the same settings and PUBLIC_BASE_URL, so signed URLs and documents
 * agree byte for byte.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freshDatabase, startServer, waitFor, type TestDatabase, type TestProcess } from './server-processes';
import { roomtoneIsUp, startProcess } from './start-server';
import { createTestOrg, testIp, type TestOrg } from './support';
import { form, solidImage } from './images-support';
import { freePort } from '@/server/platform/ports';
import { setEnv } from '@/server/platform/config';
import { callbackToken } from '@/server/engine/backends/events';
import { ROUTES } from '@/server/http/routes';

const METRICS_TOKEN = 'roomtone-next-start-metrics-token-0123';
const ip = testIp();

let database: TestDatabase;
let launcher: TestProcess;
let nextStart: TestProcess;
let org: TestOrg;

beforeAll(async () => {
  database = await freshDatabase('next_start');
  const env = { METRICS_TOKEN, WORKER_CONCURRENCY: '1', WORKER_LIGHT_CONCURRENCY: '1', LOG_LEVEL: 'warn' };
  launcher = await startServer(database.url, env);
  // The same settings as the launcher's (server-processes.ts), and its PUBLIC_BASE_URL.
  const port = await freePort();
  nextStart = await startProcess({
    name: 'next start',
    args: [createRequire(import.meta.url).resolve('next/dist/bin/next'), 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    port,
    ready: roomtoneIsUp,
    echoEnv: 'TEST_SERVER_LOGS',
    env: {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SEED_DEMO: 'false',
      NODE_ENV: 'production',
      TRUST_PROXY: 'true',
      UPSCALE_METHOD: 'lanczos3',
      NEXT_TELEMETRY_DISABLED: '1',
      ...env,
      PUBLIC_BASE_URL: launcher.url,
    },
  });
  setEnv('DATABASE_URL', database.url); // this file's own fixtures
  process.env.DATA_DIR = database.dataDir;
  org = await createTestOrg();
}, 600_000);

afterAll(async () => {
  await nextStart?.stop();
  await launcher?.stop();
  await database?.drop();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
}

async function send(base: string, pathAndQuery: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(`${base}${pathAndQuery}`, { redirect: 'manual', ...init, headers: { 'x-forwarded-for': ip, ...init.headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, text: bytes.toString('utf8'), bytes };
}

/** Headers compared by value. */
const SAME_VALUE = ['content-type', 'cache-control', 'allow', 'retry-after', 'location', 'x-ratelimit-limit-requests'];
/** Headers compared by presence (their values differ per request). */
const SAME_PRESENCE = ['request-id', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests', 'content-security-policy', 'x-frame-options', 'www-authenticate'];

function errorOf(text: string): { code?: unknown; param?: unknown } | null {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; param?: unknown } };
    return body?.error ? { code: body.error.code, param: body.error.param } : null;
  } catch {
    return null;
  }
}

/**
 * How bodies compare: byte for byte, or as JSON with signed URLs masked (they are signed per
 * read, with the second of the read in their expiry), or not at all (per-request tokens).
 */
type BodyMatch = 'exact' | 'signed' | 'ignore';

function bodyOf(answer: Answer, body: BodyMatch): string | null {
  if (body === 'ignore') return null;
  if (body === 'exact') return answer.bytes.toString('base64');
  return JSON.stringify(JSON.parse(answer.text), (k, v: unknown) => (k === 'url' || k === 'url_expires_at' ? '<signed>' : v));
}

/** What must be the same under both servers. */
function shape(answer: Answer, body: BodyMatch) {
  return {
    status: answer.status,
    error: errorOf(answer.text),
    headers: Object.fromEntries([
      ...SAME_VALUE.map((h) => [h, answer.headers.get(h)]),
      ...SAME_PRESENCE.map((h) => [h, answer.headers.has(h)]),
      ['set-cookie names', answer.headers.getSetCookie().map((c) => c.split('=')[0]).sort()],
      ['access-control-*', [...answer.headers.keys()].filter((h) => h.startsWith('access-control-'))],
    ]),
    body: bodyOf(answer, body),
  };
}

/** The same request to both servers; their answers' shapes must be equal. Returns both. */
async function expectSame(pathAndQuery: string, init: RequestInit & { headers?: Record<string, string> } = {}, body: BodyMatch = 'exact') {
  const [a, b] = [await send(launcher.url, pathAndQuery, init), await send(nextStart.url, pathAndQuery, init)];
  expect({ request: `${init.method ?? 'GET'} ${pathAndQuery}`, nextStart: shape(b, body) }).toEqual({ request: `${init.method ?? 'GET'} ${pathAndQuery}`, nextStart: shape(a, body) });
  if (a.headers.has('request-id')) expect(b.headers.get('request-id')).toMatch(/^req_/);
  return { npmStart: a, nextStart: b };
}

const key = () => ({ authorization: `Bearer ${org.testKey}` });
const json = (value: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

describe('plain `next start` serves the route table as `npm start` does', () => {
  it('operators: /healthz, /readyz (workers run under next start too), /metrics', async () => {
    const { nextStart: ready } = await expectSame('/readyz');
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { database: true, migrations: true, storage: true, workers: true } });
    await expectSame('/healthz');
    await expectSame('/readyz', { method: 'POST' });
    await expectSame('/metrics');
    const metrics = await expectSame('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }, 'ignore');
    expect(metrics.nextStart.status).toBe(200);
    expect(metrics.nextStart.text).toMatch(/^roomtone_http_requests_total\{route="\/readyz",method="GET",status="200"\} \d/m);
  });

  it('/v1: refusals, reads, the OpenAPI document', async () => {
    await expectSame('/v1/styles');
    await expectSame('/v1/styles', { headers: { authorization: 'Bearer rt_test_short' } });
    await expectSame('/v1/styles', { headers: key() });
    await expectSame('/v1/edit-material-categories', { headers: key() });
    await expectSame('/v1/openapi.json');
    await expectSame('/v1/generations/gen_0000000000000000000000', { headers: key() });
    await expectSame('/v1/no-such-route', { headers: key() });
    await expectSame('/v1', { headers: key() });
    await expectSame('/v1/styles', { method: 'OPTIONS', headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' } });
    await expectSame('/v1/styles', { headers: { ...key(), origin: 'https://example.com' } });
    await expectSame('/v1/renders', { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: '{"style":' });
    await expectSame('/v1/renders', { ...json({ style: 'no-such-style' }), headers: { ...key(), 'content-type': 'application/json' } });
    await expectSame('/v1/generations?limit=500', { headers: key() });
  });

  it('/v1: a creation through each server, read back and downloaded through both', async () => {
    const image = await solidImage(64, 48);
    const ids: string[] = [];
    for (const base of [launcher.url, nextStart.url]) {
      const res = await fetch(`${base}/v1/upscales`, { method: 'POST', headers: { ...key(), 'x-forwarded-for': ip }, body: form([['image', image], ['scale', 'x2']]) });
      const body = (await res.json()) as { id: string; status: string };
      expect([200, 202], JSON.stringify(body)).toContain(res.status);
      ids.push(body.id);
    }
    for (const id of ids) {
      type Generation = { status: string; output: Array<{ url: string; width: number }> };
      const generation = await waitFor(`generation ${id} to succeed`, async () => {
        const read = JSON.parse((await send(launcher.url, `/v1/generations/${id}`, { headers: key() })).text) as Generation;
        return read.status === 'succeeded' || read.status === 'failed' ? read : null;
      });
      expect(generation.status).toBe('succeeded');
      // The same generation read through both: the same body.
      await expectSame(`/v1/generations/${id}`, { headers: key() }, 'signed');
      expect(generation.output[0]!.width).toBe(128);
      // Signed output URLs are built on PUBLIC_BASE_URL (the same for both servers).
      const file = generation.output[0]!.url.slice(launcher.url.length);
      const download = await expectSame(file);
      expect(download.nextStart.headers.get('content-type')).toBe('image/webp');
      await expectSame(file, { method: 'HEAD' });
      await expectSame(file.replace(/signature=[^&]+/, 'signature=forged'));
    }
  }, 180_000);

  it('/v1/events/stream: the same refusals; with a key, both stream, `ready` first', async () => {
    await expectSame('/v1/events/stream');
    await expectSame('/v1/events/stream', { method: 'POST', headers: key() });
    await expectSame('/v1/events/stream?nope=1', { headers: key() });
    const opened: Array<{ status: number; type: string | null; requestId: boolean; first: string }> = [];
    for (const base of [launcher.url, nextStart.url]) {
      const closing = new AbortController();
      const res = await fetch(`${base}/v1/events/stream`, { headers: { ...key(), 'x-forwarded-for': ip }, signal: closing.signal });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('\n\n')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString('utf8');
      }
      closing.abort();
      opened.push({ status: res.status, type: res.headers.get('content-type'), requestId: res.headers.has('request-id'), first: text.split('\n').find((l) => l.startsWith('event:')) ?? '' });
    }
    expect(opened[0]).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8', requestId: true, first: 'event: ready' });
    expect(opened[1]).toEqual(opened[0]);
  });

  it('/mcp: the tools through the official client, and the HTTP refusals', async () => {
    await expectSame('/mcp', json({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    await expectSame('/mcp', { headers: key() });
    await expectSame('/mcp', { method: 'DELETE', headers: key() });
    await expectSame('/mcp', { method: 'POST', headers: { ...key(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{not json' });
    const listed: unknown[] = [];
    for (const base of [launcher.url, nextStart.url]) {
      const client = new Client({ name: 'roomtone-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { ...key(), 'x-forwarded-for': ip } } }));
      listed.push((await client.listTools()).tools);
      await client.close();
    }
    expect(listed[1]).toEqual(listed[0]);
  });

  it('/uploads: a file PUT through each server, and the refusals (over 10 MB: the console proxy must not cut it)', async () => {
    const urls: string[] = [];
    for (const base of [launcher.url, nextStart.url]) {
      const client = new Client({ name: 'roomtone-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { ...key(), 'x-forwarded-for': ip } } }));
      const result = (await client.callTool({ name: 'create_upload', arguments: {} })) as { content: Array<{ text: string }> };
      urls.push((JSON.parse(result.content[0]!.text) as { upload_url: string }).upload_url.slice(launcher.url.length));
      await client.close();
    }
    const [first, second] = urls as [string, string];
    const tooBig = Buffer.alloc(10 * 1024 * 1024 + 1);
    const refused = await expectSame(first, { method: 'PUT', body: new Uint8Array(tooBig) });
    expect(errorOf(refused.nextStart.text)?.code).toBe('image_too_large');
    await expectSame(first, { method: 'PUT', body: 'GIF89a not an image' });
    await expectSame(first, { method: 'POST', body: 'x' });
    await expectSame(first.replace(/signature=[^&]+/, 'signature=forged'), { method: 'PUT', body: new Uint8Array(await solidImage(8, 8)) });
    await expectSame('/uploads/file_nope/extra', { method: 'PUT', body: 'x' });
    const png = new Uint8Array(await solidImage(16, 16));
    expect((await send(launcher.url, first, { method: 'PUT', body: png })).status).toBe(200);
    expect((await send(nextStart.url, second, { method: 'PUT', body: png })).status).toBe(200);
    // Single use, on either server.
    await expectSame(first, { method: 'PUT', body: png });
  });

  it('/swatches and /files refusals', async () => {
    await expectSame('/swatches/mat_oak_herringbone?size=64');
    await expectSame('/swatches/mat_oak_herringbone?size=4096');
    await expectSame('/swatches/mat_unobtainium');
    await expectSame('/swatches/mat_oak_herringbone', { method: 'POST' });
    await expectSame('/files/org_x/out.webp?expires=1&signature=x');
  });

  it('the console\'s doors: /api/trpc and /api/auth', async () => {
    await expectSame('/api/trpc/me.get', {}, 'ignore');
    await expectSame('/api/trpc/keys.create', json({}), 'ignore');
    await expectSame('/api/trpc/keys.create', { ...json({}), headers: { origin: launcher.url, 'content-type': 'application/json' } }, 'ignore');
    await expectSame('/api/auth/providers');
    const csrf = await expectSame('/api/auth/csrf', {}, 'ignore');
    expect(JSON.parse(csrf.nextStart.text)).toHaveProperty('csrfToken');
    await expectSame('/api/auth/session');
    await expectSame('/api/auth/signin/credentials', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.c&password=x' }, 'ignore');
  });

  it('/api/inngest (pg-boss here: 404) and the Replicate webhook', async () => {
    await expectSame('/api/inngest');
    await expectSame('/api/inngest', { method: 'PUT' });
    await expectSame('/hooks/replicate/gen_x.forged', json({ id: 'p1' }));
    const token = callbackToken('gen_0000000000000000000001');
    await expectSame(`/hooks/replicate/${token}`, { method: 'GET' });
    await expectSame(`/hooks/replicate/${token}`, json({ id: 'pred_abc' }));
    await expectSame(`/hooks/replicate/${token}`, { method: 'POST', body: 'not json' });
  });

  it('/api/payments/stripe (the manual provider here: 404)', async () => {
    await expectSame('/api/payments/stripe', json({ type: 'checkout.session.completed' }));
    await expectSame('/api/payments/stripe', { method: 'GET' });
  });

  it('every route of the table was compared above', () => {
    // A route added to the table without a case here fails this test.
    const covered = ['/v1/events/stream', '/v1/[[...path]]', '/mcp', '/uploads/[...id]', '/files/[...key]', '/swatches/[...id]', '/api/trpc/[...path]', '/api/auth/[...nextauth]', '/api/inngest', '/hooks/replicate/[...token]', '/api/payments/stripe', '/healthz', '/readyz', '/metrics'];
    expect(ROUTES.map((r) => r.pattern).sort()).toEqual(covered.sort());
  });

  it('console pages come from Next.js under both, with the console\'s security headers', async () => {
    // Not routes of the table: the launcher adds a request-id to them, plain Next.js does not.
    for (const page of ['/sign-in', '/no-such-page', '/docs']) {
      const [a, b] = [await send(launcher.url, page), await send(nextStart.url, page)];
      const pageShape = (x: Answer) => ({ status: x.status, type: x.headers.get('content-type'), csp: x.headers.get('content-security-policy'), frames: x.headers.get('x-frame-options') });
      expect({ page, nextStart: pageShape(b) }).toEqual({ page, nextStart: pageShape(a) });
      expect(b.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
  });

  it('with the launcher stopped, next start\'s own job workers finish a creation', async () => {
    expect(await launcher.stop()).toBe(0);
    const res = await fetch(`${nextStart.url}/v1/upscales`, { method: 'POST', headers: { ...key(), 'x-forwarded-for': ip }, body: form([['image', await solidImage(40, 30)], ['scale', 'x2']]) });
    const accepted = (await res.json()) as { id: string };
    expect([200, 202], JSON.stringify(accepted)).toContain(res.status);
    const ended = await waitFor(`generation ${accepted.id} to end`, async () => {
      const read = JSON.parse((await send(nextStart.url, `/v1/generations/${accepted.id}`, { headers: key() })).text) as { status: string; output: Array<{ width: number }> };
      return read.status === 'succeeded' || read.status === 'failed' ? read : null;
    });
    expect(ended.status).toBe('succeeded');
    expect(ended.output[0]!.width).toBe(80);
  }, 180_000);
});
