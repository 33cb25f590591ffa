// @node-lines same: the SDK against the server; the SDK's own code runs under both lines in sdk/test
// @worker-process shared: the SDK and its CLI run to their end (spawnSync) against the shared server, receivers it closes after it; the setting it makes is given back (test/file-environment.ts)
/**
 * The SDK contract against the real server, through @roomtone/sdk (its built package) and raw HTTP:
 * retries that can succeed (`x-should-retry`, Retry-After, a wrong base URL failing at once),
 * what a call lets you observe (`withResponse`, the `request`/`response`/`retry` hooks,
 * `onProgress`), the test-mode triggers and `GET /v1/balance`, required fields, `file_…` ids
 * and `download`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Roomtone, { APIConnectionError, APIError, InvalidRequestError, RateLimitError, type ClientOptions, type ProgressEvent, type RetryEvent } from '@roomtone/sdk';
import { spawnSync } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { db } from '@/server/platform/db';
import { freePort } from '@/server/platform/ports';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { api, baseUrl, createKey, createTestOrg, holdGenerations, testIp } from './support';
import { noiseImage, restoreServedFiles, serve } from './images-support';
import { startReceivers, type Receivers } from './webhook-receiver';
import { environmentForThisFile } from './file-environment';

// The test receivers are reached over loopback HTTPS (endpoints are created here, through the service layer).
environmentForThisFile({ DEV_ALLOW_LOOPBACK_URLS: 'true' });

const ip = testIp();

/** A client whose requests come from this file's IP, counting its attempts. */
function sdk(apiKey: string, options: Partial<ClientOptions> = {}) {
  const calls: { url: string; status: number | null }[] = [];
  const client = new Roomtone({
    apiKey,
    baseUrl,
    logLevel: 'off',
    ...options,
    fetch: async (input, init) => {
      const call = { url: String(input), status: null as number | null };
      calls.push(call);
      const response = await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': ip } });
      call.status = response.status;
      return response;
    },
  });
  return { client, calls };
}

let jpeg: Buffer;
let imageUrl: string;

beforeAll(async () => {
  jpeg = await noiseImage(320, 240, 'jpeg');
  imageUrl = serve(jpeg, 'jpg');
});
beforeEach(() => restoreServedFiles());

async function generationCount(organizationId: string): Promise<number> {
  return db().generation.count({ where: { organizationId } });
}

