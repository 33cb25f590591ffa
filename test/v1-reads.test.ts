// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in hostile-input, v1-edge and minimal-requests
/**
 * GET /v1/generations/{id} and GET /v1/generations are served by http/v1-reads.ts without the
 * tRPC layers. For every kind of request (valid, filtered, paginated, malformed, unknown,
 * foreign, without the permission) it must answer what the procedure behind trpc-to-openapi
 * answers: the same status and the same body (output URLs aside: they are signed per read).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { callerFromKey, type Caller } from '@/server/access/caller';
import { directRead } from '@/server/http/v1-reads';
import { hashSecret, newSecret, type AuthenticatedKey } from '@/server/keys/keys';
import { sql } from '@/server/platform/db';
import { callOpenApi } from '@/server/http/openapi-adapter';
import { FileParts } from '@/server/creations/images';
import { apiErrorFromUnknown } from '@/server/trpc/errors';
import { apiGenerationSchema, listSchema } from '@/server/generations/schemas';
import type { Permission } from '@/shared/keys/permissions';
import { PERMISSIONS } from '@/shared/keys/permissions';
import { createTestOrg, type TestOrg } from './support';
import { insertGeneration } from './fixtures';

interface Answer {
  status: number;
  body: unknown;
}

const unsigned = (body: unknown): unknown => JSON.parse(JSON.stringify(body, (k, v: unknown) => (k === 'url' || k === 'url_expires_at' ? '<signed>' : v)));

async function viaAdapter(path: string, caller: Caller): Promise<Answer> {
  const url = new URL(`http://roomtone.test${path}`);
  const result = await callOpenApi(new Request(url), url, undefined, {
    caller,
    channel: 'v1',
    requestId: 'req_test',
    response: { headers: {} },
    parts: new FileParts(new Map(), 'nonce'),
    idempotencyKey: null,
    receivedAt: Date.now(),
    creationWaitMs: 0,
  });
  if (result.status >= 400 || result.failure) {
    const error = apiErrorFromUnknown(result.failure);
    return { status: error.status, body: error.toBody() };
  }
  return { status: result.status, body: unsigned(JSON.parse(result.body)) };
}

async function viaDirectRead(path: string, caller: Caller, key: AuthenticatedKey, ip: string | null = '198.51.100.1'): Promise<Answer> {
  const read = directRead(new URL(`http://roomtone.test${path}`));
  if (!read) throw new Error(`${path} is not served directly`);
  try {
    return { status: 200, body: unsigned(await read(caller, key, ip)) };
  } catch (error) {
    const apiError = apiErrorFromUnknown(error);
    return { status: apiError.status, body: apiError.toBody() };
  }
}

describe('generation reads without the tRPC layers answer as the procedures do', () => {
  let org: TestOrg;
  let caller: Caller;
  let key: AuthenticatedKey;
  let ids: string[] = [];
  let foreign: string;

  beforeAll(async () => {
    org = await createTestOrg();
    const other = await createTestOrg();
    key = { keyId: org.keyIds.test, organizationId: org.id, mode: 'test', permissions: new Set(PERMISSIONS), tier: 1, allowedIps: [], requestsPerMinute: null };
    caller = callerFromKey(key);
    ids = [];
    for (let i = 0; i < 7; i++) {
      const status = (['succeeded', 'failed', 'canceled', 'in_progress'] as const)[i % 4];
      const g = await insertGeneration({ organizationId: org.id, mode: 'test', type: i % 2 ? 'render' : 'upscale', status, withOutput: status === 'succeeded', metadata: i % 3 ? { order: `o${i}` } : {} });
      ids.push(g.id);
    }
    foreign = (await insertGeneration({ organizationId: other.id, mode: 'test' })).id;
  });

  const paths = () => [
    ...ids.map((id) => `/v1/generations/${id}`),
    `/v1/generations/${foreign}`,
    '/v1/generations/gen_doesnotexist',
    '/v1/generations/not-a-generation-id',
    '/v1/generations/gen_%41bc',
    `/v1/generations/${ids[0]}?expand=output`,
    '/v1/generations',
    '/v1/generations?limit=2',
    `/v1/generations?limit=3&after=${ids[5]}`,
    '/v1/generations?type=render&status=failed',
    '/v1/generations?status=succeeded',
    '/v1/generations?limit=0',
    '/v1/generations?limit=101',
    '/v1/generations?limit=abc',
    '/v1/generations?after=gen_unknown',
    '/v1/generations?after=nope',
    '/v1/generations?type=sketch',
    '/v1/generations?colour=blue',
    `/v1/generations?after=${foreign}`,
  ];

  it('the same status and body for every request', async () => {
    for (const path of paths()) {
      const [direct, adapter] = await Promise.all([viaDirectRead(path, caller, key), viaAdapter(path, caller)]);
      expect({ path, ...direct }).toStrictEqual({ path, ...adapter });
    }
  });

  it('a key the cache served without its revocation barrier: the same answers while it is unrevoked', async () => {
    const unchecked = { ...key, revocationUnchecked: true };
    for (const path of paths()) {
      const [direct, adapter] = await Promise.all([viaDirectRead(path, caller, unchecked), viaAdapter(path, caller)]);
      expect({ path, ...direct }).toStrictEqual({ path, ...adapter });
    }
  });

  it('a key the cache served without its revocation barrier, revoked since: 401 on every path, found, missing, empty or malformed', async () => {
    const revokedOrg = await createTestOrg();
    const revokedKey: AuthenticatedKey = { keyId: revokedOrg.keyIds.test, organizationId: revokedOrg.id, mode: 'test', permissions: new Set(PERMISSIONS), tier: 1, allowedIps: [], requestsPerMinute: null };
    const one = (await insertGeneration({ organizationId: revokedOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    // Revoked in the database only, with no notice: the read's own query must see it.
    await sql('update "ApiKey" set "revokedAt" = now() where id = $1', [revokedKey.keyId]);
    const revokedCaller = callerFromKey(revokedKey);
    const noPermission = { ...revokedCaller, permissions: new Set<Permission>() };
    const answers = await Promise.all([
      ...[`/v1/generations/${one}`, '/v1/generations', '/v1/generations?status=canceled', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'].map((path) =>
        viaDirectRead(path, revokedCaller, { ...revokedKey, revocationUnchecked: true }),
      ),
      viaDirectRead('/v1/generations', noPermission, { ...revokedKey, revocationUnchecked: true }),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
    // Without the flag the key is taken as checked (the barrier's way): the read answers.
    expect((await viaDirectRead(`/v1/generations/${one}`, revokedCaller, revokedKey)).status).toBe(200);
  });

  it('a secret the cache served without its barrier, dropped since by a roll: 401 on every path; the key’s other secrets still read', async () => {
    const rolledOrg = await createTestOrg();
    const rolledKey: AuthenticatedKey = { keyId: rolledOrg.keyIds.test, organizationId: rolledOrg.id, mode: 'test', permissions: new Set(PERMISSIONS), tier: 1, allowedIps: [], requestsPerMinute: null };
    const one = (await insertGeneration({ organizationId: rolledOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    const rolledCaller = callerFromKey(rolledKey);
    const oldSecret = { ...rolledKey, revocationUnchecked: true, secretHash: hashSecret(rolledOrg.testKey) };
    expect((await viaDirectRead(`/v1/generations/${one}`, rolledCaller, oldSecret)).status).toBe(200);
    // Rolled with no overlap in the database only, with no notice: the read's own query must see the old secret gone.
    const fresh = newSecret('test');
    await sql('update "ApiKey" set "secretHash" = $2, "previousSecretHash" = null, "previousSecretExpiresAt" = null where id = $1', [rolledKey.keyId, fresh.secretHash]);
    const answers = await Promise.all(
      [`/v1/generations/${one}`, '/v1/generations', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'].map((path) => viaDirectRead(path, rolledCaller, oldSecret)),
    );
    for (const answer of answers) expect(answer).toMatchObject({ status: 401, body: { error: { code: 'api_key_invalid' } } });
    expect((await viaDirectRead(`/v1/generations/${one}`, rolledCaller, { ...oldSecret, secretHash: fresh.secretHash })).status).toBe(200);
    // Kept as the previous secret of a roll with an overlap: it still reads.
    await sql('update "ApiKey" set "previousSecretHash" = $2, "previousSecretExpiresAt" = now() + interval \'1 hour\' where id = $1', [rolledKey.keyId, oldSecret.secretHash]);
    expect((await viaDirectRead(`/v1/generations/${one}`, rolledCaller, oldSecret)).status).toBe(200);
  });

  it('a key the cache served without an allowlist, given one since: judged on the address on every path; inside it, the same answers', async () => {
    const fencedOrg = await createTestOrg();
    const fencedKey: AuthenticatedKey = { keyId: fencedOrg.keyIds.test, organizationId: fencedOrg.id, mode: 'test', permissions: new Set(PERMISSIONS), tier: 1, allowedIps: [], requestsPerMinute: null, revocationUnchecked: true };
    const one = (await insertGeneration({ organizationId: fencedOrg.id, mode: 'test', status: 'succeeded', withOutput: true })).id;
    // Set in the database only, with no notice: the read's own query must see it.
    await sql(`update "ApiKey" set "allowedIps" = '{192.0.2.0/24}' where id = $1`, [fencedKey.keyId]);
    const fencedCaller = callerFromKey(fencedKey);
    const paths = [`/v1/generations/${one}`, '/v1/generations', '/v1/generations?status=canceled', '/v1/generations/gen_doesnotexist', '/v1/generations?limit=abc'];
    const outside = await Promise.all(paths.map((path) => viaDirectRead(path, fencedCaller, fencedKey, '198.51.100.1')));
    for (const answer of outside) expect(answer).toMatchObject({ status: 403, body: { error: { code: 'api_key_ip_not_allowed' } } });
    for (const path of paths) {
      const [inside, adapter] = await Promise.all([viaDirectRead(path, fencedCaller, fencedKey, '192.0.2.77'), viaAdapter(path, fencedCaller)]);
      expect({ path, ...inside }).toStrictEqual({ path, ...adapter });
    }
    expect((await viaDirectRead(`/v1/generations/${one}`, fencedCaller, fencedKey, '192.0.2.77')).status).toBe(200);
  });

  it('a key without generations_read: the same 403 on both paths', async () => {
    const limited = { ...caller, permissions: new Set<Permission>(PERMISSIONS.filter((p) => p !== 'generations_read')) };
    for (const path of [`/v1/generations/${ids[0]}`, '/v1/generations', '/v1/generations?limit=nope']) {
      const [direct, adapter] = await Promise.all([viaDirectRead(path, limited, key), viaAdapter(path, limited)]);
      expect(direct.status).toBe(403);
      expect(direct).toStrictEqual(adapter);
    }
  });

  it('what is served directly matches the routes\' output schemas (the adapter validates them, this path does not)', async () => {
    let checked = 0;
    for (const path of paths()) {
      const body = await directRead(new URL(`http://roomtone.test${path}`))?.(caller, key, null).catch(() => null);
      if (!body) continue;
      const schema = path.startsWith('/v1/generations?') || path === '/v1/generations' ? listSchema(apiGenerationSchema, 'GenerationList') : apiGenerationSchema;
      expect(schema.parse(body)).toStrictEqual(body);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('requests outside the canonical form are left to the adapter', () => {
    for (const path of ['/v1/generations?limit=1&limit=2', '/v1/generations/', '/v1/Generations/gen_x', '/v1/generations/gen_x/cancel', '/v1/styles']) {
      expect(directRead(new URL(`http://roomtone.test${path}`))).toBeNull();
    }
  });
});
