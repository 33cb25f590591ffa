import { db, type DbTx } from '@/server/platform/db';
import { DomainError, notFound } from '@/server/platform/errors';
import { revokeKeysCreatedBy } from '@/server/capabilities/keys/keys-of-member';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { canAssignRole, memberActor, type Member, type Role } from '@/server/capabilities/access/roles';
import { endInvitationsOfInviter } from './revoke-invitation';

/**
 * Role changes and removals. Every change that could take away an owner runs with the
 * organization's row locked, so two concurrent demotions cannot leave it without an owner.
 * The pending invitations the member sent end with their right to send them (revoke-invitation.ts).
 */
async function lockedTarget(tx: DbTx, actor: Member, userId: string) {
  await tx.$queryRaw`select id from "Organization" where id = ${actor.organizationId} for update`;
  const target = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: actor.organizationId, userId } } });
  if (!target) throw notFound(`No member ${userId} in this organization.`, 'userId');
  if (!canAssignRole(actor, target.role)) throw new DomainError('permission_denied', 'Only an owner can change or remove an owner.');
  return target;
}

async function requireAnotherOwner(tx: DbTx, organizationId: string): Promise<void> {
  const owners = await tx.membership.count({ where: { organizationId, role: 'owner' } });
  if (owners <= 1) throw new DomainError('last_owner', 'An organization needs at least one owner: make someone else owner first.');
}

export async function updateMemberRole(actor: Member, input: { userId: string; role: Role }): Promise<{ user_id: string; role: Role }> {
  if (!canAssignRole(actor, input.role)) throw new DomainError('permission_denied', 'Only an owner can make someone owner.', { param: 'role' });
  return db().$transaction(async (tx) => {
    const target = await lockedTarget(tx, actor, input.userId);
    if (target.role === 'owner' && input.role !== 'owner') await requireAnotherOwner(tx, actor.organizationId);
    await tx.membership.update({ where: { organizationId_userId: { organizationId: actor.organizationId, userId: input.userId } }, data: { role: input.role } });
    const ended = await endInvitationsOfInviter(tx, actor.organizationId, input.userId, input.role);
    await recordAudit(tx, memberActor(actor), actor.organizationId, { action: 'member.role_changed', target: { type: 'user', id: input.userId }, details: { from: target.role, to: input.role, invitations_ended: ended } });
    return { user_id: input.userId, role: input.role };
  });
}

/**
 * Remove a member and revoke the API keys they created (keys/keys-of-member.ts). The membership
 * goes first: a key being created by that member holds the membership row until it commits, so
 * it is revoked here too, and a later one finds no membership.
 */
export async function removeMember(actor: Member, input: { userId: string }): Promise<{ user_id: string; removed: true; revoked_keys: string[] }> {
  return db().$transaction(async (tx) => {
    const target = await lockedTarget(tx, actor, input.userId);
    if (target.role === 'owner') await requireAnotherOwner(tx, actor.organizationId);
    await tx.membership.delete({ where: { organizationId_userId: { organizationId: actor.organizationId, userId: input.userId } } });
    const ended = await endInvitationsOfInviter(tx, actor.organizationId, input.userId, null);
    const revoked = await revokeKeysCreatedBy(tx, actor.organizationId, input.userId);
    await recordAudit(tx, memberActor(actor), actor.organizationId, { action: 'member.removed', target: { type: 'user', id: input.userId }, details: { role: target.role, revoked_keys: revoked, invitations_ended: ended } });
    return { user_id: input.userId, removed: true as const, revoked_keys: revoked };
  });
}
