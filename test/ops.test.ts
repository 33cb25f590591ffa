// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/** /readyz and /metrics (merged over both web processes and the primary). */
import { describe, expect, it } from 'vitest';
import { api, baseUrl, createTestOrg, testIp } from './support';
import { noiseImage, post, serve, waitForEnd } from './images-support';

const TOKEN = 'roomtone-test-metrics-token-0123456789';

async function scrape(): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    const parts = inner.split(',');
    if (want.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('GET /readyz', () => {
  it('200 ready: database reachable, migrations applied, storage writable, workers running', async () => {
    const res = await api('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: true, migrations: true, storage: true, workers: true } });
    expect(res.headers.get('request-id')).toMatch(/^req_/);
  });

  it('405 for another method', async () => {
    expect((await api('/readyz', { method: 'POST', body: {} })).status).toBe(405);
  });
});

describe('GET /metrics', () => {
  it('401 without the token, in the envelope', async () => {
    const res = await api('/metrics');
    expect(res.status).toBe(401);
    expect((res.body as { error: { code: string } }).error.code).toBe('api_key_invalid');
    expect((await api('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('counts every request whichever web process served it (merged by the primary)', async () => {
    const labels = { route: '/v1/edit-material-categories', method: 'GET', status: '401' };
    const before = sample(await scrape(), 'roomtone_http_requests_total', labels);
    const ip = testIp();
    // Separate connections: the primary spreads them over both web processes.
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${baseUrl}/v1/edit-material-categories`, { headers: { 'x-forwarded-for': ip, connection: 'close' } }).then((r) => r.text())));
    const after = await scrape();
    expect(sample(after, 'roomtone_http_requests_total', labels) - before).toBe(20);
    expect(sample(after, 'roomtone_http_request_duration_seconds_count', labels) - before).toBe(20);
    // Process metrics of every process, the pool, the queues.
    expect(after).toMatch(/^roomtone_process_cpu_seconds_total \d/m);
    expect(after).toMatch(/^roomtone_db_pool_connections\{state="total"\} \d/m);
    expect(after).toContain('roomtone_queue_waiting_jobs{queue="generation.light"}');
    expect(after).toContain('roomtone_queue_oldest_waiting_seconds{queue="generation.light"}');
  });

  it('generations by type and status with engine time, and admission refusals by code', async () => {
    const org = await createTestOrg();
    const ip = testIp();
    const before = await scrape();
    const image = serve(await noiseImage(64, 48), 'jpg');
    const res = await post('/v1/upscales', org.testKey, ip, { image, background: true });
    expect(res.status).toBe(202);
    await waitForEnd((res.body as { id: string }).id, org.testKey, ip);
    const refused = await post('/v1/upscales', org.testKey, ip, { image, scale: 'x3' });
    expect(refused.status).toBe(400);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('roomtone_generations_total', { type: 'upscale', status: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(delta('roomtone_generation_engine_seconds_count', { type: 'upscale', method: 'upscale:lanczos3' })).toBeGreaterThanOrEqual(1);
    expect(delta('roomtone_admission_refusals_total', { route: '/v1/upscales', code: 'parameter_invalid' })).toBeGreaterThanOrEqual(1);
  });
});
