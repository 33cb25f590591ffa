import { db, transaction, type DbTx } from '@/server/platform/db';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { DomainError, invalidParam, notFound } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import { canManageKey, memberActor, requireRole, type Member, type Role } from '@/server/capabilities/access/roles';
import { tierOf } from '@/server/capabilities/billing/pricing';
import { monthlyLimitCents } from '@/server/capabilities/billing/monthly-spend';
import { normalizeAllowlist, type KeyFences } from './fences';
import type { Permission } from '@/shared/keys/permissions';
import { announceKeySecrets, createApiKey, revokeApiKey, type CreatedKey } from './keys';

/** API keys as the console's members see and manage them: always in the member's mode. */
export interface KeyView {
  id: string;
  name: string;
  mode: 'test' | 'live';
  permissions: string[];
  /** First characters of the secret are all that is ever shown again. */
  prefix: string;
  /** After a roll: when, and the secret it replaced (its prefix) while that still works (null: none does). */
  rolled_at: number | null;
  previous_prefix: string | null;
  previous_secret_expires_at: number | null;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
  /** The client IP of that last use (null: not used since addresses were kept). */
  last_used_ip: string | null;
  revoked_at: number | null;
  /** When it stops working (null: never), and whether that time has come. */
  expires_at: number | null;
  expired: boolean;
  /** Whether this member may manage it: rename, change its expiry, roll, revoke (developers: only their own keys). */
  can_revoke: boolean;
  /** Its fences (keys/fences.ts): CIDRs (empty: any address), requests per minute and monthly spend cap in cents (null: the organization's). */
  allowed_ips: string[];
  requests_per_minute: number | null;
  monthly_spend_cap_cents: number | null;
  /** Whether this member may edit the fences (owners and admins). */
  can_fence: boolean;
}

export async function listMemberKeys(member: Member, page: PageParams & { includeRevoked?: boolean | undefined }): Promise<Page<KeyView>> {
  let after: { createdAt: Date; id: string } | null = null;
  if (page.cursor) {
    const row = await db().apiKey.findFirst({ where: { id: page.cursor, organizationId: member.organizationId, mode: member.mode } });
    if (!row) throw invalidParam('cursor', 'Unknown cursor.');
    after = { createdAt: row.createdAt, id: row.id };
  }
  const rows = await db().apiKey.findMany({
    where: {
      organizationId: member.organizationId,
      mode: member.mode,
      ...(page.includeRevoked ? {} : { revokedAt: null }),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
  });
  const creatorIds = [...new Set(rows.map((r) => r.createdByUserId).filter((id): id is string => id !== null))];
  const creators = new Map((await db().user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]));
  return pageOf(rows, page.limit, (r) => r.id, (r) => ({
    id: r.id,
    name: r.name,
    mode: r.mode,
    permissions: r.permissions,
    prefix: r.prefix,
    rolled_at: toUnixSeconds(r.rolledAt),
    ...previousSecret(r),
    created_by: r.createdByUserId ? (creators.get(r.createdByUserId) ?? null) : null,
    created_at: toUnixSeconds(r.createdAt),
    last_used_at: toUnixSeconds(r.lastUsedAt),
    last_used_ip: r.lastUsedIp,
    revoked_at: toUnixSeconds(r.revokedAt),
    expires_at: toUnixSeconds(r.expiresAt),
    expired: r.expiresAt !== null && r.expiresAt.getTime() <= clock.nowMs(),
    can_revoke: r.revokedAt === null && canManageKey(member, r),
    allowed_ips: r.allowedIps,
    requests_per_minute: r.requestsPerMinute,
    monthly_spend_cap_cents: r.monthlySpendCapCents,
    can_fence: r.revokedAt === null && FENCE_ROLES.includes(member.role),
  }));
}

/** The secret a roll replaced, while it still works. */
function previousSecret(r: { previousPrefix: string | null; previousSecretExpiresAt: Date | null }): { previous_prefix: string | null; previous_secret_expires_at: number | null } {
  const live = r.previousPrefix !== null && r.previousSecretExpiresAt !== null && r.previousSecretExpiresAt.getTime() > clock.nowMs();
  return { previous_prefix: live ? r.previousPrefix : null, previous_secret_expires_at: live ? toUnixSeconds(r.previousSecretExpiresAt) : null };
}

