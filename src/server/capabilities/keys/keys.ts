import { hash as cryptoHash, timingSafeEqual } from 'node:crypto';
import { sql, type DbTx } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { newId, randomBase62 } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import type { Mode } from '@/generated/prisma/enums';
import { PERMISSIONS, type Permission } from '@/shared/keys/permissions';
import { announceKeyChange, cachedKeyLookup, cachedKeyUnchecked } from './cache';
import { ipAllowed } from './fences';
import type { KeyGrant } from '@/server/capabilities/access/caller';

/**
 * API keys: `rt_test_<40 base62>` / `rt_live_<40 base62>`. Only the SHA-256 of the secret is
 * stored (a 238-bit random secret needs no slow hash); the secret is returned once, at creation
 * (and at a roll, roll-key.ts). A rolled key answers to two secrets for a while: its current one
 * and the one the roll replaced, until `previousSecretExpiresAt`.
 */
const KEY_PATTERN = /^rt_(test|live)_[0-9A-Za-z]{40}$/;

/** SHA-256 in hex, one-shot (every /v1 request hashes its key: no Hash object per call). */
export function hashSecret(secret: string): string {
  return cryptoHash('sha256', secret, 'hex');
}

/** A fresh secret of `mode`, with what is stored of it (its hash) and shown again (its prefix). */
export function newSecret(mode: Mode): { secret: string; secretHash: string; prefix: string } {
  const secret = `rt_${mode}_${randomBase62(40)}`;
  return { secret, secretHash: hashSecret(secret), prefix: secret.slice(0, 12) };
}

/** Tell every process to forget both secrets of a key (call inside the changing transaction). */
export async function announceKeySecrets(tx: DbTx, key: { secretHash: string; previousSecretHash: string | null }): Promise<void> {
  await announceKeyChange(tx, key.secretHash);
  if (key.previousSecretHash) await announceKeyChange(tx, key.previousSecretHash);
}

export interface CreatedKey {
  id: string;
  secret: string;
  prefix: string;
  mode: Mode;
  name: string;
  permissions: Permission[];
  organizationId: string;
  createdAt: Date;
}

export async function createApiKey(
  tx: DbTx,
  input: { organizationId: string; mode: Mode; name?: string; permissions?: readonly Permission[]; createdByUserId?: string | null; expiresAt?: Date | null },
): Promise<CreatedKey> {
  const { secret, secretHash, prefix } = newSecret(input.mode);
  const permissions = [...new Set(input.permissions ?? PERMISSIONS)].sort() as Permission[];
  const row = await tx.apiKey.create({
    data: {
      id: newId('key'),
      organizationId: input.organizationId,
      mode: input.mode,
      name: input.name ?? `${input.mode} key`,
      prefix,
      secretHash,
      permissions,
      createdAt: clock.now(),
      createdByUserId: input.createdByUserId ?? null,
      expiresAt: input.expiresAt ?? null,
    },
  });
  return {
    id: row.id,
    secret,
    prefix: row.prefix,
    mode: row.mode,
    name: row.name,
    permissions,
    organizationId: row.organizationId,
    createdAt: row.createdAt,
  };
}

interface KeyRow {
  id: string;
  organizationId: string;
  mode: Mode;
  permissions: string[];
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** The hash the secret matched: the key's current one, or the one a roll replaced. */
  secretHash: string;
  /** Whether it matched the replaced one, and until when that one works. */
  previous: boolean;
  previousUntil: Date | null;
  tier: number;
  allowedIps: string[];
  requestsPerMinute: number | null;
}

export interface AuthenticatedKey extends KeyGrant {
  /** The key's fences the door enforces (keys/fences.ts); its spend cap is read at admission. */
  allowedIps: readonly string[];
  requestsPerMinute: number | null;
  /**
   * Served from the key cache without its revocation barrier (authenticateBearer's
   * `revocationCheckedByCaller`): the caller's own query must prove the key unrevoked, or
   * assertKeyUnrevoked must, before anything is answered.
   */
  revocationUnchecked?: boolean;
  /** With revocationUnchecked: the hash of the secret sent, which the proof must find still one of the key's. */
  secretHash?: string;
}

const KEY_INVALID = 'The API key is unknown or has been revoked.';

/**
 * Why the clock refuses this key now, or null. Checked on every request, so a cached key stops at
 * its expiry too; the secret a roll replaced works until the end of the overlap chosen.
 */
function timeRefusal(key: Pick<KeyRow, 'expiresAt' | 'previous' | 'previousUntil'>, nowMs: number): string | null {
  if (key.expiresAt && key.expiresAt.getTime() <= nowMs) return 'The API key has expired. Create a new key in the console.';
  if (key.previous && (!key.previousUntil || key.previousUntil.getTime() <= nowMs)) {
    return 'This secret was replaced when its key was rolled, and the overlap has ended. Use the key’s new secret.';
  }
  return null;
}

