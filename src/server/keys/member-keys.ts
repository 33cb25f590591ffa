import { db, transaction } from '@/server/platform/db';
import { recordAudit } from '@/server/audit/record-audit';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { DomainError, invalidParam, notFound } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import { canManageKey, memberActor, type Member } from '@/server/members/roles';
import type { Permission } from '@/shared/keys/permissions';
import { createApiKey, revokeApiKey, type CreatedKey } from './keys';

/** API keys as the console's members see and manage them: always in the member's mode. */
export interface KeyView {
  id: string;
  name: string;
  mode: 'test' | 'live';
  permissions: string[];
  /** First characters of the secret and its last four are all that is ever shown again. */
  prefix: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** When it stops working (null: never), and whether that time has come. */
  expires_at: number | null;
  expired: boolean;
  /** Whether this member may revoke or rename it (developers: only their own keys). */
  can_revoke: boolean;
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
    created_by: r.createdByUserId ? (creators.get(r.createdByUserId) ?? null) : null,
    created_at: toUnixSeconds(r.createdAt),
    last_used_at: toUnixSeconds(r.lastUsedAt),
    revoked_at: toUnixSeconds(r.revokedAt),
    expires_at: toUnixSeconds(r.expiresAt),
    expired: r.expiresAt !== null && r.expiresAt.getTime() <= clock.nowMs(),
    can_revoke: r.revokedAt === null && canManageKey(member, r),
  }));
}

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
      expiresAt: input.expiresInDays ? new Date(clock.nowMs() + input.expiresInDays * 24 * 3600 * 1000) : null,
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
