// @node-lines same: our retention rules with the clock moved ahead, in SQL
/**
 * Retention, through `roomtone maintenance run --now` with the clock moved ahead. On a database
 * and server of its own: a run days or months ahead deletes whatever it finds, so on the shared
 * database it would delete other files' images and keys while they run; and fixtures created at
 * the real now are never reached by this server's own minute-by-minute retention (which runs at
 * the real now), so nothing here races it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, testIp } from './support';
import { insertGeneration } from './fixtures';
import { API_ONLY, freshDatabase, startServer, type TestDatabase, type TestProcess } from './server-processes';
import { closeDb, db, transaction } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';
import { createGeneration } from '@/server/capabilities/creations/create';
import { FileParts } from '@/server/capabilities/creations/images';
import { sweepGenerations, STALE_STARTED_MS } from '@/server/jobs/sweeper';
import { chargeBalance } from '@/server/capabilities/billing/ledger';
import { newId } from '@/server/platform/ids';
import { flushRequestLog, recordRequest, requestLogBodyHash } from '@/server/capabilities/requestlog/requestlog';
import sharp from 'sharp';
import { jsonOf, roomtone } from './roomtone-cli';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ip = testIp();
/** These cases run four maintenance runs over a database of their own. */
const CLI_RUNS_TIMEOUT_MS = 120_000;
let database: TestDatabase;
let server: TestProcess;

beforeAll(async () => {
  database = await freshDatabase('retention');
  setEnv('DATABASE_URL', database.url); // db(), the fixtures, the CLI and createGeneration in this file use it
  setEnv('DATA_DIR', database.dataDir);
  // Jobs hold their slot 1 s, so the synchronous wait below runs out before its job ends.
  server = await startServer(database.url, { ...API_ONLY, BUILTIN_ENGINE_MIN_DURATION_MS: '1000' });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await closeDb();
  await database?.drop();
});

/** `roomtone maintenance run --now <now> --json`, in this process (test/roomtone-cli.ts). */
async function maintenance(now: Date): Promise<Record<string, number>> {
  const run = await roomtone(['maintenance', 'run', '--now', now.toISOString(), '--json']);
  if (run.code !== 0) throw new Error(`maintenance run exited ${run.code}: ${run.stdout}${run.stderr}`);
  return jsonOf(run) as Record<string, number>;
}

describe('retention: roomtone maintenance run --now', () => {
  it('deletes images 24 h after the end, empties prompts after 30 days, deletes generations after 13 months (ledger stays)', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const created = new Date();
    const gen = await insertGeneration({ organizationId: org.id, mode: 'live', status: 'succeeded', withOutput: true, createdAt: created, type: 'edit' });
    await db().generation.update({ where: { id: gen.id }, data: { input: { quality: '1k', scale: null, mode: 'prompt', prompt: 'Warmer light' } } });
    const before = await api<{ output: { url: string }[] }>(`/v1/generations/${gen.id}`, { base: server.url, key: org.liveKey, ip });
    const url = before.body.output[0]!.url;
    expect((await fetch(url)).status).toBe(200);

    // 23 h after the end: nothing yet.
    await maintenance(new Date(created.getTime() + 23 * 3600_000));
    expect((await api<{ output: unknown[] }>(`/v1/generations/${gen.id}`, { base: server.url, key: org.liveKey, ip })).body.output).toHaveLength(1);

    // 25 h after the end: images gone, output [], the old URL answers 404.
    const day = await maintenance(new Date(created.getTime() + 25 * 3600_000));
    expect(day.images_deleted).toBeGreaterThanOrEqual(1);
    const afterDay = await api<{ output: unknown[]; input: { prompt: string } }>(`/v1/generations/${gen.id}`, { base: server.url, key: org.liveKey, ip });
    expect(afterDay.body.output).toEqual([]);
    expect(afterDay.body.input.prompt).toBe('Warmer light');
    expect((await fetch(url)).status).toBe(404);

    // 31 days: the instruction is emptied.
    await maintenance(new Date(created.getTime() + 31 * 24 * 3600_000));
    const afterMonth = await api<{ input: { prompt: string } }>(`/v1/generations/${gen.id}`, { base: server.url, key: org.liveKey, ip });
    expect(afterMonth.body.input.prompt).toBe('');

    // 13 months: the generation is gone (404, not listed); its charge stays in the ledger.
    const thirteenMonths = new Date(created);
    thirteenMonths.setUTCMonth(thirteenMonths.getUTCMonth() + 13);
    const late = await maintenance(new Date(thirteenMonths.getTime() + 24 * 3600_000));
    expect(late.generations_deleted).toBeGreaterThanOrEqual(1);
    expect((await api(`/v1/generations/${gen.id}`, { base: server.url, key: org.liveKey, ip })).status).toBe(404);
    const list = await api<{ data: { id: string }[] }>('/v1/generations?limit=100', { base: server.url, key: org.liveKey, ip });
    expect(list.body.data.map((g) => g.id)).not.toContain(gen.id);
    expect(await db().balanceTransaction.count({ where: { generationId: gen.id } })).toBe(1);
  }, CLI_RUNS_TIMEOUT_MS);

  it('refuses a bad --now with exit code 2', async () => {
    const result = await roomtone(['maintenance', 'run', '--now', 'yesterday', '--json']);
    expect(result.code).toBe(2);
    expect(jsonOf(result)).toHaveProperty('error.code', 'usage');
  });
});

