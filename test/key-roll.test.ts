// @node-lines same: our key roll and expiry rules over tRPC and /v1; sessions and cookies run under both lines in test/console-auth.test.ts, raw HTTP in test/hostile-input.test.ts
/**
 * Rolling a key and changing its expiry from the console, through the real routes (tRPC over
 * HTTP, then /v1 with the secrets): a roll issues a new secret for the same key (same id, name,
 * permissions, fences, mode), the old secret works for the overlap chosen and answers
 * 401 api_key_invalid after it, on warm key caches too; only hashes are stored. Who may: whoever
 * manages the key (a developer only their own: 403 permission_denied), never a member of
 * another organization (404). The expiry is set, changed and removed the same way; both audited.
 */
import { describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { hashSecret } from '@/server/capabilities/keys/keys';
import { PERMISSIONS } from '@/shared/keys/permissions';
import { announceKeyChange } from '@/server/capabilities/keys/cache';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { createMember, mutate, query, signedIn } from './console-support';
import { expectError } from './images-support';
import { waitFor } from './server-processes';

const ip = testIp();
const HOUR = 3600;

interface Rolled {
  id: string;
  name: string;
  mode: 'test' | 'live';
  prefix: string;
  secret: string;
  previous_prefix: string | null;
  previous_secret_expires_at: number | null;
}

interface ListedKey {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  allowed_ips: string[];
  expires_at: number | null;
  rolled_at: number | null;
  previous_prefix: string | null;
  previous_secret_expires_at: number | null;
}

async function ownerOf(org: TestOrg): Promise<string> {
  const owner = await createMember(org.id, 'owner');
  return signedIn(owner.email);
}

/** A /v1 read on each door the key cache serves: the direct read (no barrier) and the adapter. */
async function statuses(secret: string): Promise<number[]> {
  return [(await api('/v1/generations', { key: secret, ip })).status, (await api('/v1/styles', { key: secret, ip })).status];
}

async function listed(org: TestOrg, cookie: string, keyId: string): Promise<ListedKey> {
  const page = await query<{ data: ListedKey[] }>('keys.list', { organizationId: org.id, mode: 'test', limit: 100 }, cookie);
  return page.data.data.find((k) => k.id === keyId)!;
}

/** Moves the end of the old secret's overlap in the database and tells every process, as a roll does. */
async function overlapEndsAt(keyId: string, at: Date): Promise<void> {
  const row = await db().apiKey.update({ where: { id: keyId }, data: { previousSecretExpiresAt: at } });
  await announceKeyChange(db(), row.previousSecretHash!);
}

describe('rolling a key', () => {
  it('a new secret for the same key; the old one works during the overlap (warm caches too) and answers 401 api_key_invalid after it', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const scope = { organizationId: org.id, mode: 'test' as const };
    const fenced = await mutate('keys.fences', { ...scope, keyId: org.keyIds.test, allowedIps: [], requestsPerMinute: 500, monthlySpendCapCents: 2_000 }, cookie);
    expect(fenced.error).toBeNull();
    const before = await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } });
    // Warm the key cache of the serving processes with the old secret first.
    for (let i = 0; i < 4; i++) expect(await statuses(org.testKey)).toEqual([200, 200]);

    const rolled = await mutate<Rolled>('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: HOUR }, cookie);
    expect(rolled.error).toBeNull();
    const now = clock.nowSeconds();
    expect(rolled.data).toMatchObject({ id: org.keyIds.test, name: before.name, mode: 'test', previous_prefix: org.testKey.slice(0, 12) });
    expect(rolled.data.secret).toMatch(/^rt_test_[0-9A-Za-z]{40}$/);
    expect(rolled.data.secret).not.toBe(org.testKey);
    expect(rolled.data.prefix).toBe(rolled.data.secret.slice(0, 12));
    expect(Math.abs(rolled.data.previous_secret_expires_at! - (now + HOUR))).toBeLessThanOrEqual(5);

    // The same row: permissions, fences and mode kept; only hashes stored, never a readable secret.
    const after = await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } });
    expect(after).toMatchObject({ name: before.name, mode: 'test', permissions: before.permissions, requestsPerMinute: 500, monthlySpendCapCents: 2_000, secretHash: hashSecret(rolled.data.secret), previousSecretHash: hashSecret(org.testKey) });
    const stored = JSON.stringify(after);
    expect(stored).not.toContain(rolled.data.secret.slice(12));
    expect(stored).not.toContain(org.testKey.slice(12));
    expect(await db().apiKey.count({ where: { organizationId: org.id } })).toBe(2);

    // Both work during the overlap; the list shows the old prefix and when it stops.
    expect(await statuses(rolled.data.secret)).toEqual([200, 200]);
    expect(await statuses(org.testKey)).toEqual([200, 200]);
    expect(await listed(org, cookie, org.keyIds.test)).toMatchObject({ prefix: rolled.data.prefix, previous_prefix: org.testKey.slice(0, 12), previous_secret_expires_at: rolled.data.previous_secret_expires_at, rolled_at: expect.any(Number) });
    const logged = await api('/v1/generations', { key: org.testKey, ip });
    const line = await waitFor('the old secret’s request in the log', () => db().requestLog.findUnique({ where: { id: logged.headers.get('request-id')! } }), 20_000);
    expect(line.apiKeyId).toBe(org.keyIds.test);

    // The overlap ends in a few seconds; the old secret is used (and cached) until then, and
    // refused once its time has come without any further notice.
    await overlapEndsAt(org.keyIds.test, new Date(clock.nowMs() + 3_000));
    expect(await statuses(org.testKey)).toEqual([200, 200]);
    await waitFor('the overlap to end', async () => ((await statuses(org.testKey)).every((s) => s === 401) ? true : null), 30_000);
    for (const path of ['/v1/generations', '/v1/styles', '/v1/generations/gen_doesnotexist0']) {
      const refused = await api<{ error: { message: string } }>(path, { key: org.testKey, ip });
      expectError(refused, 401, 'api_key_invalid');
      expect(refused.body.error.message).toMatch(/rolled/);
    }
    expect(await statuses(rolled.data.secret)).toEqual([200, 200]);
    expect((await listed(org, cookie, org.keyIds.test)).previous_prefix).toBeNull();

    const audit = await db().auditEvent.findMany({ where: { organizationId: org.id, action: 'api_key.rolled' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'user', mode: 'test', targetType: 'api_key', targetId: org.keyIds.test });
    expect(audit[0]!.details).toMatchObject({ prefix: rolled.data.prefix, previous_prefix: org.testKey.slice(0, 12), overlap_seconds: HOUR });
    expect(JSON.stringify(audit[0]!.details)).not.toContain(rolled.data.secret.slice(12));
  });

  it('with no overlap the old secret stops at once, however warm the caches; rolling again stops an old secret still in its overlap; revoking stops both', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const scope = { organizationId: org.id, mode: 'test' as const };
    for (let i = 0; i < 4; i++) expect(await statuses(org.testKey)).toEqual([200, 200]);
    const now = await mutate<Rolled>('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: 0 }, cookie);
    expect(now.error).toBeNull();
    expect(now.data).toMatchObject({ previous_prefix: org.testKey.slice(0, 12), previous_secret_expires_at: null });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } })).previousSecretHash).toBeNull();
    expect(await statuses(org.testKey)).toEqual([401, 401]);
    expectError(await api('/v1/generations', { key: org.testKey, ip }), 401, 'api_key_invalid');
    expect(await statuses(now.data.secret)).toEqual([200, 200]);

    // Second roll with a day's overlap, then a third: the second secret is cut short at once.
    const second = await mutate<Rolled>('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: 86_400 }, cookie);
    for (let i = 0; i < 4; i++) expect(await statuses(now.data.secret)).toEqual([200, 200]);
    expect(await statuses(second.data.secret)).toEqual([200, 200]);
    const third = await mutate<Rolled>('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: HOUR }, cookie);
    expect(third.error).toBeNull();
    expect(await statuses(now.data.secret)).toEqual([401, 401]);
    expect(await statuses(second.data.secret)).toEqual([200, 200]);
    expect(await statuses(third.data.secret)).toEqual([200, 200]);
    const audits = await db().auditEvent.findMany({ where: { organizationId: org.id, action: 'api_key.rolled' }, orderBy: { createdAt: 'asc' } });
    expect(audits.map((a) => (a.details as { stopped_early_prefix?: string }).stopped_early_prefix ?? null)).toEqual([null, null, now.data.prefix]);

    const revoked = await mutate('keys.revoke', { ...scope, keyId: org.keyIds.test }, cookie);
    expect(revoked.error).toBeNull();
    expect(await statuses(second.data.secret)).toEqual([401, 401]);
    expect(await statuses(third.data.secret)).toEqual([401, 401]);
    const again = await mutate('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: 0 }, cookie);
    expect(again.httpStatus).toBe(400);
    expect(again.error).toMatchObject({ code: 'parameter_invalid', param: 'keyId' });
  });

  it('an overlap not offered is refused with the field named; an expired key is not rolled', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const scope = { organizationId: org.id, mode: 'test' as const };
    const odd = await mutate('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: 60 }, cookie);
    expect(odd.httpStatus).toBe(400);
    expect(odd.error).toMatchObject({ code: 'parameter_invalid', param: 'overlapSeconds' });
    await db().apiKey.update({ where: { id: org.keyIds.test }, data: { expiresAt: new Date(clock.nowMs() - 1_000) } });
    const expired = await mutate('keys.roll', { ...scope, keyId: org.keyIds.test, overlapSeconds: HOUR }, cookie);
    expect(expired.httpStatus).toBe(400);
    expect(expired.error).toMatchObject({ code: 'parameter_invalid', param: 'keyId' });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } })).secretHash).toBe(hashSecret(org.testKey));
  });

  it('a developer rolls and changes only their own keys (403 permission_denied otherwise); a member of another organization reaches none (404)', async () => {
    const org = await createTestOrg();
    const scope = { organizationId: org.id, mode: 'test' as const };
    const dev = await createMember(org.id, 'developer');
    const devCookie = await signedIn(dev.email);
    const own = await mutate<{ id: string; secret: string }>('keys.create', { ...scope, name: 'mine', permissions: [...PERMISSIONS] }, devCookie);
    const ownRolled = await mutate<Rolled>('keys.roll', { ...scope, keyId: own.data.id, overlapSeconds: HOUR }, devCookie);
    expect(ownRolled.error).toBeNull();
    expect(await statuses(ownRolled.data.secret)).toEqual([200, 200]);
    expect((await mutate('keys.expiry', { ...scope, keyId: own.data.id, expiresInDays: 7 }, devCookie)).error).toBeNull();

    for (const [path, extra] of [['keys.roll', { overlapSeconds: 0 }], ['keys.expiry', { expiresInDays: 1 }]] as const) {
      const refused = await mutate(path, { ...scope, keyId: org.keyIds.test, ...extra }, devCookie);
      expect(refused.httpStatus, path).toBe(403);
      expect(refused.error, path).toMatchObject({ code: 'permission_denied', param: 'keyId' });
    }

    const stranger = await createTestOrg();
    const admin = await createMember(stranger.id, 'admin');
    const adminCookie = await signedIn(admin.email);
    for (const [path, extra] of [['keys.roll', { overlapSeconds: 0 }], ['keys.expiry', { expiresInDays: 1 }]] as const) {
      // Through their own organization: no such key there.
      const viaOwn = await mutate(path, { organizationId: stranger.id, mode: 'test', keyId: org.keyIds.test, ...extra }, adminCookie);
      expect(viaOwn.httpStatus, path).toBe(404);
      expect(viaOwn.error, path).toMatchObject({ code: 'resource_not_found', param: 'keyId' });
      // Naming the other organization: not a member of it.
      const viaTheirs = await mutate(path, { ...scope, keyId: org.keyIds.test, ...extra }, adminCookie);
      expect(viaTheirs.httpStatus, path).toBe(404);
      expect(viaTheirs.error, path).toMatchObject({ code: 'resource_not_found', param: 'organizationId' });
    }
    const untouched = await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } });
    expect(untouched).toMatchObject({ secretHash: hashSecret(org.testKey), previousSecretHash: null, expiresAt: null, rolledAt: null });
    expect(await statuses(org.testKey)).toEqual([200, 200]);
    expect(await db().auditEvent.count({ where: { organizationId: org.id, targetId: org.keyIds.test, action: { in: ['api_key.rolled', 'api_key.expiry_changed'] } } })).toBe(0);
  });
});

