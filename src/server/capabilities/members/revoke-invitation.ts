import { db, type DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { DomainError, notFound } from '@/server/platform/errors';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { canAssignRole, memberActor, type Member, type Role } from '@/server/capabilities/access/roles';

/**
 * Revoke a pending invitation: its link stops working at once. Whoever may invite with its role
 * may revoke it (an admin cannot revoke an owner's invitation to the owner role). An invitation
 * of another organization, or one no longer pending, is not found.
 */
export async function revokeInvitation(member: Member, invitationId: string): Promise<{ id: string; revoked: true }> {
  const invitation = await db().invitation.findFirst({
    where: { id: invitationId, organizationId: member.organizationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: clock.now() } },
  });
  if (!invitation) throw notFound(`No pending invitation ${invitationId}.`, 'invitationId');
  if (!canAssignRole(member, invitation.role)) {
    throw new DomainError('permission_denied', 'Only an owner can revoke an invitation to the owner role.', { param: 'invitationId' });
  }
  await db().$transaction(async (tx) => {
    const revoked = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null }, data: { revokedAt: clock.now() } });
    if (revoked.count === 1) {
      await recordAudit(tx, memberActor(member), member.organizationId, { action: 'member.invitation_revoked', target: { type: 'invitation', id: invitation.id }, details: { email: invitation.email, role: invitation.role } });
    }
  });
  return { id: invitation.id, revoked: true };
}

/**
 * The pending invitations someone sent in an organization end when they can no longer send them:
 * removed from it, or given a role that could not have invited with those roles (a developer
 * invites no one; an admin invites no owner). Runs in the transaction of that change.
 */
export async function endInvitationsOfInviter(tx: DbTx, organizationId: string, userId: string, newRole: Role | null): Promise<number> {
  if (newRole === 'owner') return 0;
  const ended = await tx.invitation.updateMany({
    where: {
      organizationId,
      invitedByUserId: userId,
      acceptedAt: null,
      revokedAt: null,
      ...(newRole === 'admin' ? { role: 'owner' as const } : {}),
    },
    data: { revokedAt: clock.now() },
  });
  return ended.count;
}
