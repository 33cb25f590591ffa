import { createHash } from 'node:crypto';
import { db } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { newId, randomBase62 } from '@/server/platform/ids';
import { sendMail } from '@/server/mail/send-mail';
import { normalizeEmail } from '@/server/auth/verify-credentials';
import { canAssignRole, type Member, type Role } from './roles';
import type { InvitationView } from './list-members';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export function invitationTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Where an invitation's link leads (the console's acceptance page). */
export function invitationUrl(token: string): string {
  return `${config().publicBaseUrl}/invitations/${token}`;
}

/**
 * Invite someone by e-mail with a role. A new invitation to the same address replaces the
 * pending one (its link stops working). The token travels only in the mail; its hash is stored.
 */
export async function inviteMember(member: Member, input: { email: string; role: Role }): Promise<InvitationView> {
  if (!canAssignRole(member, input.role)) {
    throw new DomainError('permission_denied', 'Only an owner can invite an owner.', { param: 'role' });
  }
  const email = normalizeEmail(input.email);
  const existing = await db().membership.findFirst({ where: { organizationId: member.organizationId, user: { email } } });
  if (existing) throw new DomainError('already_member', `${email} is already a member of this organization.`, { param: 'email' });
  const token = randomBase62(40);
  const now = clock.now();
  const { invitation, organization, inviter } = await db().$transaction(async (tx) => {
    await tx.invitation.deleteMany({ where: { organizationId: member.organizationId, email, acceptedAt: null } });
    const invitation = await tx.invitation.create({
      data: {
        id: newId('inv'),
        organizationId: member.organizationId,
        email,
        role: input.role,
        tokenHash: invitationTokenHash(token),
        invitedByUserId: member.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      },
    });
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: member.organizationId }, select: { name: true } });
    const inviter = await tx.user.findUniqueOrThrow({ where: { id: member.userId }, select: { email: true } });
    return { invitation, organization, inviter };
  });
  await sendMail({
    to: email,
    subject: `You are invited to ${organization.name} on Roomtone`,
    text: `${inviter.email} invites you to join ${organization.name} on Roomtone as ${input.role}.\n\nAccept within 7 days: ${invitationUrl(token)}\n`,
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