describe('changing a key’s expiry', () => {
  it('set, changed and removed after creation; an expired key given a new expiry works again; each change audited', async () => {
    const org = await createTestOrg();
    const cookie = await ownerOf(org);
    const scope = { organizationId: org.id, mode: 'test' as const, keyId: org.keyIds.test };
    const set = await mutate<{ id: string; expires_at: number | null }>('keys.expiry', { ...scope, expiresInDays: 30 }, cookie);
    expect(set.error).toBeNull();
    expect(Math.abs(set.data.expires_at! - (clock.nowSeconds() + 30 * 86_400))).toBeLessThanOrEqual(5);
    expect((await listed(org, cookie, org.keyIds.test)).expires_at).toBe(set.data.expires_at);
    const changed = await mutate<{ expires_at: number | null }>('keys.expiry', { ...scope, expiresInDays: 7 }, cookie);
    expect(Math.abs(changed.data.expires_at! - (clock.nowSeconds() + 7 * 86_400))).toBeLessThanOrEqual(5);
    const removed = await mutate<{ expires_at: number | null }>('keys.expiry', { ...scope, expiresInDays: null }, cookie);
    expect(removed.data.expires_at).toBeNull();
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: org.keyIds.test } })).expiresAt).toBeNull();

    // Expired (as time would make it), then given a year: it answers again at once.
    for (let i = 0; i < 3; i++) expect(await statuses(org.testKey)).toEqual([200, 200]);
    const row = await db().apiKey.update({ where: { id: org.keyIds.test }, data: { expiresAt: new Date(clock.nowMs() - 1_000) } });
    await announceKeyChange(db(), row.secretHash);
    expectError(await api('/v1/generations', { key: org.testKey, ip }), 401, 'api_key_invalid');
    expect((await mutate('keys.expiry', { ...scope, expiresInDays: 365 }, cookie)).error).toBeNull();
    expect(await statuses(org.testKey)).toEqual([200, 200]);

    const zero = await mutate('keys.expiry', { ...scope, expiresInDays: 0 }, cookie);
    expect(zero.httpStatus).toBe(400);
    expect(zero.error).toMatchObject({ code: 'parameter_invalid', param: 'expiresInDays' });
    const audit = await db().auditEvent.findMany({ where: { organizationId: org.id, action: 'api_key.expiry_changed' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => a.details)).toEqual([
      expect.objectContaining({ from: null, to: set.data.expires_at }),
      expect.objectContaining({ from: set.data.expires_at, to: changed.data.expires_at }),
      expect.objectContaining({ from: changed.data.expires_at, to: null }),
      expect.objectContaining({ from: Math.floor(row.expiresAt!.getTime() / 1000), to: expect.any(Number) }),
    ]);
    await mutate('keys.revoke', scope, cookie);
    const onRevoked = await mutate('keys.expiry', { ...scope, expiresInDays: 7 }, cookie);
    expect(onRevoked.httpStatus).toBe(400);
    expect(onRevoked.error).toMatchObject({ code: 'parameter_invalid', param: 'keyId' });
  });
});
