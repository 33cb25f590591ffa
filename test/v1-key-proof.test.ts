// @node-lines same: our key-proof rules through the /v1 adapter, called in process; the HTTP edge runs under both lines in test/hostile-input.test.ts
/**
 * The /v1 reads whose procedures prove the calling key unrevoked in their own query
 * (GET /v1/generations/{id}, GET /v1/generations: meta `provesKey`), run through the one /v1
 * adapter (http/v1-operations.ts) with a key the cache served without its revocation barrier:
 * the same answers as with a checked key while it is unrevoked, 401 on every path once it is
 * revoked, the allowlist judged once one is set; and an operation that does not prove the key
 * is never run with such a key. Their answers, which the adapter does not parse again (meta
 * `outputSerialized`), equal their output schema's parse.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { callerFromKey } from '@/server/capabilities/access/caller';
import { authenticateBearer, createApiKey, hashSecret, newSecret, type AuthenticatedKey } from '@/server/capabilities/keys/keys';
import { announceKeyChange, cachedKeyUnchecked } from '@/server/capabilities/keys/cache';
import { clock } from '@/server/platform/clock';
import { waitFor } from './server-processes';
import { db, sql, sqlTimestamp } from '@/server/platform/db';
import { FileParts } from '@/server/capabilities/creations/images';
import { apiErrorFromUnknown } from '@/server/doors/errors';
import { findOperation, queryInput, runOperation } from '@/server/doors/http/v1-operations';
import type { TrpcContext } from '@/server/doors/trpc/context';
import { PERMISSIONS, type Permission } from '@/shared/keys/permissions';
import { apiGenerationSchema, listSchema } from '@/server/capabilities/generations/schemas';
import { createTestOrg } from './support';
import { insertGeneration } from './fixtures';

interface Answer {
  status: number;
  body: unknown;
}

const unsigned = (body: unknown): unknown => JSON.parse(JSON.stringify(body, (k, v: unknown) => (k === 'url' || k === 'url_expires_at' ? '<signed>' : v)));

function keyOf(org: { id: string; keyIds: { test: string } }, extra: Partial<AuthenticatedKey> = {}): AuthenticatedKey {
  return { keyId: org.keyIds.test, organizationId: org.id, mode: 'test', permissions: new Set(PERMISSIONS), tier: 1, allowedIps: [], requestsPerMinute: null, ...extra };
}

async function read(path: string, key: AuthenticatedKey, ip: string | null = '198.51.100.1', permissions?: Set<Permission>): Promise<Answer> {
  const url = new URL(`http://roomtone.test${path}`);
  const found = findOperation('GET', url.pathname);
  if (!found) throw new Error(`no operation for ${path}`);
  const ctx: TrpcContext = {
    caller: { ...callerFromKey(key), ...(permissions ? { permissions } : {}) },
    channel: 'v1',
    requestId: 'req_test',
    response: { headers: {} },
    parts: new FileParts(new Map(), 'nonce'),
    idempotencyKey: null,
    receivedAt: Date.now(),
    creationWaitMs: 0,
  };
  try {
    return { status: 200, body: unsigned(await runOperation(found, ctx, queryInput(url.searchParams), key, ip)) };
  } catch (error) {
    const apiError = apiErrorFromUnknown(error);
    return { status: apiError.status, body: apiError.toBody() };
  }
}

describe('reads that prove their key, through the one /v1 adapter', () => {
  let org: Awaited<ReturnType<typeof createTestOrg>>;
  let ids: string[] = [];
  let foreign: string;

  beforeAll(async () => {
    org = await createTestOrg();
    const other = await createTestOrg();
    ids = [];
    for (let i = 0; i < 5; i++) {
      const status = (['succeeded', 'failed', 'canceled', 'in_progress'] as const)[i % 4];
      ids.push((await insertGeneration({ organizationId: org.id, mode: 'test', type: i % 2 ? 'render' : 'upscale', status, withOutput: status === 'succeeded' })).id);
    }
    foreign = (await insertGeneration({ organizationId: other.id, mode: 'test' })).id;
  });

  const paths = () => [
    ...ids.map((id) => `/v1/generations/${id}`),
    `/v1/generations/${foreign}`,
    '/v1/generations/gen_doesnotexist',
    '/v1/generations/gen_%41bc',
    `/v1/generations/${ids[0]}?expand=output`,
    '/v1/generations',
    '/v1/generations/',
    '/v1/generations?limit=2',
    `/v1/generations?limit=2&after=${ids[3]}`,
    '/v1/generations?type=render&status=failed',
    '/v1/generations?limit=0',
    '/v1/generations?limit=1&limit=2',
    '/v1/generations?after=nope',
    '/v1/generations?colour=blue',
    `/v1/generations?after=${foreign}`,
  ];

  it('an unrevoked key served without the barrier: the answers of a checked key, on every request form', async () => {
    const statuses = new Set<number>();
    for (const path of paths()) {
      const [unchecked, checked] = await Promise.all([read(path, keyOf(org, { revocationUnchecked: true })), read(path, keyOf(org))]);
      expect({ path, ...unchecked }).toStrictEqual({ path, ...checked });
      statuses.add(checked.status);
    }
    expect([...statuses].sort()).toEqual([200, 400, 404]);
  });

  it('revoked since (in the database only, no notice): 401 on every path, found, missing, empty, malformed or forbidden', async () => {
    const revokedOrg = await createTestOrg();
    const one = (await insertGeneration({ organizationId: revokedOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    await sql('update "ApiKey" set "revokedAt" = now() where id = $1', [revokedOrg.keyIds.test]);
    const unchecked = keyOf(revokedOrg, { revocationUnchecked: true });
    const answers = await Promise.all([
      ...[`/v1/generations/${one}`, '/v1/generations', '/v1/generations?status=canceled', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'].map((path) => read(path, unchecked)),
      read('/v1/generations', unchecked, '198.51.100.1', new Set<Permission>()),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
    // Without the flag the key is taken as checked (the barrier's way): the read answers.
    expect((await read(`/v1/generations/${one}`, keyOf(revokedOrg))).status).toBe(200);
  });

  it('a secret the cache served without its barrier, dropped since by a roll (no notice): 401 on every path; the key\'s other secrets still read', async () => {
    const rolledOrg = await createTestOrg();
    const one = (await insertGeneration({ organizationId: rolledOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    const oldSecret = keyOf(rolledOrg, { revocationUnchecked: true, secretHash: hashSecret(rolledOrg.testKey) });
    expect((await read(`/v1/generations/${one}`, oldSecret)).status).toBe(200);
    // Rolled with no overlap in the database only: the read's own query must see the old secret gone.
    const fresh = newSecret('test');
    await sql('update "ApiKey" set "secretHash" = $2, "previousSecretHash" = null, "previousSecretExpiresAt" = null where id = $1', [rolledOrg.keyIds.test, fresh.secretHash]);
    const answers = await Promise.all(
      [`/v1/generations/${one}`, '/v1/generations', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'].map((path) => read(path, oldSecret)),
    );
    for (const answer of answers) expect(answer).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
    expect((await read(`/v1/generations/${one}`, { ...oldSecret, secretHash: fresh.secretHash })).status).toBe(200);
    // Kept as the previous secret of a roll with an overlap: it still reads.
    await sql(`update "ApiKey" set "previousSecretHash" = $2, "previousSecretExpiresAt" = now() + interval '1 hour' where id = $1`, [rolledOrg.keyIds.test, oldSecret.secretHash]);
    expect((await read(`/v1/generations/${one}`, oldSecret)).status).toBe(200);
  });

  it('expired since, or its overlap ended since (in the database only, no notice): 401 on every path; given a new expiry, it reads again', async () => {
    const expiringOrg = await createTestOrg();
    const one = (await insertGeneration({ organizationId: expiringOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    const current = keyOf(expiringOrg, { revocationUnchecked: true, secretHash: hashSecret(expiringOrg.testKey) });
    const paths = [`/v1/generations/${one}`, '/v1/generations', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'];
    const expectRefused = async (key: AuthenticatedKey, message: RegExp) => {
      for (const answer of await Promise.all(paths.map((path) => read(path, key)))) {
        expect(answer).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid', message: expect.stringMatching(message) } } });
      }
    };
    expect((await read(`/v1/generations/${one}`, current)).status).toBe(200);
    await sql('update "ApiKey" set "expiresAt" = $2::timestamp(3) where id = $1', [expiringOrg.keyIds.test, sqlTimestamp(new Date(clock.nowMs() - 1_000))]);
    await expectRefused(current, /expired/);
    await sql('update "ApiKey" set "expiresAt" = $2::timestamp(3) where id = $1', [expiringOrg.keyIds.test, sqlTimestamp(new Date(clock.nowMs() + 86_400_000))]);
    expect((await read(`/v1/generations/${one}`, current)).status).toBe(200);

    // The secret a roll replaced, kept for an overlap that has ended since.
    const fresh = newSecret('test');
    await sql('update "ApiKey" set "secretHash" = $2, "previousSecretHash" = $3, "previousSecretExpiresAt" = $4::timestamp(3) where id = $1', [
      expiringOrg.keyIds.test,
      fresh.secretHash,
      current.secretHash,
      sqlTimestamp(new Date(clock.nowMs() - 1_000)),
    ]);
    await expectRefused(current, /overlap has ended/);
    expect((await read(`/v1/generations/${one}`, { ...current, secretHash: fresh.secretHash })).status).toBe(200);
  });

  it('given an allowlist since: judged on the address on every path; inside it, the answers of a checked key', async () => {
    const fencedOrg = await createTestOrg();
    const one = (await insertGeneration({ organizationId: fencedOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    await sql(`update "ApiKey" set "allowedIps" = '{192.0.2.0/24}' where id = $1`, [fencedOrg.keyIds.test]);
    const unchecked = keyOf(fencedOrg, { revocationUnchecked: true });
    const list = [`/v1/generations/${one}`, '/v1/generations', '/v1/generations?status=canceled', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'];
    for (const answer of await Promise.all(list.map((path) => read(path, unchecked, '198.51.100.1')))) {
      expect(answer).toMatchObject({ status: 403, body: { error: { code: 'api_key_ip_not_allowed' } } });
    }
    for (const path of list) {
      const [inside, checked] = await Promise.all([read(path, unchecked, '192.0.2.77'), read(path, keyOf(fencedOrg), '192.0.2.77')]);
      expect({ path, ...inside }).toStrictEqual({ path, ...checked });
    }
    expect((await read(`/v1/generations/${one}`, unchecked, '192.0.2.77')).status).toBe(200);
  });

  it('what the generation reads answer unparsed (meta outputSerialized) equals their output schema\'s parse', async () => {
    let checked = 0;
    for (const path of paths()) {
      const url = new URL(`http://roomtone.test${path}`);
      const found = findOperation('GET', url.pathname)!;
      expect(found.operation.meta.outputSerialized).toBe(true);
      const ctx: TrpcContext = { caller: callerFromKey(keyOf(org)), channel: 'v1', requestId: 'req_test', response: { headers: {} }, parts: new FileParts(new Map(), 'nonce'), idempotencyKey: null, receivedAt: Date.now(), creationWaitMs: 0 };
      const body = await runOperation(found, ctx, queryInput(url.searchParams), keyOf(org), null).catch(() => null);
      if (!body) continue;
      const schema = url.pathname.replace(/\/$/, '') === '/v1/generations' ? listSchema(apiGenerationSchema, 'GenerationList') : apiGenerationSchema;
      expect(schema.parse(body)).toStrictEqual(body);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(8);
  });

  it('an operation that does not prove the key refuses to run with a key taken without the barrier', async () => {
    const answer = await read('/v1/styles', keyOf(org, { revocationUnchecked: true }));
    expect(answer).toMatchObject({ status: 500, body: { error: { code: 'internal_error' } } });
    expect((await read('/v1/styles', keyOf(org))).status).toBe(200);
  });
});

describe('a key the cache holds as refused by the clock', () => {
  it('is looked up again behind the barrier when a read proves its own key: given a new expiry, it answers at once', async () => {
    const org = await createTestOrg();
    const key = await createApiKey(db(), { organizationId: org.id, mode: 'test', expiresAt: new Date(clock.nowMs() - 1_000) });
    const hash = hashSecret(key.secret);
    const authorization = `Bearer ${key.secret}`;
    const authenticate = () => authenticateBearer(db(), authorization, { revocationCheckedByCaller: true }).then(() => 200, (error: unknown) => apiErrorFromUnknown(error).status);
    // Until the cache follows the key notices and holds this key's row (expired), as a web
    // process does after the first refused request.
    await waitFor('the expired key in the cache', async () => (await authenticate()) === 401 && cachedKeyUnchecked(hash) !== null, 10_000);
    await db().$transaction(async (tx) => {
      await tx.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(clock.nowMs() + 365 * 86_400_000) } });
      await announceKeyChange(tx, hash);
    });
    // At once: the cached copy says expired, but the change that lifted it committed first.
    expect(await authenticate()).toBe(200);
  });
});