const DAY_MS = 24 * 3600 * 1000;

/** Create a key in the member's mode; the secret is in this answer only. */
export async function createMemberKey(member: Member, input: { name: string; permissions: Permission[]; expiresInDays?: number | undefined }): Promise<CreatedKey> {
  if (input.permissions.length === 0) throw invalidParam('permissions', 'Choose at least one permission.');
  return transaction(async (tx) => {
    // The membership is held until the key commits, so a removal running now waits and then
    // revokes this key with the member's others (keys-of-member.ts); after it, nothing is created.
    const held = await tx.$queryRaw<unknown[]>`
      select 1 from "Membership" where "organizationId" = ${member.organizationId} and "userId" = ${member.userId} for share`;
    if (held.length === 0) throw new DomainError('resource_not_found', `No organization ${member.organizationId}.`, { param: 'organizationId' });
    const key = await createApiKey(tx, {
      organizationId: member.organizationId,
      mode: member.mode,
      name: input.name.trim(),
      permissions: input.permissions,
      createdByUserId: member.userId,
      expiresAt: input.expiresInDays ? new Date(clock.nowMs() + input.expiresInDays * DAY_MS) : null,
    });
    await recordAudit(tx, memberActor(member), member.organizationId, {
      action: 'api_key.created',
      mode: key.mode,
      target: { type: 'api_key', id: key.id },
      details: { name: key.name, prefix: key.prefix, permissions: key.permissions },
    });
    return key;
  });
}

/** Revoke at once (every process's key cache hears it); developers only their own keys. */
export async function revokeMemberKey(member: Member, keyId: string): Promise<{ id: string; revoked_at: number }> {
  const key = await db().apiKey.findFirst({ where: { id: keyId, organizationId: member.organizationId, mode: member.mode } });
  if (!key) throw notFound(`No API key ${keyId}.`, 'keyId');
  if (!canManageKey(member, key)) throw new DomainError('permission_denied', 'Developers can revoke only the keys they created.');
  const revoked = await transaction(async (tx) => {
    // Locked, so only the call that revokes it records it.
    const current = await tx.$queryRaw<{ revokedAt: Date | null }[]>`select "revokedAt" from "ApiKey" where id = ${keyId} for update`;
    const result = await revokeApiKey(tx, keyId);
    if (current[0]?.revokedAt === null) {
      await recordAudit(tx, memberActor(member), member.organizationId, {
        action: 'api_key.revoked',
        mode: key.mode,
        target: { type: 'api_key', id: key.id },
        details: { name: key.name, prefix: key.prefix },
      });
    }
    return result;
  });
  return { id: revoked.id, revoked_at: toUnixSeconds(revoked.revokedAt) };
}

/** Rename a key (its secret and permissions stay); developers only their own. A revoked key keeps its name. */
export async function renameMemberKey(member: Member, keyId: string, name: string): Promise<{ id: string; name: string }> {
  const key = await db().apiKey.findFirst({ where: { id: keyId, organizationId: member.organizationId, mode: member.mode } });
  if (!key) throw notFound(`No API key ${keyId}.`, 'keyId');
  if (!canManageKey(member, key)) throw new DomainError('permission_denied', 'Developers can rename only the keys they created.', { param: 'keyId' });
  if (key.revokedAt) throw new DomainError('parameter_invalid', 'A revoked key cannot be renamed.', { param: 'keyId' });
  return transaction(async (tx) => {
    const renamed = await tx.apiKey.update({ where: { id: key.id }, data: { name: name.trim() } });
    await recordAudit(tx, memberActor(member), member.organizationId, {
      action: 'api_key.renamed',
      mode: key.mode,
      target: { type: 'api_key', id: key.id },
      details: { prefix: key.prefix, from: key.name, to: renamed.name },
    });
    return { id: renamed.id, name: renamed.name };
  });
}

const FENCE_ROLES: readonly Role[] = ['owner', 'admin'];

/**
 * Set a key's fences (owners and admins; a developer's key included, since fences guard the
 * organization's money). Limits must sit below the organization's: a request rate under its
 * tier's, a spend cap under its monthly limit. Every process's key cache forgets the key in
 * the same transaction, as on revocation, so the next request meets the new fences; the
 * change is audited with what it was and what it became.
 */