describe('retention of idempotency keys and the request log', () => {
  it('forgets idempotency keys after 24 h and request-log lines after 30 days', async () => {
    const org = await createTestOrg();
    const gen = await insertGeneration({ organizationId: org.id, mode: 'test' });
    // Created now: the server's own retention job (every minute, real clock) never reaches them.
    const created = new Date();
    const key = `old-${newId('req')}`;
    await db().idempotencyRecord.create({ data: { organizationId: org.id, mode: 'test', key, channel: 'v1', requestHash: 'h', generationId: gen.id, createdAt: created } });
    const logId = newId('req');
    await db().requestLog.create({ data: { id: logId, organizationId: org.id, method: 'GET', path: '/v1/styles', status: 200, durationMs: 1, createdAt: created } });
    await maintenance(new Date(created.getTime() + 23 * 3600_000));
    expect(await db().idempotencyRecord.count({ where: { organizationId: org.id, key } })).toBe(1);
    await maintenance(new Date(created.getTime() + 25 * 3600_000));
    expect(await db().idempotencyRecord.count({ where: { organizationId: org.id, key } })).toBe(0);
    expect(await db().requestLog.count({ where: { id: logId } })).toBe(1);
    await maintenance(new Date(created.getTime() + 31 * 24 * 3600_000));
    expect(await db().requestLog.count({ where: { id: logId } })).toBe(0);
  }, CLI_RUNS_TIMEOUT_MS);
});

describe('retention of request-log bodies', () => {
  it('deletes a body stored once for two lines only when no line that is kept uses it', async () => {
    const org = await createTestOrg();
    const text = JSON.stringify({ object: 'list', data: [], has_more: false, note: newId('req') });
    const created = new Date();
    const later = new Date(created.getTime() + 2 * 24 * 3600_000);
    const line = (id: string, createdAt: Date) => ({
      id, organizationId: org.id, apiKeyId: null, mode: 'test' as const, method: 'GET', path: '/v1/generations', status: 200,
      errorCode: null, durationMs: 1, ip: null, createdAt: createdAt.getTime(), responseBody: text,
    });
    const [first, second] = [newId('req'), newId('req')];
    // Two batches: the second finds the body stored and moves its lastUsedAt to its own line.
    recordRequest(line(first, created));
    await flushRequestLog();
    recordRequest(line(second, later));
    await flushRequestLog();
    const hash = Buffer.from(requestLogBodyHash(org.id, text), 'hex');
    const bodies = () => db().requestLogBody.findMany({ where: { organizationId: org.id } });
    expect(await bodies()).toEqual([{ hash: new Uint8Array(hash), organizationId: org.id, body: text, lastUsedAt: later }]);
    const lines = await db().requestLog.findMany({ where: { id: { in: [first, second] } }, select: { id: true, responseBodyHash: true }, orderBy: { createdAt: 'asc' } });
    expect(lines).toEqual([{ id: first, responseBodyHash: new Uint8Array(hash) }, { id: second, responseBodyHash: new Uint8Array(hash) }]);

    // 31 days after the first line: it goes, the body stays for the second.
    await maintenance(new Date(created.getTime() + 31 * 24 * 3600_000));
    expect(await db().requestLog.count({ where: { id: first } })).toBe(0);
    expect(await db().requestLog.count({ where: { id: second } })).toBe(1);
    expect(await bodies()).toHaveLength(1);
    // 31 days after the second: both gone.
    await maintenance(new Date(later.getTime() + 31 * 24 * 3600_000));
    expect(await db().requestLog.count({ where: { id: second } })).toBe(0);
    expect(await bodies()).toEqual([]);
  }, CLI_RUNS_TIMEOUT_MS);
});

