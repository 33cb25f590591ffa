import { db, type DbTx } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { DomainError } from '@/server/platform/errors';
import { requireVerified } from '@/server/capabilities/auth/email-verification';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { NO_ORIGIN, userActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { findInvitationByLink } from './invitation-share-link';
import type { Role } from '@/server/capabilities/access/roles';

export interface InvitationPreview {
  organization: { id: string; name: string };
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: number;
  status: 'pending' | 'accepted' | 'expired';
  /** Whether the invited address already has an account (sign in) or not (sign up). */
  account_exists: boolean;
  /** `mailed`: the link from the invitation mail (signing up with it proves the address); `shared`: a copy passed on by the inviter (sign in only). */
  link: 'mailed' | 'shared';
}

function invalid(): DomainError {
  return new DomainError('invitation_invalid', 'This invitation link is unknown, was replaced by a newer one or was revoked.', { param: 'token' });
}

/** What the acceptance page shows, to whoever holds the token. */
export async function previewInvitation(token: string): Promise<InvitationPreview> {
  const found = await findInvitationByLink((where) => db().invitation.findUnique({ where, include: { organization: { select: { id: true, name: true } } } }), token);
  const invitation = found?.invitation;
  // A revoked link says no more than an unknown one (not even the organization's name).
  if (!found || !invitation || invitation.revokedAt) throw invalid();
  const [inviter, account] = await Promise.all([
    invitation.invitedByUserId ? db().user.findUnique({ where: { id: invitation.invitedByUserId }, select: { email: true } }) : null,
    db().user.findUnique({ where: { email: invitation.email }, select: { id: true } }),
  ]);
  return {
    organization: invitation.organization,
    email: invitation.email,
    role: invitation.role,
    invited_by: inviter?.email ?? null,
    expires_at: toUnixSeconds(invitation.expiresAt),
    status: invitation.acceptedAt ? 'accepted' : invitation.expiresAt.getTime() <= clock.nowMs() ? 'expired' : 'pending',
    account_exists: account !== null,
    link: found.provesAddress ? 'mailed' : 'shared',
  };
}

/**
 * Accept: the invitation is used once (one conditional UPDATE) by the account of the address it
 * was sent to, and makes that account a member with the invited role. The account's address must
 * be proven: an account someone opened with another person's address cannot take their place.
 */
export async function acceptInvitationTx(
  tx: DbTx,
  user: { id: string; email: string },
  token: string,
  options: { onlyMailedLink?: boolean; origin?: RequestOrigin } = {},
): Promise<{ organization_id: string; role: Role }> {
  const found = await findInvitationByLink((where) => tx.invitation.findUnique({ where }), token);
  const invitation = found?.invitation;
  if (!found || !invitation || invitation.revokedAt) throw invalid();
  if (options.onlyMailedLink && !found.provesAddress) {
    throw new DomainError('permission_denied', `This link was copied by the inviter and does not prove the address: create your account with the link mailed to ${invitation.email}, or sign in with that address.`, {
      param: 'invitationToken',
    });
  }
  if (invitation.email !== user.email) {
    throw new DomainError('permission_denied', `This invitation was sent to ${invitation.email}; sign in with that address to accept it.`);
  }
  requireVerified(await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { emailVerified: true } }), 'accept an invitation');
  const now = clock.now();
  const used = await tx.invitation.updateMany({
    where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { acceptedAt: now, acceptedUserId: user.id },
  });
  if (used.count === 0) throw new DomainError('invitation_used', 'This invitation has already been used or has expired. Ask for a new one.', { param: 'token' });
  const existing = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: invitation.organizationId, userId: user.id } } });
  if (existing) throw new DomainError('already_member', 'You are already a member of this organization.');
  await tx.membership.create({ data: { organizationId: invitation.organizationId, userId: user.id, role: invitation.role, createdAt: now } });
  await recordAudit(tx, userActor(user, options.origin ?? NO_ORIGIN), invitation.organizationId, {
    action: 'member.invitation_accepted',
    target: { type: 'invitation', id: invitation.id },
    details: { email: invitation.email, role: invitation.role, invited_by: invitation.invitedByUserId },
  });
  return { organization_id: invitation.organizationId, role: invitation.role };
}

export function acceptInvitation(user: { id: string; email: string }, token: string, origin: RequestOrigin = NO_ORIGIN) {
  return db().$transaction((tx) => acceptInvitationTx(tx, user, token, { origin }));
}
