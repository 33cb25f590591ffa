import { db, type DbTx } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { DomainError } from '@/server/platform/errors';
import type { Member } from '@/server/capabilities/access/roles';
import { revokeApiKey } from './keys';

/**
 * The API keys a member created, which go when the member goes: removing a member revokes
 * every active key they created, in both modes, in the removal's own transaction (the remover
 * is shown them first). A person who has left must not keep using the organization's money
 * through a secret they copied, and handing such a key to someone else would not take it out
 * of their hands; keys made by the CLI or the seed (no creator) are left alone.
 */
export interface CreatedKeyView {
  id: string;
  name: string;
  mode: 'test' | 'live';
  prefix: string;
  last_used_at: number | null;
}

function activeKeysOf(tx: DbTx, organizationId: string, userId: string) {
  return tx.apiKey.findMany({
    where: { organizationId, createdByUserId: userId, revokedAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** What removing `userId` would revoke (owners and admins see it before confirming). */
export async function keysRevokedByRemoval(actor: Member, userId: string): Promise<{ data: CreatedKeyView[] }> {
  const membership = await db().membership.findUnique({ where: { organizationId_userId: { organizationId: actor.organizationId, userId } }, select: { userId: true } });
  if (!membership) throw new DomainError('resource_not_found', `No member ${userId} in this organization.`, { param: 'userId' });
  const keys = await activeKeysOf(db(), actor.organizationId, userId);
  return { data: keys.map((k) => ({ id: k.id, name: k.name, mode: k.mode, prefix: k.prefix, last_used_at: toUnixSeconds(k.lastUsedAt) })) };
}

/** Inside the removal's transaction: revoke them all (every process's key cache hears it at commit). */
export async function revokeKeysCreatedBy(tx: DbTx, organizationId: string, userId: string): Promise<string[]> {
  const keys = await activeKeysOf(tx, organizationId, userId);
  for (const key of keys) await revokeApiKey(tx, key.id);
  return keys.map((k) => k.id);
}
