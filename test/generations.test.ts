// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it, beforeAll } from 'vitest';
import { api, createKey, createTestOrg, expectErrorShape, testIp, type TestOrg } from './support';
import { insertGeneration } from './fixtures';
import { db } from '@/server/platform/db';
import { ledgerSum } from '@/server/capabilities/billing/ledger';

const ip = testIp();

describe('GET /v1/generations/{id}', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg({ credit: 1_000 });
  });

  it('answers the generation object exactly as the spec describes it', async () => {
    const gen = await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded', withOutput: true, metadata: { order: '42' } });
    const res = await api(`/v1/generations/${gen.id}`, { key: org.testKey, ip });
    expect(res.status).toBe(200);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const body = res.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ['object', 'id', 'type', 'status', 'progress', 'cancelable', 'livemode', 'created_at', 'completed_at', 'input', 'output', 'error', 'cost', 'metadata', 'expires_at'].sort(),
    );
    expect(body).toMatchObject({
      object: 'generation',
      id: gen.id,
      type: 'upscale',
      status: 'succeeded',
      progress: 1,
      cancelable: false,
      livemode: false,
      error: null,
      metadata: { order: '42' },
      input: { quality: null, scale: 'x2' },
      cost: { amount: 10, currency: 'eur', unit: 'cents', discount_percent: 0, amount_refunded: 0 },
    });
    expect(body.created_at).toBe(Math.floor(gen.createdAt.getTime() / 1000));
    expect(body.expires_at).toBe((body.completed_at as number) + 24 * 3600);
    const output = (body.output as { url: string; url_expires_at: number; content_type: string; width: number; height: number }[])[0]!;
    expect(output.content_type).toBe('image/webp');
    expect([output.width, output.height]).toEqual([64, 48]);
    const now = Math.floor(Date.now() / 1000);
    expect(output.url_expires_at).toBeGreaterThanOrEqual(now + 15 * 60 - 5);
    expect(output.url_expires_at).toBeLessThanOrEqual(now + 15 * 60 + 5);

    // The signed URL is readable without a key; a tampered one is not.
    const image = await fetch(output.url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const tampered = await fetch(output.url.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(tampered.status).toBe(403);
    const expired = await fetch(output.url.replace(/expires=\d+/, `expires=${now - 10}`));
    expect(expired.status).toBe(403);
  });

  it('progress: 0 while queued, the stored fraction (or null) once started, null once failed or canceled', async () => {
    const read = async (id: string) => ((await api(`/v1/generations/${id}`, { key: org.testKey, ip })).body as { progress: unknown }).progress;
    const queued = await insertGeneration({ organizationId: org.id, mode: 'test' });
    expect(await read(queued.id)).toBe(0);
    await db().generation.update({ where: { id: queued.id }, data: { startedAt: new Date() } });
    expect(await read(queued.id)).toBeNull();
    await db().generation.update({ where: { id: queued.id }, data: { progress: 0.42, progressStage: 'generating' } });
    expect(await read(queued.id)).toBe(0.42);
    const list = await api(`/v1/generations?status=in_progress&limit=100`, { key: org.testKey, ip });
    expect((list.body as { data: { id: string; progress: unknown }[] }).data.find((g) => g.id === queued.id)?.progress).toBe(0.42);
    const failed = await insertGeneration({ organizationId: org.id, mode: 'test', status: 'failed' });
    expect(await read(failed.id)).toBeNull();
  });

  it('is visible only to keys of its organization and mode (404 resource_not_found otherwise)', async () => {
    const gen = await insertGeneration({ organizationId: org.id, mode: 'live' });
    expect((await api(`/v1/generations/${gen.id}`, { key: org.liveKey, ip })).status).toBe(200);
    const otherMode = await api(`/v1/generations/${gen.id}`, { key: org.testKey, ip });
    expect(otherMode.status).toBe(404);
    expectErrorShape(otherMode.body);
    expect(otherMode.body.error.code).toBe('resource_not_found');
    const other = await createTestOrg();
    const otherOrg = await api(`/v1/generations/${gen.id}`, { key: other.liveKey, ip });
    expect(otherOrg.status).toBe(404);
    expect((otherOrg.body as { error: { code: string } }).error.code).toBe('resource_not_found');
    const unknown = await api('/v1/generations/gen_doesnotexist000000000000', { key: org.liveKey, ip });
    expect(unknown.status).toBe(404);
  });

  it.each(['not-an-id', 'mat_oak_herringbone', 'gen_', `gen_${'x'.repeat(300)}`, '%C3%A9'])('an id that is not a generation id (%s) is an unknown generation: 404 resource_not_found', async (id) => {
    const read = await api(`/v1/generations/${id}`, { key: org.testKey, ip });
    expect(read.status).toBe(404);
    expectErrorShape(read.body);
    expect(read.body.error.code).toBe('resource_not_found');
    const cancel = await api(`/v1/generations/${id}/cancel`, { key: org.testKey, ip, method: 'POST' });
    expect(cancel.status).toBe(404);
    expectErrorShape(cancel.body);
    expect(cancel.body.error.code).toBe('resource_not_found');
  });

  it('needs generations_read (403 permission_denied)', async () => {
    const gen = await insertGeneration({ organizationId: org.id, mode: 'test' });
    const key = await createKey(org.id, 'test', ['renders']);
    const res = await api(`/v1/generations/${gen.id}`, { key, ip });
    expect(res.status).toBe(403);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('permission_denied');
  });
});