describe('retries that can succeed', () => {
  it('503 mode_unavailable (no backend configured) says x-should-retry: false, and the SDK makes one attempt', async () => {
    const org = await createTestOrg();
    const raw = await api<{ error: { code: string } }>('/v1/renders', { key: org.liveKey, ip, body: { image: imageUrl, quality: '1k' } });
    expect(raw.status).toBe(503);
    expect(raw.body.error.code).toBe('mode_unavailable');
    expect(raw.headers.get('x-should-retry')).toBe('false');
    expect(raw.headers.get('retry-after')).toBeNull();

    const { client, calls } = sdk(org.liveKey);
    const retries: RetryEvent[] = [];
    client.on('retry', (event) => retries.push(event));
    const error = await client.renders.create({ image: imageUrl, quality: '1k' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 503, code: 'mode_unavailable' });
    expect(calls.length).toBe(1);
    expect(retries).toEqual([]);
  });

  it('a refusal that passes with time carries Retry-After and x-should-retry: true, and is retried after the wait (the retry hook shows it)', async () => {
    const org = await createTestOrg();
    const raw = await api<{ error: { code: string; message: string } }>('/v1/upscales', { key: org.testKey, ip, body: { image: imageUrl, metadata: { roomtone_test_trigger: 'generation_rate_limit_exceeded' } } });
    expect(raw.status).toBe(429);
    expect(raw.body.error.code).toBe('generation_rate_limit_exceeded');
    expect(raw.headers.get('retry-after')).toBe('2');
    expect(raw.headers.get('x-should-retry')).toBe('true');
    // The 429 says how to raise the quota.
    expect(raw.body.error.message).toMatch(/to raise the quota, ask the operator .* higher tier/);

    const { client, calls } = sdk(org.testKey, { maxRetries: 1 });
    const retries: RetryEvent[] = [];
    client.on('retry', (event) => retries.push(event));
    const error = await client.upscales.create({ image: imageUrl, metadata: { roomtone_test_trigger: 'generation_rate_limit_exceeded' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(calls.map((c) => c.status)).toEqual([429, 429]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 2000, status: 429, retryAfter: 2, reason: '429 generation_rate_limit_exceeded', method: 'POST' });
    expect(retries[0]!.requestId).toMatch(/^req_/);
    expect(await generationCount(org.id)).toBe(0);
  });

  it('a logger at the default level shows a long wait (≥ 10 s) as a warning', async () => {
    const org = await createTestOrg();
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (line: string) => lines.push(line), info: () => {}, debug: () => {} };
    // overloaded asks for 30 s, beyond this client's maxRetryWait: no wait, no line; then a client that waits is cut short by its signal.
    const controller = new AbortController();
    const { client } = sdk(org.testKey, { logLevel: 'warn', logger, maxRetries: 1 });
    client.on('retry', () => controller.abort());
    const error = await client.upscales.create({ image: imageUrl, metadata: { roomtone_test_trigger: 'overloaded' } }, { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('APIUserAbortError');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[roomtone\] POST .*\/v1\/upscales: 503 overloaded \(req_\w+\); retrying in 30\.0 s \(attempt 2\)$/);
  });

  it('a wrong base URL (connection refused) fails at once, naming the URL it tried', async () => {
    // A port reserved for this file that nothing listens on.
    const port = await freePort();
    let attempts = 0;
    const client = new Roomtone({
      apiKey: 'rt_test_x',
      baseUrl: `http://127.0.0.1:${port}`,
      logLevel: 'off',
      fetch: (input, init) => {
        attempts++;
        return fetch(input, init);
      },
    });
    const started = performance.now();
    const error = await client.styles.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(`http://127.0.0.1:${port}/v1/styles`);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(attempts).toBe(1);
    expect(performance.now() - started).toBeLessThan(400); // no backoff (0.5 s and 1 s) was waited
  });
});

describe('observable calls', () => {
  it('withResponse gives the object with its request id, status and rate-limit headers; hooks see each request and answer', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const seen: string[] = [];
    client.on('request', (e) => seen.push(`request ${e.method} ${new URL(e.url).pathname} #${e.attempt}`));
    client.on('response', (e) => seen.push(`response ${e.status} ${e.requestId?.slice(0, 4)}`));
    const { data: generation, response } = await client.upscales.create({ image: imageUrl, scale: 'x2' }).withResponse();
    expect(generation).toMatchObject({ object: 'generation', status: 'succeeded' });
    expect(response.status).toBe(200);
    expect(response.requestId).toMatch(/^req_/);
    expect(response.headers.get('x-ratelimit-remaining-generations-minute')).toMatch(/^\d+$/);
    expect(response.headers.get('x-ratelimit-limit-requests')).toMatch(/^\d+$/);
    expect(seen).toEqual(['request POST /v1/upscales #1', 'response 200 req_']);

    const read = await client.generations.retrieve(generation.id).withResponse();
    expect(read.data.id).toBe(generation.id);
    expect(read.response.requestId).not.toBe(response.requestId);
    // Awaited directly, it is the object itself.
    expect((await client.generations.retrieve(generation.id)).id).toBe(generation.id);
    // A list page's answer: the client's lastResponse.
    const page = await client.generations.list({ limit: 1 });
    expect(page.data[0]!.id).toBe(generation.id);
    expect(client.lastResponse).toMatchObject({ status: 200, requestId: expect.stringMatching(/^req_/) });
    expect(client.lastResponse!.headers.get('x-ratelimit-remaining-requests')).toMatch(/^\d+$/);
  });

  it('createAndWait reports progress through onProgress until the end', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const release = holdGenerations(org.id);
    const events: ProgressEvent[] = [];
    try {
      const generation = await client.upscales.createAndWait(
        { image: imageUrl, scale: 'x2' },
        {
          pollInterval: 200,
          onProgress: (event) => {
            events.push(event);
            if (event.status === 'in_progress') release();
          },
        },
      );
      expect(generation.status).toBe('succeeded');
    } finally {
      release();
    }
    expect(events[0]!.status).toBe('in_progress');
    expect(events.at(-1)).toMatchObject({ status: 'succeeded', progress: 1 });
    for (const event of events) if (event.progress !== null) expect(event.progress).toBeGreaterThanOrEqual(0);
  });
});

