// @node-lines same: the SDK against the server; the SDK's own code runs under both lines in sdk/test
// @worker-process shared: the SDK against the shared server, webhook receivers and a proxy it closes after it; the setting it makes is given back (test/file-environment.ts); it starts no process
/**
 * @roomtone/sdk (its built package, sdk/dist) against the real server: every method, inputs as
 * URL / path / Buffer / Uint8Array / Blob / stream (multipart when a file is given), typed
 * errors, pagination over more than two pages, waitUntilDone and background, a retry on 429
 * honouring Retry-After, an idempotent retry after a dropped connection (one generation, one
 * charge), and the verification of real webhook deliveries, secret rotation included.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import Roomtone, {
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RoomtoneError,
  WaitTimeoutError,
  WebhookVerificationError,
  type Generation,
} from '@roomtone/sdk';
import { db } from '@/server/platform/db';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { rotateSecret } from '@/server/capabilities/webhooks/rotate-secret';
import { baseUrl, createKey, createTestOrg, testIp } from './support';
import { insertGeneration } from './fixtures';
import { maskPng, noiseImage, restoreServedFiles, serve, solidImage } from './images-support';
import { startReceivers, type Receivers } from './webhook-receiver';
import { environmentForThisFile } from './file-environment';

// The test receivers are reached over loopback HTTPS (endpoints are created here, through the service layer).
environmentForThisFile({ DEV_ALLOW_LOOPBACK_URLS: 'true' });

const ip = testIp();

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  status: number | null;
  retryAfter: string | null;
  at: number;
}

/** A client whose requests come from this file's IP (the per-IP limit never couples files), recording each call. */
function sdk(apiKey: string, options: Partial<ConstructorParameters<typeof Roomtone>[0]> = {}, target = baseUrl) {
  const calls: Call[] = [];
  const client = new Roomtone({
    apiKey,
    baseUrl: target,
    ...options,
    fetch: async (input, init) => {
      const headers = { ...(init?.headers as Record<string, string>), 'x-forwarded-for': ip };
      const call: Call = { url: String(input), method: init?.method ?? 'GET', headers, status: null, retryAfter: null, at: performance.now() };
      calls.push(call);
      const response = await fetch(input, { ...init, headers });
      call.status = response.status;
      call.retryAfter = response.headers.get('retry-after');
      return response;
    },
  });
  return { client, calls };
}

let jpeg: Buffer;
let imageUrl: string;
let workDir: string;