describe('GET /v1/generations', () => {
  let org: TestOrg;
  const ids: string[] = [];
  beforeAll(async () => {
    org = await createTestOrg();
    for (let i = 0; i < 7; i++) {
      const g = await insertGeneration({
        organizationId: org.id,
        mode: 'test',
        type: i % 2 === 0 ? 'upscale' : 'render',
        status: i % 3 === 0 ? 'succeeded' : 'in_progress',
      });
      ids.push(g.id);
    }
    await insertGeneration({ organizationId: org.id, mode: 'live' });
  });

  it('lists most recent first, paginates with after and has_more, and stays in its mode', async () => {
    const first = await api<{ object: string; data: { id: string }[]; has_more: boolean }>('/v1/generations?limit=3', { key: org.testKey, ip });
    expect(first.status).toBe(200);
    expect(first.body.object).toBe('list');
    expect(first.body.data.map((g) => g.id)).toEqual([...ids].reverse().slice(0, 3));
    expect(first.body.has_more).toBe(true);
    const seen = [...first.body.data.map((g) => g.id)];
    let after = seen.at(-1)!;
    for (;;) {
      const page = await api<{ data: { id: string }[]; has_more: boolean }>(`/v1/generations?limit=3&after=${after}`, { key: org.testKey, ip });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((g) => g.id));
      if (!page.body.has_more) break;
      after = page.body.data.at(-1)!.id;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('defaults to 20 and filters by type and status', async () => {
    const all = await api<{ data: { id: string; type: string; status: string }[] }>('/v1/generations', { key: org.testKey, ip });
    expect(all.body.data).toHaveLength(7);
    const renders = await api<{ data: { type: string }[] }>('/v1/generations?type=render', { key: org.testKey, ip });
    expect(renders.body.data).toHaveLength(3);
    expect(renders.body.data.every((g) => g.type === 'render')).toBe(true);
    const done = await api<{ data: { status: string }[] }>('/v1/generations?status=succeeded', { key: org.testKey, ip });
    expect(done.body.data).toHaveLength(3);
    expect(done.body.data.every((g) => g.status === 'succeeded')).toBe(true);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['after=gen_unknown123', 'after'],
    ['after=bogus', 'after'],
    ['type=painting', 'type'],
    ['status=done', 'status'],
    ['color=red', 'color'],
  ])('refuses ?%s with 400 parameter_invalid param %s', async (query, param) => {
    const res = await api(`/v1/generations?${query}`, { key: org.testKey, ip });
    expect(res.status).toBe(400);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('parameter_invalid');
    expect(res.body.error.param).toBe(param);
  });

  it('refuses an after id from another mode as unlisted', async () => {
    const live = await insertGeneration({ organizationId: org.id, mode: 'live' });
    const res = await api(`/v1/generations?after=${live.id}`, { key: org.testKey, ip });
    expect(res.status).toBe(400);
    expect((res.body as { error: { param: string } }).error.param).toBe('after');
  });
});

describe('POST /v1/generations/{id}/cancel', () => {
  it('cancels a live generation that has not started: 200 canceled, refunded through the ledger', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const gen = await insertGeneration({ organizationId: org.id, mode: 'live', type: 'edit', costAmount: 25 });
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(975);
    const res = await api(`/v1/generations/${gen.id}/cancel`, { key: org.liveKey, method: 'POST', ip });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: gen.id, status: 'canceled', cancelable: false, cost: { amount: 25, amount_refunded: 25 } });
    expect(typeof res.body.completed_at).toBe('number');
    const orgRow = await db().organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(orgRow.balanceCents).toBe(1_000);
    expect(await ledgerSum(db(), org.id)).toBe(orgRow.balanceCents);
    const rows = await db().balanceTransaction.findMany({ where: { generationId: gen.id }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['charge', -25],
      ['refund', 25],
    ]);

    // A second cancel: final state, 409, no second refund.
    const again = await api(`/v1/generations/${gen.id}/cancel`, { key: org.liveKey, method: 'POST', ip });
    expect(again.status).toBe(409);
    expect((again.body as { error: { code: string } }).error.code).toBe('generation_not_cancelable');
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(1_000);
  });

  it('answers 409 generation_not_cancelable once processing started or ended', async () => {
    const org = await createTestOrg();
    for (const options of [{ started: true }, { status: 'succeeded' as const }, { status: 'failed' as const }]) {
      const gen = await insertGeneration({ organizationId: org.id, mode: 'test', ...options });
      const res = await api(`/v1/generations/${gen.id}/cancel`, { key: org.testKey, method: 'POST', ip });
      expect(res.status).toBe(409);
      expectErrorShape(res.body);
      expect(res.body.error.code).toBe('generation_not_cancelable');
    }
  });

  it('test mode: canceled without any ledger row; amount_refunded equals amount', async () => {
    const org = await createTestOrg();
    const gen = await insertGeneration({ organizationId: org.id, mode: 'test', costAmount: 30 });
    const res = await api(`/v1/generations/${gen.id}/cancel`, { key: org.testKey, method: 'POST', ip, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'canceled', cost: { amount: 30, amount_refunded: 30 } });
    expect(await db().balanceTransaction.count({ where: { generationId: gen.id } })).toBe(0);
  });

  it('needs generations_read and the permission of the generation type', async () => {
    const org = await createTestOrg();
    const gen = await insertGeneration({ organizationId: org.id, mode: 'test', type: 'edit' });
    const readOnly = await createKey(org.id, 'test', ['generations_read', 'renders']);
    const noRead = await createKey(org.id, 'test', ['edits']);
    for (const key of [readOnly, noRead]) {
      const res = await api(`/v1/generations/${gen.id}/cancel`, { key, method: 'POST', ip });
      expect(res.status).toBe(403);
      expect((res.body as { error: { code: string } }).error.code).toBe('permission_denied');
    }
    const ok = await createKey(org.id, 'test', ['generations_read', 'edits']);
    expect((await api(`/v1/generations/${gen.id}/cancel`, { key: ok, method: 'POST', ip })).status).toBe(200);
  });

  it('refuses a body with unknown fields and a foreign generation', async () => {
    const org = await createTestOrg();
    const gen = await insertGeneration({ organizationId: org.id, mode: 'test' });
    const extra = await api(`/v1/generations/${gen.id}/cancel`, { key: org.testKey, method: 'POST', ip, body: { reason: 'x' } });
    expect(extra.status).toBe(400);
    expect((extra.body as { error: { code: string; param: string } }).error).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    const other = await createTestOrg();
    const foreign = await api(`/v1/generations/${gen.id}/cancel`, { key: other.testKey, method: 'POST', ip });
    expect(foreign.status).toBe(404);
  });
});
