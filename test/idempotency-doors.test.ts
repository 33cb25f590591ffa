// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Idempotency keys per door (spec, Endpoints: "The same key value used on /v1 and on MCP gives
 * 409 idempotency_key_reused"): the console playground is a door of its own, so a key first used
 * there is refused on /v1 and a key first used on /v1 is refused there, with nothing created or
 * charged; within one door the key still replays the same generation.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { api, createTestOrg, expectErrorShape, testIp, type TestOrg } from './support';
import { createMember, mutate, signedIn } from './console-support';
import { noiseImage, restoreServedFiles, serve } from './images-support';

const ip = testIp();
let image: string;

beforeEach(() => restoreServedFiles());

interface Run {
  generation: { id: string };
}

async function setup(): Promise<{ org: TestOrg; cookie: string }> {
  image ??= serve(await noiseImage(320, 240), 'jpg');
  const org = await createTestOrg();
  const owner = await createMember(org.id, 'owner');
  return { org, cookie: await signedIn(owner.email) };
}

function playground(org: TestOrg, cookie: string, idempotencyKey: string) {
  return mutate<Run>('playground.create', { organizationId: org.id, mode: 'test', kind: 'upscale', body: { image, scale: 'x2' }, idempotencyKey }, cookie);
}

function v1(org: TestOrg, idempotencyKey: string) {
  return api<{ id: string }>('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x2', background: true }, headers: { 'idempotency-key': idempotencyKey } });
}

async function generationsOf(org: TestOrg): Promise<number> {
  return db().generation.count({ where: { organizationId: org.id } });
}

describe('idempotency keys: the console playground is its own door', () => {
  it('a key first used in the playground answers 409 idempotency_key_reused on /v1, creating and charging nothing', async () => {
    const { org, cookie } = await setup();
    const key = `pg-${newId('req')}`;
    const first = await playground(org, cookie, key);
    expect(first.error).toBeNull();
    const balance = (await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents;

    const res = await v1(org, key);
    expect(res.status).toBe(409);
    expectErrorShape(res.body);
    expect(res.body.error.code).toBe('idempotency_key_reused');
    expect(res.body.error.param).toBeUndefined();
    expect(res.body.error.message).toContain('console playground');
    expect(await generationsOf(org)).toBe(1);
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(balance);
  });

  it('a key first used on /v1 answers 409 idempotency_key_reused in the playground', async () => {
    const { org, cookie } = await setup();
    const key = `v1-${newId('req')}`;
    expect((await v1(org, key)).status).toBe(202);

    const res = await playground(org, cookie, key);
    expect(res.httpStatus).toBe(409);
    expect(res.error).toMatchObject({ code: 'idempotency_key_reused' });
    expect(res.error?.param).toBeUndefined();
    expect(res.error?.message).toContain('/v1');
    expect(await generationsOf(org)).toBe(1);
  });

  it('the same key again in the playground replays the same generation', async () => {
    const { org, cookie } = await setup();
    const key = `pg-${newId('req')}`;
    const first = await playground(org, cookie, key);
    const again = await playground(org, cookie, key);
    expect(again.error).toBeNull();
    expect(again.data.generation.id).toBe(first.data.generation.id);
    expect(await generationsOf(org)).toBe(1);
  });
});