describe('retention of generative-backend call records', () => {
  it('deletes EngineBackendRun rows older than 13 months and keeps younger ones', async () => {
    const org = await createTestOrg();
    const gen = await insertGeneration({ organizationId: org.id, mode: 'live' });
    // Dated in the past and maintenance run at the real now; the server's own retention job may
    // get there first, which is the same rule.
    const now = new Date();
    const at = (months: number) => {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - months);
      return d;
    };
    const row = (id: string, createdAt: Date) => ({ id, generationId: gen.id, operation: 'render', backend: 'replicate', model: 'm', attempt: 1, outcome: 'succeeded', wallMs: 10, createdAt });
    const oldId = newId('gen');
    const youngId = newId('gen');
    await db().engineBackendRun.createMany({ data: [row(oldId, at(14)), row(youngId, at(12))] });
    await maintenance(now);
    expect(await db().engineBackendRun.count({ where: { id: oldId } })).toBe(0);
    expect(await db().engineBackendRun.count({ where: { id: youngId } })).toBe(1);
  });
});

describe('nothing stays in progress forever', () => {
  it('the sweeper fails and refunds a generation whose worker vanished after starting it', async () => {
    const org = await createTestOrg({ credit: 100 });
    const id = newId('gen');
    const startedAt = new Date(Date.now() - STALE_STARTED_MS - 60_000);
    await transaction(async (tx) => {
      await tx.generation.create({ data: { id, organizationId: org.id, mode: 'live', type: 'upscale', channel: 'v1', input: { scale: 'x2', quality: null }, costAmount: 10, createdAt: startedAt, startedAt } });
      await chargeBalance(tx, org.id, 10, id, 'charge');
    });
    await sweepGenerations();
    const row = await db().generation.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'failed', errorCode: 'generation_failed', amountRefunded: 10 });
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(100);
  });
});

describe('synchronous wait', () => {
  it('answers 202 with the in-progress generation when the wait runs out (the generation continues)', async () => {
    const org = await createTestOrg();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#777' } }).png().toBuffer();
    const parts = new FileParts(new Map([['image', png]]), 'nonce');
    const ctx = {
      caller: { organizationId: org.id, mode: 'test' as const, permissions: new Set(['upscales' as const]), tier: 9, apiKeyId: null },
      channel: 'v1' as const,
      requestId: newId('req'),
      idempotencyKey: null,
      parts,
      receivedAt: Date.now(),
    };
    const result = await createGeneration(ctx, { type: 'upscale', input: { image: parts.reference('image'), scale: 'x2' } }, { waitMs: 200 });
    const gen = result.generation;
    expect(gen.status).toBe('in_progress');
    expect(result.ended).toBe(false);
    expect(result.quota.minute.remaining).toBe(result.quota.minute.limit - 1);
    const deadline = Date.now() + 60_000;
    while ((await db().generation.findUniqueOrThrow({ where: { id: gen.id } })).status === 'in_progress') {
      if (Date.now() > deadline) throw new Error('did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await db().generation.findUniqueOrThrow({ where: { id: gen.id } })).status).toBe('succeeded');
  });
});

describe('retention of uploaded files', () => {
  /** A tool's JSON answer (its first text item) and whether it is a tool error. */
  async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: Record<string, unknown> }> {
    const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
    const text = result.content.find((c) => c.type === 'text') as { text: string } | undefined;
    return { isError: result.isError === true, body: JSON.parse(text?.text ?? 'null') as Record<string, unknown> };
  }

  it('unused files are deleted 1 hour after creation by roomtone maintenance run --now (created and refused through MCP)', async () => {
    const org = await createTestOrg();
    const client = new Client({ name: 'roomtone-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip } } }));
    const upload = (await call(client, 'create_upload')).body as { id: string; upload_url: string };
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#8a7f70' } }).png().toBuffer();
    const put = await fetch(upload.upload_url, { method: 'PUT', body: new Uint8Array(png), headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': ip } });
    expect(put.status).toBe(200);
    const later = await maintenance(new Date(Date.now() + 61 * 60_000));
    expect(later.uploads_deleted).toBeGreaterThanOrEqual(1);
    expect((await db().upload.findUniqueOrThrow({ where: { id: upload.id } })).status).toBe('deleted');
    const refused = await call(client, 'create_upscale', { image: upload.id, scale: 'x2' });
    expect(refused.isError, JSON.stringify(refused.body)).toBe(true);
    expect(refused.body.error).toMatchObject({ code: 'resource_not_found', param: 'image' });
    await client.close();
  }, 90_000);
});
