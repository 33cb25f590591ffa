// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
/**
 * API keys stop working when they must, at once:
 * - removing a member revokes every active key they created, in both modes (the remover sees
 *   them first); the key answers 401 from the next request on, from every web process, even
 *   warm in its cache;
 * - the per-process key cache never stores a lookup that raced a revocation (the interleaving
 *   is forced here, in this process, on the real database and LISTEN connection).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseUrl, db } from '@/server/platform/db';
import { authenticateBearer, createApiKey, hashSecret, revokeApiKey } from '@/server/capabilities/keys/keys';
import { cachedKeyLookup, KEY_EVENTS_CHANNEL } from '@/server/capabilities/keys/cache';
import { waitFor } from './server-processes';
import { api, createTestOrg, testIp } from './support';
import { createMember, mutate, query, signedIn } from './console-support';

const ip = testIp();

describe('removing a member revokes the keys they created', () => {
  it('lists them to the remover, revokes both modes in the removal, and each answers 401 at once; other keys keep working', async () => {
    const org = await createTestOrg({ tier: 1 });
    const owner = await createMember(org.id, 'owner');
    const developer = await createMember(org.id, 'developer');
    const ownerCookie = await signedIn(owner.email);
    const devCookie = await signedIn(developer.email);
    const test = { organizationId: org.id, mode: 'test' };
    const live = { organizationId: org.id, mode: 'live' };

    const devTest = await mutate<{ id: string; secret: string }>('keys.create', { ...test, name: 'CI', permissions: ['renders', 'generations_read'] }, devCookie);
    const devLive = await mutate<{ id: string; secret: string }>('keys.create', { ...live, name: 'Prod', permissions: ['upscales'] }, devCookie);
    const ownerKey = await mutate<{ id: string; secret: string }>('keys.create', { ...test, name: 'Owner key', permissions: ['decorations'] }, ownerCookie);
    const revokedEarlier = await mutate<{ id: string; secret: string }>('keys.create', { ...test, name: 'Old', permissions: ['edits'] }, devCookie);
    await mutate('keys.revoke', { ...test, keyId: revokedEarlier.data.id }, devCookie);

    // Each key in use (and so in the server's key cache) before the removal.
    expect((await api('/v1/generations', { key: devTest.data.secret, ip })).status).toBe(200);
    expect((await api('/v1/styles', { key: devLive.data.secret, ip })).status).toBe(403); // live key without the decorations permission: authenticated
    expect((await api('/v1/styles', { key: ownerKey.data.secret, ip })).status).toBe(200);

    // The developer may not read what a removal would do; an owner sees both modes' keys.
    expect((await query('members.keysToRevoke', { ...test, userId: developer.id }, devCookie)).error?.code).toBe('permission_denied');
    const preview = await query<{ data: Array<{ id: string; name: string; mode: string; prefix: string }> }>('members.keysToRevoke', { ...test, userId: developer.id }, ownerCookie);
    expect(preview.data.data.map((k) => [k.id, k.name, k.mode])).toEqual([
      [devTest.data.id, 'CI', 'test'],
      [devLive.data.id, 'Prod', 'live'],
    ]);
    expect(preview.data.data[0]!.prefix).toBe(devTest.data.secret.slice(0, 12));

    const removed = await mutate<{ revoked_keys: string[] }>('members.remove', { ...test, userId: developer.id }, ownerCookie);
    expect(removed.status).toBe(200);
    expect(removed.data.revoked_keys.sort()).toEqual([devTest.data.id, devLive.data.id].sort());

    // The removal answered from one web process; every request after it is refused by every
    // process, though the keys were warm in their caches (the cache's barrier; keys/cache.ts).
    for (const secret of [devTest.data.secret, devLive.data.secret]) {
      const answers = await Promise.all(Array.from({ length: 6 }, () => api('/v1/generations', { key: secret, ip })));
      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ error: { code: 'api_key_invalid' } });
      }
    }
    // A route other than the two direct reads relies on the cache's barrier alone.
    expect((await api('/v1/styles', { key: devLive.data.secret, ip })).body).toMatchObject({ error: { code: 'api_key_invalid' } });
    expect((await api('/v1/styles', { key: ownerKey.data.secret, ip })).status).toBe(200);
    expect((await api('/v1/styles', { key: org.testKey, ip })).status).toBe(200); // made by the CLI: no creator
    const rows = await db().apiKey.findMany({ where: { id: { in: [devTest.data.id, devLive.data.id, revokedEarlier.data.id] } } });
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);

    // After the removal, the member's session creates nothing here.
    expect((await mutate('keys.create', { ...test, name: 'After', permissions: ['renders'] }, devCookie)).error?.code).toBe('resource_not_found');
    expect(await db().apiKey.count({ where: { organizationId: org.id, createdByUserId: developer.id, revokedAt: null } })).toBe(0);
  });

  it('the direct reads refuse a key revoked in the database even before any notice reaches the server', async () => {
    const org = await createTestOrg({ tier: 1 });
    // Warm in the cache of every web process (the reads take a cached key without the barrier).
    for (let i = 0; i < 8; i++) expect((await api('/v1/generations', { key: org.testKey, ip })).status).toBe(200);
    // No pg_notify: only the read's own query can know (keys/revocation-proof.ts).
    await db().$executeRaw`update "ApiKey" set "revokedAt" = now() where id = ${org.keyIds.test}`;
    const answers = await Promise.all(
      ['/v1/generations', '/v1/generations?limit=abc', '/v1/generations/gen_doesnotexist', '/v1/generations', '/v1/generations'].map((path) => api(path, { key: org.testKey, ip })),
    );
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: { code: 'api_key_invalid' } });
    }
  });

  it('another organization cannot see which keys a member of this one created', async () => {
    const org = await createTestOrg({ tier: 1 });
    const developer = await createMember(org.id, 'developer');
    const other = await createTestOrg({ tier: 1 });
    const otherOwner = await createMember(other.id, 'owner');
    const cookie = await signedIn(otherOwner.email);
    const res = await query('members.keysToRevoke', { organizationId: other.id, mode: 'test', userId: developer.id }, cookie);
    expect(res.error).toMatchObject({ code: 'resource_not_found', param: 'userId' });
    const foreign = await query('members.keysToRevoke', { organizationId: org.id, mode: 'test', userId: developer.id }, cookie);
    expect(foreign.error?.code).toBe('resource_not_found');
  });
});

interface KeyRow {
  id: string;
  organizationId: string;
  mode: string;
  permissions: string[];
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  secretHash: string;
  tier: number;
}

/** What authenticateBearer's own lookup reads (key and tier in one row). */
async function readKeyRow(secretHash: string): Promise<KeyRow | null> {
  const rows = await db().$queryRaw<KeyRow[]>`
    select k.id, k."organizationId", k.mode::text as mode, k.permissions, k."revokedAt", k."lastUsedAt", k."secretHash", o.tier
    from "ApiKey" k join "Organization" o on o.id = k."organizationId"
    where k."secretHash" = ${secretHash}`;
  return rows[0] ?? null;
}