export async function updateMemberKeyFences(
  member: Member,
  keyId: string,
  input: { allowedIps: string[]; requestsPerMinute: number | null; monthlySpendCapCents: number | null },
): Promise<KeyFences & { id: string }> {
  requireRole(member, FENCE_ROLES);
  const allowedIps = normalizeAllowlist(input.allowedIps, 'allowedIps');
  const org = await db().organization.findUniqueOrThrow({ where: { id: member.organizationId }, select: { tier: true, monthlyLimitCents: true } });
  const orgRate = tierOf(org.tier).requestsPerMinute;
  if (input.requestsPerMinute !== null && input.requestsPerMinute >= orgRate) {
    throw invalidParam('requestsPerMinute', `A key's request rate must be below the organization's (${orgRate} per minute).`);
  }
  const orgLimit = monthlyLimitCents(org, org.tier);
  if (input.monthlySpendCapCents !== null && input.monthlySpendCapCents >= orgLimit) {
    throw invalidParam('monthlySpendCapCents', `A key's monthly spend cap must be below the organization's monthly limit (${orgLimit} cents).`);
  }
  return transaction(async (tx) => {
    const key = await lockManagedKey(tx, member, keyId, 'change the fences of');
    const before: KeyFences = { allowedIps: key.allowedIps, requestsPerMinute: key.requestsPerMinute, monthlySpendCapCents: key.monthlySpendCapCents };
    const after: KeyFences = { allowedIps, requestsPerMinute: input.requestsPerMinute, monthlySpendCapCents: input.monthlySpendCapCents };
    await tx.apiKey.update({ where: { id: keyId }, data: after });
    await announceKeySecrets(tx, key);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await recordAudit(tx, memberActor(member), member.organizationId, {
        action: 'api_key.fences_updated',
        mode: key.mode,
        target: { type: 'api_key', id: key.id },
        details: {
          name: key.name,
          prefix: key.prefix,
          from: { allowed_ips: before.allowedIps, requests_per_minute: before.requestsPerMinute, monthly_spend_cap_cents: before.monthlySpendCapCents },
          to: { allowed_ips: after.allowedIps, requests_per_minute: after.requestsPerMinute, monthly_spend_cap_cents: after.monthlySpendCapCents },
        },
      });
    }
    return { id: key.id, ...after };
  });
}

/**
 * The key a member may manage, locked for the change (its organization and mode, else 404; a
 * developer's own, else 403; not revoked, else 400). Inside the change's transaction.
 */
export async function lockManagedKey(tx: DbTx, member: Member, keyId: string, verb: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    select id from "ApiKey" where id = ${keyId} and "organizationId" = ${member.organizationId} and mode = ${member.mode}::"Mode" for update`;
  if (rows.length === 0) throw notFound(`No API key ${keyId}.`, 'keyId');
  const key = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  if (!canManageKey(member, key)) throw new DomainError('permission_denied', `Developers can ${verb} only the keys they created.`, { param: 'keyId' });
  if (key.revokedAt) throw new DomainError('parameter_invalid', 'A revoked key cannot be changed.', { param: 'keyId' });
  return key;
}

/**
 * Set, change or remove a key's expiry (`expiresInDays` from now; null: never), by whoever may
 * manage the key. An expired key given a new expiry works again. Every process's key cache
 * forgets the key in the same transaction; audited with the expiry before and after.
 */
export async function setMemberKeyExpiry(member: Member, keyId: string, expiresInDays: number | null): Promise<{ id: string; expires_at: number | null }> {
  return transaction(async (tx) => {
    const key = await lockManagedKey(tx, member, keyId, 'change the expiry of');
    const expiresAt = expiresInDays === null ? null : new Date(clock.nowMs() + expiresInDays * DAY_MS);
    await tx.apiKey.update({ where: { id: key.id }, data: { expiresAt } });
    await announceKeySecrets(tx, key);
    await recordAudit(tx, memberActor(member), member.organizationId, {
      action: 'api_key.expiry_changed',
      mode: key.mode,
      target: { type: 'api_key', id: key.id },
      details: { name: key.name, prefix: key.prefix, from: toUnixSeconds(key.expiresAt), to: toUnixSeconds(expiresAt) },
    });
    return { id: key.id, expires_at: toUnixSeconds(expiresAt) };
  });
}