beforeAll(async () => {
  jpeg = await noiseImage(320, 240, 'jpeg');
  imageUrl = serve(jpeg, 'jpg');
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-sdk-'));
  fs.writeFileSync(path.join(workDir, 'room.jpg'), jpeg);
});
beforeEach(() => restoreServedFiles());
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('the client', () => {
  it('takes its key from ROOMTONE_API_KEY, and refuses to start without one', async () => {
    const org = await createTestOrg();
    const saved = { key: process.env.ROOMTONE_API_KEY, url: process.env.ROOMTONE_BASE_URL };
    try {
      process.env.ROOMTONE_API_KEY = org.testKey;
      process.env.ROOMTONE_BASE_URL = `${baseUrl}/v1`; // a trailing /v1 is accepted
      const client = new Roomtone({ fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': ip } }) });
      expect(client.baseUrl).toBe(baseUrl);
      expect((await client.styles.list()).object).toBe('list');
      delete process.env.ROOMTONE_API_KEY;
      expect(() => new Roomtone({ baseUrl })).toThrow(/ROOMTONE_API_KEY/);
    } finally {
      if (saved.key === undefined) delete process.env.ROOMTONE_API_KEY;
      else process.env.ROOMTONE_API_KEY = saved.key;
      if (saved.url === undefined) delete process.env.ROOMTONE_BASE_URL;
      else process.env.ROOMTONE_BASE_URL = saved.url;
    }
  });

  it('refuses to run in a browser (a key there is exposed to every visitor)', () => {
    const global = globalThis as { window?: unknown; document?: unknown };
    global.window = {};
    global.document = {};
    try {
      expect(() => new Roomtone({ apiKey: 'rt_test_x', baseUrl })).toThrow(RoomtoneError);
      expect(() => new Roomtone({ apiKey: 'rt_test_x', baseUrl })).toThrow(/does not run in a browser/);
    } finally {
      delete global.window;
      delete global.document;
    }
  });
});

describe('reference lists', () => {
  it('styles, edit material categories, and every edit material across pages (for await, more than two pages)', async () => {
    const org = await createTestOrg();
    const { client, calls } = sdk(org.testKey);
    const styles = await client.styles.list();
    expect(styles).toMatchObject({ object: 'list', has_more: false });
    expect(styles.data.map((s) => s.id)).toContain('scandinavian');
    const categories = await client.editMaterialCategories.list();
    expect(categories.data.map((c) => c.id)).toContain('flooring');
    expect(categories.data.every((c) => c.object === 'edit_material_category')).toBe(true);

    // Every material, by raw pages of 100, against the SDK's iteration by pages of 7.
    const all: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await client.editMaterials.list({ limit: 100, ...(after ? { after } : {}) });
      all.push(...page.data.map((m) => m.id));
      if (!page.has_more) break;
      after = page.data[page.data.length - 1]!.id;
    }
    expect(all.length).toBeGreaterThan(14);
    calls.length = 0;
    const iterated: string[] = [];
    for await (const material of client.editMaterials.list({ limit: 7 })) iterated.push(material.id);
    expect(iterated).toEqual(all);
    expect(calls.length).toBe(Math.ceil(all.length / 7));
    expect(calls.filter((c) => new URL(c.url).searchParams.get('after') !== null).length).toBe(calls.length - 1);

    const flooring = await client.editMaterials.list({ category: 'flooring', limit: 3 });
    expect(flooring.data.every((m) => m.category === 'flooring')).toBe(true);
    expect(flooring.hasNextPage()).toBe(true);
    const second = await flooring.nextPage();
    expect(second.data[0]!.id).not.toBe(flooring.data[0]!.id);
  });
});

describe('creations: inputs as URL, file path, Buffer, Uint8Array, Blob, stream', () => {
  it('upscales: JSON for a URL, multipart for every kind of file; the same image and settings arrive', async () => {
    const org = await createTestOrg();
    const { client, calls } = sdk(org.testKey);
    const inputs: [string, () => unknown][] = [
      ['url', () => imageUrl],
      ['path', () => path.join(workDir, 'room.jpg')],
      ['Buffer', () => jpeg],
      ['Uint8Array', () => new Uint8Array(jpeg)],
      ['Blob', () => new Blob([new Uint8Array(jpeg)])],
      ['Node stream', () => fs.createReadStream(path.join(workDir, 'room.jpg'))],
      ['web stream', () => Readable.toWeb(Readable.from([jpeg.subarray(0, 1000), jpeg.subarray(1000)]))],
    ];
    for (const [kind, input] of inputs) {
      calls.length = 0;
      const generation = await client.upscales.create({ image: input() as string, scale: 'x2', metadata: { kind } });
      expect(generation, kind).toMatchObject({ object: 'generation', type: 'upscale', status: 'succeeded', livemode: false, metadata: { kind } });
      expect(generation.input, kind).toEqual({ quality: null, scale: 'x2' });
      expect(generation.output[0], kind).toMatchObject({ width: 640, height: 480 });
      const contentType = calls[0]!.headers['content-type'];
      if (kind === 'url') expect(contentType).toBe('application/json');
      else expect(contentType, `${kind}: multipart is fetch's own FormData encoding`).toBeUndefined();
    }
  });

  it('renders, decorations, and edits in prompt and mask mode (layers with a file element)', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const render = await client.renders.create({ image: imageUrl, quality: '1k', style: 'japandi' });
    expect(render).toMatchObject({ type: 'render', status: 'succeeded', input: { quality: '1k', scale: null, style: 'japandi' } });

    const decoration = await client.decorations.create({ image: jpeg, quality: '1k', style: 'scandinavian', categories: ['plants', 'lighting'] });
    expect(decoration).toMatchObject({ type: 'decoration', status: 'succeeded', input: { quality: '1k', style: 'scandinavian', categories: ['plants', 'lighting'] } });

    const prompt = await client.edits.create({ image: imageUrl, mode: 'prompt', quality: '1k', prompt: 'Warmer light\non the floor' });
    expect(prompt).toMatchObject({ type: 'edit', status: 'succeeded', input: { mode: 'prompt', prompt: 'Warmer light\non the floor' } });

    const mask = await maskPng(320, 240, [
      { x: 0, y: 0, w: 160, h: 240, color: '#FF0000' },
      { x: 160, y: 0, w: 160, h: 240, color: '#0066FF' },
    ]);
    const element = await solidImage(64, 64, 'png', '#335577');
    const edit = await client.edits.create({
      image: path.join(workDir, 'room.jpg'),
      mode: 'mask',
      quality: '1k',
      mask,
      layers: [
        { mask_color: '#ff0000', action: 'modify', color: '#6b8e7f', finish: 'solid_matte' },
        { mask_color: '#0066FF', action: 'add', element },
      ],
      metadata: { ticket: 'R-7' },
    });
    expect(edit).toMatchObject({
      type: 'edit',
      status: 'succeeded',
      metadata: { ticket: 'R-7' },
      input: { mode: 'mask', layers: [{ mask_color: '#FF0000', action: 'modify', color: '#6B8E7F', finish: 'solid_matte' }, { mask_color: '#0066FF', action: 'add' }] },
    });
  });

  it('an unreadable file path is an SDK error before any request', async () => {
    const org = await createTestOrg();
    const { client, calls } = sdk(org.testKey);
    await expect(client.upscales.create({ image: path.join(workDir, 'missing.jpg') })).rejects.toThrow(/Cannot read the file for 'image'/);
    expect(calls).toHaveLength(0);
  });
});

