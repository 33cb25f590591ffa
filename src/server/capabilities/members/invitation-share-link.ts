import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { DomainError, notFound } from '@/server/platform/errors';
import { linkTokenHash, newLinkToken } from '@/server/capabilities/auth/link-tokens';
import { canAssignRole, type Member } from '@/server/capabilities/access/roles';
import { invitationUrl } from './invite-member';

/**
 * A link to a pending invitation that the inviter may copy and pass on (chat, ticket). It must
 * not be the mailed link: opening that one to sign up proves the address, so an inviter holding
 * it could open an account in the invitee's name. This one proves nothing: it shows the
 * invitation and lets only an account whose address is the invited one and already confirmed
 * accept it (sign-up through it is refused: the invitee signs up with the mailed link, or signs
 * in). A new copy replaces the previous one; revoking or resending the invitation ends it.
 */
export async function invitationShareLink(member: Member, invitationId: string): Promise<{ url: string; email: string }> {
  const invitation = await db().invitation.findFirst({
    where: { id: invitationId, organizationId: member.organizationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: clock.now() } },
  });
  if (!invitation) throw notFound(`No pending invitation ${invitationId}.`, 'invitationId');
  if (!canAssignRole(member, invitation.role)) {
    throw new DomainError('permission_denied', 'Only an owner can copy the link of an invitation to the owner role.', { param: 'invitationId' });
  }
  const { token, hash } = newLinkToken();
  const updated = await db().invitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null }, data: { shareTokenHash: hash } });
  if (updated.count === 0) throw notFound(`No pending invitation ${invitationId}.`, 'invitationId');
  return { url: invitationUrl(token), email: invitation.email };
}

/** The invitation a link opens, mailed or shared; `proves_address`: only the mailed link does. */
export async function findInvitationByLink<T>(
  find: (where: { tokenHash: string } | { shareTokenHash: string }) => Promise<T | null>,
  token: string,
): Promise<{ invitation: T; provesAddress: boolean } | null> {
  const hash = linkTokenHash(token);
  const mailed = await find({ tokenHash: hash });
  if (mailed) return { invitation: mailed, provesAddress: true };
  const shared = await find({ shareTokenHash: hash });
  return shared ? { invitation: shared, provesAddress: false } : null;
}