/** Lookups of one key through this process's cache, counting the database reads behind them. */
function countedLookups(secretHash: string): { loads: number; lookup: () => Promise<KeyRow | null> } {
  const counted = {
    loads: 0,
    lookup: () =>
      cachedKeyLookup(secretHash, async () => {
        counted.loads += 1;
        return readKeyRow(secretHash);
      }),
  };
  return counted;
}

/** Until a lookup of the key is served from the cache (it follows revocations and holds the key). */
async function untilCached(key: ReturnType<typeof countedLookups>): Promise<void> {
  await key.lookup();
  await waitFor('the key cache to serve', async () => {
    const before = key.loads;
    await key.lookup();
    return key.loads === before;
  });
}

describe('the key cache and revocation', () => {
  it('a cached key is refused by the first lookup after its revocation committed elsewhere', async () => {
    const org = await createTestOrg();
    // Revoked on a connection of its own, as another process (the CLI, another web process) would.
    const elsewhere = new pg.Client({ connectionString: databaseUrl() });
    await elsewhere.connect();
    try {
      for (let i = 0; i < 20; i += 1) {
        const key = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
        const hash = hashSecret(key.secret);
        const lookups = countedLookups(hash);
        await untilCached(lookups);
        await elsewhere.query('begin');
        await elsewhere.query('update "ApiKey" set "revokedAt" = now() where id = $1', [key.id]);
        await elsewhere.query('select pg_notify($1, $2)', [KEY_EVENTS_CHANNEL, hash]);
        await elsewhere.query('commit');
        // Straight after the commit: the notice may not have reached this process yet.
        const seen = await lookups.lookup();
        expect(seen?.revokedAt).not.toBeNull();
      }
    } finally {
      await elsewhere.end();
    }
  });

  it('a lookup that read the key before the revocation committed is not stored after its notice was handled', async () => {
    const org = await createTestOrg();
    const target = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
    const probe = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
    const targetHash = hashSecret(target.secret);
    const probeHash = hashSecret(probe.secret);

    // The cache follows revocations (LISTEN in place) once a lookup of the probe is served from it.
    const probeLookups = countedLookups(probeHash);
    await untilCached(probeLookups);

    // 1. A lookup of the target reads the row (not revoked yet) and is held before it returns.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let read!: () => void;
    const hasRead = new Promise<void>((resolve) => (read = resolve));
    const racing = cachedKeyLookup(targetHash, async () => {
      const row = await readKeyRow(targetHash);
      read();
      await held;
      return row;
    });
    await hasRead;

    // 2. Target and probe are revoked in one transaction: their notices arrive in that order on
    // this process's LISTEN connection, so once the probe's entry is gone the target's notice
    // was handled too.
    await db().$transaction(async (tx) => {
      await revokeApiKey(tx, target.id);
      await revokeApiKey(tx, probe.id);
    });
    await waitFor('the revocation notices to be handled', async () => {
      const before = probeLookups.loads;
      await probeLookups.lookup();
      return probeLookups.loads > before;
    });

    // 3. The stale lookup finishes: its caller gets what it read, but the cache must not keep it.
    release();
    expect((await racing)?.revokedAt).toBeNull();
    await expect(authenticateBearer(db(), `Bearer ${target.secret}`)).rejects.toMatchObject({ code: 'api_key_invalid' });

    // A lookup with no revocation in between is stored in the cache.
    const fresh = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
    const freshLookups = countedLookups(hashSecret(fresh.secret));
    await freshLookups.lookup();
    await freshLookups.lookup();
    expect(freshLookups.loads).toBe(1);
  });
});
