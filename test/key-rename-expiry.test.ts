// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
/**
 * API keys from the console: an optional expiry (after it the key answers 401 api_key_invalid,
 * on every process, cached or not) and renaming (developers only their own keys; another
 * organization's keys are not found).
 */
import { describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { PERMISSIONS } from '@/shared/keys/permissions';
import { api, createTestOrg, testIp } from './support';
import { createMember, mutate, query, signedIn } from './console-support';
import { waitFor } from './server-processes';

const ip = testIp();

describe('key expiry', () => {
  it('a key created with a lifetime carries its expiry; it works until then', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const cookie = await signedIn(owner.email);
    const created = await mutate<{ id: string; secret: string }>('keys.create', { organizationId: org.id, mode: 'test', name: 'ci', permissions: [...PERMISSIONS], expiresInDays: 30 }, cookie);
    expect(created.status, JSON.stringify(created)).toBe(200);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.data.id } });
    const days = (row.expiresAt!.getTime() - row.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(30, 3);
    expect((await api('/v1/generations', { key: created.data.secret, ip })).status).toBe(200);
    const listed = await query<{ data: { id: string; expires_at: number | null }[] }>('keys.list', { organizationId: org.id, mode: 'test' }, cookie);
    expect(listed.data.data.find((k) => k.id === created.data.id)?.expires_at).toBe(Math.floor(row.expiresAt!.getTime() / 1000));
    // Out-of-range lifetimes are refused with the field named.
    const refused = await mutate('keys.create', { organizationId: org.id, mode: 'test', name: 'x', permissions: ['renders'], expiresInDays: 0 }, cookie);
    expect(refused.error).toMatchObject({ code: 'parameter_invalid', param: 'expiresInDays' });
  });

  it('an expired key answers 401 api_key_invalid, also when a process had it cached before the expiry', async () => {
    const org = await createTestOrg();
    const expired = await createApiKey(db(), { organizationId: org.id, mode: 'test', expiresAt: new Date(clock.nowMs() - 1_000) });
    const res = await api<{ error: { code: string; message: string } }>('/v1/generations', { key: expired.secret, ip });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api_key_invalid');
    expect(res.body.error.message).toMatch(/expired/);

    // Used (and so cached) while valid; refused once its time has come, without any notice.
    const soon = await createApiKey(db(), { organizationId: org.id, mode: 'test', expiresAt: new Date(clock.nowMs() + 4_000) });
    expect((await api('/v1/generations', { key: soon.secret, ip })).status).toBe(200);
    const after = await waitFor('the key to expire', async () => {
      const r = await api<{ error?: { code: string } }>('/v1/generations', { key: soon.secret, ip });
      return r.status === 401 ? r : null;
    }, 30_000);
    expect(after.body.error?.code).toBe('api_key_invalid');
    expect(Date.now()).toBeGreaterThanOrEqual((await db().apiKey.findUniqueOrThrow({ where: { id: soon.id } })).expiresAt!.getTime() - 1_000);
  });
});

describe('renaming keys', () => {
  it('an owner renames any key; the secret keeps working', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const cookie = await signedIn(owner.email);
    const renamed = await mutate<{ id: string; name: string }>('keys.rename', { organizationId: org.id, mode: 'test', keyId: org.keyIds.test, name: '  staging  ' }, cookie);
    expect(renamed.status, JSON.stringify(renamed)).toBe(200);
    expect(renamed.data).toEqual({ id: org.keyIds.test, name: 'staging' });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } })).name).toBe('staging');
    expect((await api('/v1/generations', { key: org.testKey, ip })).status).toBe(200);
    const audit = await db().auditEvent.findMany({ where: { organizationId: org.id, action: 'api_key.renamed' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'user', actorUserId: owner.id, mode: 'test', targetType: 'api_key', targetId: org.keyIds.test });
    expect(audit[0]!.details).toMatchObject({ to: 'staging' });
    const empty = await mutate('keys.rename', { organizationId: org.id, mode: 'test', keyId: org.keyIds.test, name: '   ' }, cookie);
    expect(empty.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    // The key's mode decides: the live key is not found from test mode.
    const wrongMode = await mutate('keys.rename', { organizationId: org.id, mode: 'test', keyId: org.keyIds.live, name: 'x' }, cookie);
    expect(wrongMode.httpStatus).toBe(404);
  });

  it("a developer renames only their own keys; another organization's admin renames nothing", async () => {
    const org = await createTestOrg();
    const dev = await createMember(org.id, 'developer');
    const devCookie = await signedIn(dev.email);
    const own = await mutate<{ id: string }>('keys.create', { organizationId: org.id, mode: 'test', name: 'mine', permissions: ['renders'] }, devCookie);
    expect((await mutate('keys.rename', { organizationId: org.id, mode: 'test', keyId: own.data.id, name: 'still mine' }, devCookie)).status).toBe(200);
    const others = await mutate('keys.rename', { organizationId: org.id, mode: 'test', keyId: org.keyIds.test, name: 'hijacked' }, devCookie);
    expect(others.httpStatus).toBe(403);
    expect(others.error).toMatchObject({ code: 'permission_denied', param: 'keyId' });

    const stranger = await createTestOrg();
    const admin = await createMember(stranger.id, 'admin');
    const adminCookie = await signedIn(admin.email);
    const viaOwnOrg = await mutate('keys.rename', { organizationId: stranger.id, mode: 'test', keyId: org.keyIds.test, name: 'hijacked' }, adminCookie);
    expect(viaOwnOrg.httpStatus).toBe(404);
    expect(viaOwnOrg.error).toMatchObject({ code: 'resource_not_found', param: 'keyId' });
    const viaTheirs = await mutate('keys.rename', { organizationId: org.id, mode: 'test', keyId: org.keyIds.test, name: 'hijacked' }, adminCookie);
    expect(viaTheirs.httpStatus).toBe(404);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } })).name).not.toBe('hijacked');
    // Refused renames leave no audit row.
    expect(await db().auditEvent.count({ where: { organizationId: org.id, action: 'api_key.renamed', targetId: org.keyIds.test } })).toBe(0);
  });
});