describe('test-mode triggers', () => {
  it('402 insufficient_balance, 429 generation_rate_limit_exceeded and 503 overloaded in test mode, nothing created', async () => {
    const org = await createTestOrg();
    const cases = [
      ['insufficient_balance', 402, null],
      ['generation_rate_limit_exceeded', 429, '2'],
      ['overloaded', 503, '30'],
    ] as const;
    for (const [trigger, status, retryAfter] of cases) {
      const res = await api<{ error: { code: string; message: string } }>('/v1/upscales', { key: org.testKey, ip, body: { image: imageUrl, metadata: { roomtone_test_trigger: trigger } } });
      expect(res.status, trigger).toBe(status);
      expect(res.body.error.code, trigger).toBe(trigger);
      expect(res.body.error.message, trigger).toContain(`roomtone_test_trigger=${trigger}`);
      expect(res.headers.get('retry-after'), trigger).toBe(retryAfter);
    }
    const { client } = sdk(org.testKey, { maxRetries: 0 });
    await expect(client.upscales.create({ image: imageUrl, metadata: { roomtone_test_trigger: 'insufficient_balance' } })).rejects.toBeInstanceOf(InvalidRequestError);
    // Unknown trigger values are refused, naming metadata.
    const unknown = await api<{ error: { code: string; param: string } }>('/v1/upscales', { key: org.testKey, ip, body: { image: imageUrl, metadata: { roomtone_test_trigger: 'explode' } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata' });
    expect(await generationCount(org.id)).toBe(0);
  });

  it('generation_failed: accepted, then failed (error generation_failed), with its webhook-visible state', async () => {
    const org = await createTestOrg();
    const { client } = sdk(org.testKey);
    const generation = await client.upscales.create({ image: imageUrl, metadata: { roomtone_test_trigger: 'generation_failed' } });
    expect(generation.status).toBe('failed');
    expect(generation.error).toMatchObject({ code: 'generation_failed' });
    expect(generation.output).toEqual([]);
    expect(generation.cost.amount_refunded).toBe(generation.cost.amount);
  });

  it('never effective in live mode: each trigger is refused (400 parameter_invalid, param metadata), nothing created or charged', async () => {
    const org = await createTestOrg();
    const before = await api<{ amount: number; monthly_spend: number }>('/v1/balance', { key: org.liveKey, ip });
    for (const trigger of ['insufficient_balance', 'generation_rate_limit_exceeded', 'overloaded', 'generation_failed']) {
      const res = await api<{ error: { code: string; param: string } }>('/v1/upscales', { key: org.liveKey, ip, body: { image: imageUrl, metadata: { roomtone_test_trigger: trigger } } });
      expect(res.status, trigger).toBe(400);
      expect(res.body.error, trigger).toMatchObject({ code: 'parameter_invalid', param: 'metadata' });
    }
    const after = await api<{ amount: number; monthly_spend: number }>('/v1/balance', { key: org.liveKey, ip });
    expect(after.body).toEqual(before.body);
    expect(await generationCount(org.id)).toBe(0);
  });
});

describe('GET /v1/balance (an addition to the spec)', () => {
  it('answers the balance object with the monthly limit and spend, for a key with any one permission, and the SDK reads it', async () => {
    const org = await createTestOrg({ tier: 1, credit: 5_000 });
    for (const permission of ['renders', 'edits', 'decorations', 'upscales', 'generations_read'] as const) {
      const res = await api('/v1/balance', { key: await createKey(org.id, 'test', [permission]), ip });
      expect(res.status, permission).toBe(200);
      expect(res.body, permission).toEqual({ object: 'balance', amount: 5_000, currency: 'eur', unit: 'cents', monthly_limit: 50_000, monthly_spend: 0 });
    }
    const { client } = sdk(org.liveKey);
    const upscale = await client.upscales.create({ image: imageUrl, scale: 'x2' });
    expect(upscale.cost.amount).toBe(10);
    const { data: balance, response } = await client.balance.retrieve().withResponse();
    expect(balance).toEqual({ object: 'balance', amount: 4_990, currency: 'eur', unit: 'cents', monthly_limit: 50_000, monthly_spend: 10 });
    expect(response.requestId).toMatch(/^req_/);
    const noPermission = await api<{ error: { code: string } }>('/v1/balance', { key: await createKey(org.id, 'test', []), ip });
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.error.code).toBe('permission_denied');
  });
});

describe('one contract', () => {
  it('a missing required field is parameter_invalid naming it, "<field> is required.", in JSON and multipart', async () => {
    const org = await createTestOrg();
    const json = await api<{ error: { code: string; param: string; message: string } }>('/v1/upscales', { key: org.testKey, ip, body: { scale: 'x2' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toEqual({ code: 'parameter_invalid', param: 'image', message: 'image is required.' });
    const form = new FormData();
    form.append('scale', 'x2');
    const multipart = await api<{ error: { code: string; param: string; message: string } }>('/v1/upscales', { key: org.testKey, ip, rawBody: form, method: 'POST' });
    expect(multipart.status).toBe(400);
    expect(multipart.body.error).toEqual({ code: 'parameter_invalid', param: 'image', message: 'image is required.' });
    const edit = await api<{ error: { code: string; param: string; message: string } }>('/v1/edits', { key: org.testKey, ip, body: { image: imageUrl, mode: 'prompt', prompt: 'Warmer' } });
    expect(edit.body.error).toEqual({ code: 'parameter_invalid', param: 'quality', message: 'quality is required.' });
    const layer = await api<{ error: { code: string; param: string; message: string } }>('/v1/edits', {
      key: org.testKey,
      ip,
      body: { image: imageUrl, mode: 'mask', quality: '1k', mask: imageUrl, layers: [{ action: 'remove' }] },
    });
    expect(layer.body.error).toEqual({ code: 'parameter_invalid', param: 'layers[0].mask_color', message: 'layers[0].mask_color is required.' });
  });

  it('the SDK sends a file_… upload id as is, and download() follows the signed URL to bytes and to a file', async () => {
    const org = await createTestOrg();
    const mcp = new Client({ name: 'roomtone-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip } } }));
    const result = (await mcp.callTool({ name: 'create_upload', arguments: {} })) as CallToolResult;
    await mcp.close();
    const upload = result.structuredContent as { id: string; upload_url: string };
    expect(upload.id).toMatch(/^file_/);
    const put = await fetch(upload.upload_url, { method: 'PUT', body: new Uint8Array(jpeg), headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': ip } });
    expect(put.ok).toBe(true);

    const { client, calls } = sdk(org.testKey);
    const generation = await client.upscales.create({ image: upload.id, scale: 'x2' });
    expect(generation.status).toBe('succeeded');
    expect(calls).toHaveLength(1);

    const bytes = await client.download(generation);
    expect((await sharp(bytes).metadata()).width).toBe(640);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-download-'));
    try {
      const file = path.join(dir, 'out.img');
      const written = await client.download(generation.output[0]!, { to: file });
      expect(fs.readFileSync(file).equals(written)).toBe(true);
      expect(written.equals(bytes)).toBe(true);
      // The API key never goes with the signed URL.
      let authorization: string | null = 'unset';
      const spy = new Roomtone({ apiKey: org.testKey, baseUrl, logLevel: 'off', fetch: (input, init) => ((authorization = new Headers(init?.headers).get('authorization')), fetch(input, init)) });
      await spy.download(generation.output[0]!.url);
      expect(authorization).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('roomtone-sdk trigger <event> (as stripe trigger)', () => {
  let receivers: Receivers;
  beforeAll(async () => {
    receivers = await startReceivers();
  });
  afterAll(async () => {
    await receivers?.close();
  });

  it('sends a signed sample event to the test endpoints that follow it and to a running listen; never with a live key', async () => {
    const org = await createTestOrg();
    const name = `trigger-${org.id}`;
    const { secret } = await createEndpoint(db(), { organizationId: org.id }, { mode: 'test', url: receivers.url(name), events: ['generation.failed'] });
    const { client } = sdk(org.testKey);
    const controller = new AbortController();
    let opened!: () => void;
    const ready = new Promise<void>((resolve) => (opened = resolve));
    const streamed = (async () => {
      for await (const event of client.webhooks.listen({ signal: controller.signal, onReady: () => opened() })) return event;
      return null;
    })();
    await ready;

    const bin = path.resolve(import.meta.dirname, '..', 'sdk', 'bin', 'roomtone-sdk.js');
    const run = (args: string[], key: string) =>
      spawnSync(process.execPath, [bin, ...args, '--base-url', baseUrl], { env: { ...process.env, ROOMTONE_API_KEY: key }, encoding: 'utf8' });
    const result = run(['trigger', 'generation.failed'], org.testKey);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const eventId = /Triggered generation\.failed \((evt_\w+)\): sent to 1 test endpoint and the running listen\./.exec(result.stdout)?.[1];
    expect(eventId, result.stdout).toBeDefined();

    const [delivery] = await receivers.waitFor(name, 1);
    const event = new Webhook(secret).verify(delivery!.body, delivery!.headers) as { id: string; type: string; livemode: boolean; data: { object: { object: string; status: string; metadata: Record<string, string> } } };
    expect(event).toMatchObject({ id: eventId, type: 'generation.failed', livemode: false, data: { object: { object: 'generation', status: 'failed', metadata: { sample: 'true' } } } });
    expect((await streamed)?.id).toBe(eventId);
    controller.abort();

    // Not followed by anything (another organization: no endpoint, no stream): nothing produced, said so.
    const unfollowed = run(['trigger', 'generation.canceled'], (await createTestOrg()).testKey);
    expect(unfollowed.status).toBe(0);
    expect(unfollowed.stdout).toContain('Nothing follows generation.canceled in test mode');
    // A live key is refused by the command, and by the route.
    expect(run(['trigger', 'generation.failed'], org.liveKey).status).toBe(2);
    const live = await api<{ error: { code: string } }>('/v1/events/trigger', { key: org.liveKey, ip, body: { type: 'generation.failed' } });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('permission_denied');
    const unknown = await api<{ error: { code: string; param: string } }>('/v1/events/trigger', { key: org.testKey, ip, body: { type: 'balance.low' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
    expect(receivers.received(name)).toHaveLength(1);
  });
});