/** Parse `Authorization: Bearer …` and find the key. 401 api_key_missing / api_key_invalid. */
export async function authenticateBearer(
  tx: DbTx,
  authorization: string | null,
  options: { revocationCheckedByCaller?: boolean; ip?: string | null } = {},
): Promise<AuthenticatedKey> {
  if (!authorization || !authorization.trim()) {
    throw new DomainError('api_key_missing', 'No API key provided. Send it as "Authorization: Bearer rt_test_…".');
  }
  // Repeated Authorization headers arrive joined with ", " (http/incoming-request.ts); a comma
  // is in no key, so two credentials are never resolved by picking one of them.
  if (authorization.includes(',')) {
    throw new DomainError('api_key_invalid', 'More than one credential was sent (several Authorization headers or values). Send exactly one: "Authorization: Bearer rt_…".', { param: 'authorization' });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  const secret = match?.[1];
  if (!secret || !KEY_PATTERN.test(secret)) {
    throw new DomainError('api_key_invalid', 'The API key is malformed. Keys look like rt_test_… or rt_live_….');
  }
  const hash = hashSecret(secret);
  // A caller that proves the key unrevoked in its own query takes a cached key as it is, unless
  // the key has an IP allowlist: the proof shows the key has none (generations.ts), so only
  // the barrier makes a cached allowlist as fresh as a revocation.
  // A cached copy that the clock would refuse (expired, an overlap ended) is not taken either:
  // the key may have been given a new expiry since, and only the barrier makes a refusal as
  // fresh as the change that lifted it.
  const nowMs = clock.nowMs();
  const cached = options.revocationCheckedByCaller ? cachedKeyUnchecked<KeyRow>(hash) : null;
  const unchecked = cached && cached.allowedIps.length === 0 && timeRefusal(cached, nowMs) === null ? cached : null;
  // One round trip for key and tier (this runs on every /v1 request).
  const key = unchecked ?? await cachedKeyLookup(hash, async () => {
    const rows = await tx.$queryRaw<KeyRow[]>`
      select k.id, k."organizationId", k.mode::text as mode, k.permissions, k."revokedAt", k."expiresAt", k."lastUsedAt",
        case when k."secretHash" = ${hash} then k."secretHash" else k."previousSecretHash" end as "secretHash",
        k."secretHash" <> ${hash} as previous, k."previousSecretExpiresAt" as "previousUntil", o.tier,
        k."allowedIps", k."requestsPerMinute"
      from "ApiKey" k join "Organization" o on o.id = k."organizationId"
      where k."secretHash" = ${hash} or k."previousSecretHash" = ${hash}`;
    return rows[0] ?? null;
  });
  // The lookup is by hash of the secret, so timing reveals nothing about stored secrets; the
  // explicit constant-time comparison guards against an index collation surprise.
  if (!key || !timingSafeEqual(Buffer.from(key.secretHash), Buffer.from(hash)) || key.revokedAt) {
    throw new DomainError('api_key_invalid', KEY_INVALID);
  }
  const refusal = timeRefusal(key, nowMs);
  if (refusal) throw new DomainError('api_key_invalid', refusal);
  // lastUsedAt (and the address it came from) is informative; write it at most once a minute
  // per key to keep reads read-only. A request its allowlist refuses is no use of the key.
  const ip = options.ip ?? null;
  if ((!key.lastUsedAt || nowMs - key.lastUsedAt.getTime() > 60_000) && ipAllowed(key.allowedIps, ip)) {
    const now = new Date(nowMs);
    key.lastUsedAt = now; // the cached entry too, so the next minute's requests skip the write
    void tx.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now, lastUsedIp: ip } }).catch(() => undefined);
  }
  return {
    keyId: key.id,
    organizationId: key.organizationId,
    mode: key.mode,
    permissions: new Set(key.permissions as Permission[]),
    tier: key.tier,
    allowedIps: key.allowedIps,
    requestsPerMinute: key.requestsPerMinute,
    ...(unchecked ? { revocationUnchecked: true, secretHash: hash } : {}),
  };
}

/**
 * For a key taken with its revocation unchecked: 401 api_key_invalid unless the key is unrevoked
 * and unexpired in the database now, and (given its hash) the secret sent is still one of its two
 * (a roll with no overlap drops the old one at once) and, if it is the replaced one, within its
 * overlap. Its stored allowlist, which the cached copy had empty, may have been set since:
 * returns it (empty if still none) for the caller to judge the request by.
 */
export async function assertKeyUnrevoked(keyId: string, secretHash?: string): Promise<string[]> {
  const rows = await sql<{ revokedAt: Date | null; expiresAt: Date | null; secretHash: string; previousSecretHash: string | null; previousSecretExpiresAt: Date | null; allowedIps: string[] }>(
    `select "revokedAt", "expiresAt", "secretHash", "previousSecretHash", "previousSecretExpiresAt", "allowedIps" from "ApiKey" where id = $1`,
    [keyId],
  );
  const row = rows[0];
  const previous = secretHash !== undefined && secretHash !== row?.secretHash;
  if (!row || row.revokedAt || (previous && secretHash !== row.previousSecretHash)) throw new DomainError('api_key_invalid', KEY_INVALID);
  const refusal = timeRefusal({ expiresAt: row.expiresAt, previous, previousUntil: row.previousSecretExpiresAt }, clock.nowMs());
  if (refusal) throw new DomainError('api_key_invalid', refusal);
  return row.allowedIps;
}

export async function revokeApiKey(tx: DbTx, keyId: string): Promise<{ id: string; revokedAt: Date }> {
  const key = await tx.apiKey.findUnique({ where: { id: keyId } });
  if (!key) throw new DomainError('resource_not_found', `No API key ${keyId}.`, { param: 'key' });
  const revokedAt = key.revokedAt ?? clock.now();
  if (!key.revokedAt) {
    await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt } });
    await announceKeySecrets(tx, key);
  }
  return { id: keyId, revokedAt };
}

export async function listApiKeys(tx: DbTx, organizationId: string) {
  const keys = await tx.apiKey.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    mode: k.mode,
    prefix: k.prefix,
    permissions: k.permissions,
    created_at: Math.floor(k.createdAt.getTime() / 1000),
    last_used_at: k.lastUsedAt ? Math.floor(k.lastUsedAt.getTime() / 1000) : null,
    revoked_at: k.revokedAt ? Math.floor(k.revokedAt.getTime() / 1000) : null,
  }));
}