describe('generations', () => {
  it('retrieve, cancel, background + waitUntilDone, and pagination over three pages (for await)', async () => {
    const org = await createTestOrg();
    const { client, calls } = sdk(org.testKey);

    const accepted = await client.upscales.create({ image: imageUrl, background: true });
    expect(accepted.status).toBe('in_progress');
    const done = await client.generations.waitUntilDone(accepted, { pollInterval: 200 });
    expect(done).toMatchObject({ id: accepted.id, status: 'succeeded' });
    expect((await client.generations.retrieve(accepted.id)).status).toBe('succeeded');

    // Not queued to a worker: stays unstarted, so it can be canceled.
    const waiting = await insertGeneration({ organizationId: org.id, mode: 'test' });
    const canceled = await client.generations.cancel(waiting.id);
    expect(canceled).toMatchObject({ id: waiting.id, status: 'canceled', cancelable: false });
    const notAgain = await client.generations.cancel(waiting.id).catch((e: unknown) => e);
    expect(notAgain).toBeInstanceOf(ConflictError);
    expect(notAgain).toMatchObject({ status: 409, code: 'generation_not_cancelable' });

    for (let i = 0; i < 5; i++) await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded', createdAt: new Date(Date.now() - (i + 1) * 60_000) });
    const expected = (await db().generation.findMany({ where: { organizationId: org.id, mode: 'test' }, orderBy: { seq: 'desc' }, select: { id: true } })).map((g) => g.id);
    expect(expected).toHaveLength(7);
    calls.length = 0;
    const seen: string[] = [];
    for await (const generation of client.generations.list({ limit: 3 })) seen.push(generation.id);
    expect(seen).toEqual(expected);
    expect(calls.map((c) => new URL(c.url).searchParams.get('after'))).toEqual([null, expected[2], expected[5]]);

    const succeeded: Generation[] = [];
    for await (const generation of client.generations.list({ status: 'succeeded', limit: 2 })) succeeded.push(generation);
    expect(succeeded.map((g) => g.id)).toEqual(expected.filter((id) => id !== waiting.id));
  });

  it('waitUntilDone gives up at its timeout with WaitTimeoutError (the generation goes on)', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const never = await insertGeneration({ organizationId: org.id, mode: 'test' });
    const error = await client.generations.waitUntilDone(never.id, { timeout: 300, pollInterval: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).generation).toMatchObject({ id: never.id, status: 'in_progress' });
  });
});

