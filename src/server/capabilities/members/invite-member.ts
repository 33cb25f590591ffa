import { db, type DbTx } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import { normalizeEmail } from '@/server/capabilities/mail/email-address';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { requireVerified } from '@/server/capabilities/auth/email-verification';
import { linkTokenHash, newLinkToken } from '@/server/capabilities/auth/link-tokens';
import { mailSafeOrganizationName } from '@/shared/orgs/organization-name';
import { canAssignRole, memberActor, type Member, type Role } from '@/server/capabilities/access/roles';
import type { InvitationView } from './list-invitations';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Invitations send mail to addresses outside the organization, so they are limited: a user sends
 * at most INVITATIONS_PER_USER_PER_HOUR (over every organization), an organization at most
 * INVITATIONS_PER_ORGANIZATION_PER_DAY. Every invitation sent counts, revoked or replaced ones too.
 */
export const INVITATIONS_PER_USER_PER_HOUR = 20;
export const INVITATIONS_PER_ORGANIZATION_PER_DAY = 50;
const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

export const invitationTokenHash = linkTokenHash;

/** Where an invitation's link leads (the console's acceptance page). */
export function invitationUrl(token: string): string {
  return `${config().publicBaseUrl}/invitations/${token}`;
}

/** Refuse when `count` invitations already sent since `since` reach `limit`; Retry-After: until the oldest leaves the window. */
async function requireUnderLimit(
  tx: DbTx,
  where: { invitedByUserId: string } | { organizationId: string },
  limit: number,
  windowMs: number,
  what: string,
): Promise<void> {
  const now = clock.nowMs();
  const recent = await tx.invitation.findMany({
    where: { ...where, createdAt: { gt: new Date(now - windowMs) } },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: { createdAt: true },
  });
  if (recent.length < limit) return;
  const oldest = recent[recent.length - 1]!.createdAt.getTime();
  throw new DomainError('rate_limit_exceeded', `Too many invitations: ${what}. Try again later.`, {
    retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
  });
}

/**
 * Invite someone by e-mail with a role. A new invitation to the same address replaces the
 * pending one (its link stops working). The token travels only in the mail; its hash is stored.
 * Only an account with a verified address invites, within the limits above (counted with the
 * inviter's and the organization's rows locked, so parallel requests cannot pass them).
 */
export async function inviteMember(member: Member, input: { email: string; role: Role }): Promise<InvitationView> {
  if (!canAssignRole(member, input.role)) {
    throw new DomainError('permission_denied', 'Only an owner can invite an owner.', { param: 'role' });
  }
  const email = normalizeEmail(input.email);
  const existing = await db().membership.findFirst({ where: { organizationId: member.organizationId, user: { email } } });
  if (existing) throw new DomainError('already_member', `${email} is already a member of this organization.`, { param: 'email' });
  const { token, hash } = newLinkToken();
  const now = clock.now();
  const { invitation, organization, inviter } = await db().$transaction(async (tx) => {
    const [inviter] = await tx.$queryRaw<{ email: string; emailVerified: Date | null }[]>`select email, "emailVerified" from "User" where id = ${member.userId} for update`;
    if (!inviter) throw new DomainError('session_missing', 'Sign in again.');
    requireVerified(inviter, 'invite anyone');
    await tx.$queryRaw`select id from "Organization" where id = ${member.organizationId} for update`;
    // Removed or demoted since the request began: the removal ended their invitations, so no new one.
    const current = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: member.organizationId, userId: member.userId } }, select: { role: true } });
    if (!current || !canAssignRole({ ...member, role: current.role }, input.role) || current.role === 'developer') {
      throw new DomainError('permission_denied', 'Your role in this organization no longer lets you invite with this role.', { param: 'role' });
    }
    await requireUnderLimit(tx, { invitedByUserId: member.userId }, INVITATIONS_PER_USER_PER_HOUR, HOUR_MS, `${INVITATIONS_PER_USER_PER_HOUR} per user per hour`);
    await requireUnderLimit(tx, { organizationId: member.organizationId }, INVITATIONS_PER_ORGANIZATION_PER_DAY, DAY_MS, `${INVITATIONS_PER_ORGANIZATION_PER_DAY} per organization per day`);
    await tx.invitation.updateMany({ where: { organizationId: member.organizationId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    const invitation = await tx.invitation.create({
      data: {
        id: newId('inv'),
        organizationId: member.organizationId,
        email,
        role: input.role,
        tokenHash: hash,
        invitedByUserId: member.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      },
    });
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: member.organizationId }, select: { id: true, name: true } });
    await recordAudit(tx, memberActor(member), member.organizationId, { action: 'member.invited', target: { type: 'invitation', id: invitation.id }, details: { email, role: input.role } });
    return { invitation, organization, inviter };
  });
  const orgName = mailSafeOrganizationName(organization);
  await sendMail({
    kind: 'access',
    to: email,
    subject: `Invitation to join “${orgName}” on Roomtone`,
    text:
      `${inviter.email} invites you to join the organization “${orgName}” on Roomtone as ${input.role}.\n\n` +
      `Accept within 7 days: ${invitationUrl(token)}\n\n` +
      'If you do not know the sender, ignore this message.\n',
  });
  return {
    id: invitation.id,
    email,
    role: invitation.role,
    invited_by: inviter.email,
    created_at: toUnixSeconds(invitation.createdAt),
    expires_at: toUnixSeconds(invitation.expiresAt),
  };
}
