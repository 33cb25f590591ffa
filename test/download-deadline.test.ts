// @node-lines same: the download deadline under load; its timers and TLS downloads run under both lines in src/server/capabilities/net/safe-http.test.ts
/**
 * The spec's "all URLs must download within 30 seconds", under load: the deadline counts from
 * the request's arrival (reading the request counts against it) and fires while the server's
 * event loop is busy with other requests and both cores are taken by other processes. A server
 * of its own with DOWNLOAD_DEADLINE_MS=5000 and an image URL that trickles one byte every 200 ms
 * forever (test/image-server.ts /trickle).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeDb } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';
import { createTestOrg, testIp, type TestOrg } from './support';
import { imageOrigin, wwwDir } from './images-support';
import { API_ONLY, freshDatabase, startServer, type TestDatabase, type TestProcess } from './server-processes';

const DEADLINE_MS = 5000;
const ip = testIp();
/** The flood's own address: its reads must not spend the limits of the requests under test. */
const floodIp = testIp();
let database: TestDatabase;
let server: TestProcess;
let org: TestOrg;
const spinners: ChildProcess[] = [];
let flooding = false;
/** The flood's answers by status: the load was real reads, answered. */
const floodAnswers = new Map<number, number>();
let flood: Promise<void> = Promise.resolve();

beforeAll(async () => {
  database = await freshDatabase('deadline');
  setEnv('DATABASE_URL', database.url);
  server = await startServer(database.url, {
    ...API_ONLY,
    DOWNLOAD_DEADLINE_MS: String(DEADLINE_MS),
    // The flood below is reads that the server answers in full (600 a minute would turn them
    // into cheap 429s within seconds, and the event loop would be idle again).
    RATE_LIMIT_PER_IP_PER_MINUTE: '100000000',
    DEV_ALLOW_LOOPBACK_URLS: 'true',
    // The integration image server's CA (written beside its www directory).
    NODE_EXTRA_CA_CERTS: path.join(path.dirname(wwwDir), 'test-ca.pem'),
  });
  org = await createTestOrg();
  // Both cores busy with other processes, and the server's event loop with a stream of reads.
  for (let i = 0; i < 2; i++) spinners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  flooding = true;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const read = () =>
    new Promise<void>((resolve) => {
      const req = http.get(`${server.url}/v1/generations?limit=20`, { agent, headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': floodIp } }, (res) => {
        floodAnswers.set(res.statusCode ?? 0, (floodAnswers.get(res.statusCode ?? 0) ?? 0) + 1);
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
    });
  flood = Promise.all(
    Array.from({ length: 16 }, async () => {
      while (flooding) await read();
    }),
  ).then(() => agent.destroy());
}, 600_000);

afterAll(async () => {
  flooding = false;
  await flood;
  for (const child of spinners) child.kill('SIGKILL');
  await server?.stop();
  await closeDb();
  await database?.drop();
}, 120_000);

interface Answer {
  status: number;
  body: { error?: { code: string; param?: string; message: string } };
  /** ms from the first byte of the request to the answer. */
  elapsedMs: number;
}

/** POST /v1/upscales with the JSON body sent `bodyAfterMs` after the request line and headers. */
function upscale(imageUrl: string, bodyAfterMs: number): Promise<Answer> {
  const body = JSON.stringify({ image: imageUrl, scale: 'x2' });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(`${server.url}/v1/upscales`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'], elapsedMs: performance.now() - started }));
    });
    req.on('error', reject);
    req.flushHeaders();
    // A client still sending its request: that time is the request's, and counts.
    setTimeout(() => req.end(body), bodyAfterMs);
  });
}

describe('the download deadline, under load', () => {
  it('refuses a URL that trickles forever when the deadline passes: 400 image_url_unreachable image', async () => {
    const answer = await upscale(`${imageOrigin}/trickle`, 0);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'image_url_unreachable', param: 'image' });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    // Well before the trickle ends (never) or a fixed 30 s deadline.
    expect(answer.elapsedMs).toBeLessThan(DEADLINE_MS + 4000);
  });

  it('counts from the request\'s arrival: a body sent 4 s late leaves the download 1 s', async () => {
    const answer = await upscale(`${imageOrigin}/trickle`, 4000);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'image_url_unreachable', param: 'image' });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    // Counted from the download's start instead, it would end at 4 + 5 = 9 s.
    expect(answer.elapsedMs).toBeLessThan(DEADLINE_MS + 2500);
  });

  it('the server kept answering the other requests meanwhile', async () => {
    const res = await fetch(`${server.url}/v1/generations?limit=1`, { headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip } });
    expect(res.status).toBe(200);
    expect([...floodAnswers.keys()]).toEqual([200]);
    expect(floodAnswers.get(200)).toBeGreaterThan(100);
  });
});
