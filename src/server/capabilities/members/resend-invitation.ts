import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { notFound } from '@/server/platform/errors';
import { inviteMember } from './invite-member';
import type { InvitationView } from './list-invitations';
import type { Member } from '@/server/capabilities/access/roles';

/**
 * Send a pending invitation again: a new mail with a new link, valid 7 days from now; the old
 * link stops working. It is a new invitation under the same rules (who may invite with the
 * role, the per-user and per-organization limits).
 */
export async function resendInvitation(member: Member, invitationId: string): Promise<InvitationView> {
  const invitation = await db().invitation.findFirst({
    where: { id: invitationId, organizationId: member.organizationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: clock.now() } },
    select: { email: true, role: true },
  });
  if (!invitation) throw notFound(`No pending invitation ${invitationId}.`, 'invitationId');
  return inviteMember(member, { email: invitation.email, role: invitation.role });
}