describe('typed errors', () => {
  it('carry status, code, param, message and requestId, one class per family', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const notFound = await client.generations.retrieve('gen_doesnotexist').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, code: 'resource_not_found', param: 'id', requestId: expect.stringMatching(/^req_/) });

    const invalid = await client.upscales.create({ image: imageUrl, scale: 'x3' as 'x2' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'scale' });

    const badList = await client.generations.list({ limit: 500 }).catch((e: unknown) => e);
    expect(badList).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'limit' });

    const unauthenticated = await sdk('rt_test_notakey0000000000000000000000').client.styles.list().catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect(unauthenticated).toMatchObject({ status: 401, code: 'api_key_invalid' });

    const readOnly = await createKey(org.id, 'test', ['generations_read']);
    const denied = await sdk(readOnly).client.upscales.create({ image: imageUrl }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect(denied).toMatchObject({ status: 403, code: 'permission_denied' });
    expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(0);
  });
});

describe('retries', () => {
  it('429 with Retry-After: the client waits what the server asked, then the same creation succeeds (same Idempotency-Key)', async () => {
    const org = await createTestOrg({ tier: 1 }); // 10 generations per minute
    // The quota's minute is full, with its oldest generation leaving it in about 2 seconds (dated
    // once all ten exist: inserting them may take seconds on a loaded machine).
    for (let i = 0; i < 10; i++) await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded' });
    const { client, calls } = sdk(org.testKey);
    await db().generation.updateMany({ where: { organizationId: org.id }, data: { createdAt: new Date(Date.now() - 58_000) } });
    const generation = await client.upscales.create({ image: imageUrl, background: true });
    expect(generation.status).toBe('in_progress');
    expect(calls.map((c) => c.status)).toEqual([429, 202]);
    const retryAfter = Number(calls[0]!.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    // It waited at least what the server asked (a lower bound: load only makes the wait longer).
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(retryAfter * 1000);
    expect(calls[1]!.headers['idempotency-key']).toBe(calls[0]!.headers['idempotency-key']);
    expect(calls[0]!.headers['idempotency-key']).toMatch(/^sdk_[0-9a-f-]{36}$/);
    expect(await db().generation.count({ where: { organizationId: org.id, id: generation.id } })).toBe(1);
  });

  it('a Retry-After longer than maxRetryWait is not waited for: RateLimitError at once, with retryAfter', async () => {
    const org = await createTestOrg({ tier: 1 });
    for (let i = 0; i < 10; i++) await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded', createdAt: new Date(Date.now() - 5_000) });
    const { client, calls } = sdk(org.testKey, { maxRetryWait: 10_000 });
    const error = await client.upscales.create({ image: imageUrl, background: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'generation_rate_limit_exceeded' });
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(10);
    expect(calls).toHaveLength(1);
  });

  it('a dropped connection: the retry carries the same Idempotency-Key, and there is one generation and one charge', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const upstream = new URL(baseUrl);
    const seen: { key: string | undefined; dropped: boolean }[] = [];
    // A proxy that forwards every request, but drops the connection instead of answering the first creation.
    const proxy = http.createServer((req, res) => {
      const drop = req.method === 'POST' && seen.length === 0;
      seen.push({ key: req.headers['idempotency-key'] as string | undefined, dropped: drop });
      const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        if (drop) {
          answer.resume();
          answer.on('end', () => res.socket?.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { client } = sdk(org.liveKey, {}, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      const generation = await client.upscales.create({ image: jpeg, scale: 'x2' });
      expect(generation).toMatchObject({ status: 'succeeded', livemode: true, cost: { amount: 10 } });
      expect(seen.map((s) => s.dropped)).toEqual([true, false]);
      expect(seen[1]!.key).toBe(seen[0]!.key);
      expect(await db().generation.count({ where: { organizationId: org.id } })).toBe(1);
      const ledger = await db().balanceTransaction.findMany({ where: { organizationId: org.id, type: 'charge' } });
      expect(ledger.map((t) => [t.generationId, t.amount])).toEqual([[generation.id, -10]]);
      expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(990);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('webhooks: verifying real deliveries', () => {
  let receivers: Receivers;
  beforeAll(async () => {
    receivers = await startReceivers();
  });
  afterAll(async () => {
    await receivers?.close();
  });

  it('unwrap verifies a delivery of the running server and returns the typed event; rotation: two signatures, either secret verifies', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const name = `sdk-${org.id}`;
    const { endpoint, secret } = await createEndpoint(db(), { organizationId: org.id }, { mode: 'test', url: receivers.url(name), events: ['generation.succeeded'] });

    const first = await client.upscales.create({ image: imageUrl });
    const [delivery] = await receivers.waitFor(name, 1);
    const event = Roomtone.webhooks.unwrap(delivery!.body, delivery!.headers, secret);
    expect(event).toMatchObject({ type: 'generation.succeeded', livemode: false, data: { object: { id: first.id, status: 'succeeded' } } });
    expect(event.id).toBe(delivery!.headers['webhook-id']);
    // Same verdict as the official verifier, raw bytes and Headers accepted too.
    expect(new Webhook(secret).verify(delivery!.body, delivery!.headers)).toEqual(event);
    expect(() => client.webhooks.verify(Buffer.from(delivery!.body), new Headers(delivery!.headers), secret)).not.toThrow();

    // Refused: another secret, a changed body, a missing header.
    const other = (await rotateSecret(db(), { organizationId: org.id }, endpoint.id)).secret;
    expect(() => Roomtone.webhooks.verify(delivery!.body, delivery!.headers, other)).toThrow(WebhookVerificationError);
    expect(() => Roomtone.webhooks.unwrap(delivery!.body.replace('succeeded', 'failed'), delivery!.headers, secret)).toThrow(WebhookVerificationError);
    const { ['webhook-signature']: _signature, ...unsigned } = delivery!.headers;
    expect(() => Roomtone.webhooks.verify(delivery!.body, unsigned, secret)).toThrow(/Missing required headers/);

    // After the rotation: two signatures, new and previous; each secret alone verifies, and a list with either.
    const second = await client.upscales.create({ image: imageUrl });
    const [, rotated] = await receivers.waitFor(name, 2);
    expect(rotated!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secrets of [other, secret, [other, secret], ['whsec_' + Buffer.alloc(32, 7).toString('base64'), secret]]) {
      expect(Roomtone.webhooks.unwrap(rotated!.body, rotated!.headers, secrets).data.object).toMatchObject({ id: second.id });
    }
    expect(() => Roomtone.webhooks.verify(rotated!.body, rotated!.headers, ['whsec_' + Buffer.alloc(32, 7).toString('base64')])).toThrow(WebhookVerificationError);
  });

  it('a delivery older than 5 minutes is refused, as the spec requires', () => {
    const secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    const body = JSON.stringify({ id: 'evt_old', type: 'generation.succeeded', created_at: 0, livemode: false, data: { object: {} } });
    const headers = Roomtone.webhooks.sign(body, secret, 'evt_old', new Date(Date.now() - 6 * 60_000));
    expect(() => Roomtone.webhooks.verify(body, headers, secret)).toThrow(/too old/);
    expect(Roomtone.webhooks.unwrap(body, Roomtone.webhooks.sign(body, secret, 'evt_old'), secret).id).toBe('evt_old');
  });
});
