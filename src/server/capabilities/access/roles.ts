import { db } from '@/server/platform/db';
import { DomainError, notFound } from '@/server/platform/errors';
import { NO_ORIGIN, type AuditActor } from '@/server/capabilities/audit/actor';
import { PERMISSIONS, type Permission } from '@/shared/keys/permissions';
import type { MemberRole, Mode } from '@/generated/prisma/enums';

/**
 * Console roles. The matrix (docs/console.md):
 *   owner      everything; the only role that grants, changes or removes the owner role.
 *   admin      everything else: all keys, members (admin/developer), billing, settings.
 *   developer  overview, logs, generations (cancel too), usage, settings (read); creates keys
 *              and revokes only the keys they created; no billing, no members.
 * An organization always keeps at least one owner.
 * The console's counterpart of the API key's Caller (caller.ts): billing, keys, settings and
 * the playground are scoped by a Member, so it sits below them, with the Caller.
 */
export type Role = MemberRole;

/** A signed-in user acting in one organization and mode: what every member procedure is scoped by. */
export interface Member {
  userId: string;
  organizationId: string;
  mode: Mode;
  role: Role;
  tier: number;
  /** Who acts, for the audit log (the console sets it from the session: e-mail, IP, user agent). */
  actor?: AuditActor | undefined;
}

export async function requireMembership(userId: string, organizationId: string, mode: Mode): Promise<Member> {
  const membership = await db().membership.findUnique({
    where: { organizationId_userId: { organizationId, userId } },
    select: { role: true, organization: { select: { tier: true, requireTwoFactor: true } }, user: { select: { totpEnabledAt: true } } },
  });
  // Not a member and no such organization answer alike.
  if (!membership) throw notFound(`No organization ${organizationId}.`, 'organizationId');
  if (membership.organization.requireTwoFactor && !membership.user.totpEnabledAt) {
    throw new DomainError('two_factor_enrolment_required', 'This organization requires two-factor sign-in: set it up in your account first.');
  }
  return { userId, organizationId, mode, role: membership.role, tier: membership.organization.tier };
}

/** The member as the audit log's actor (without a door's origin when none was given). */
export function memberActor(member: Member): AuditActor {
  return member.actor ?? { type: 'user', userId: member.userId, origin: NO_ORIGIN };
}

export function requireRole(member: Member, roles: readonly Role[]): void {
  if (!roles.includes(member.role)) {
    throw new DomainError('permission_denied', `This needs the ${roles.join(' or ')} role; you are ${member.role}.`);
  }
}

/** Members act with every API permission of their organization (cancel checks the type's permission). */
export const MEMBER_PERMISSIONS: ReadonlySet<Permission> = new Set(PERMISSIONS);

/** Owner/admin manage every key; a developer only the keys they created. */
export function canManageKey(member: Member, key: { createdByUserId: string | null }): boolean {
  return member.role !== 'developer' || key.createdByUserId === member.userId;
}

/** Whether `actor` may give `target` role to someone, or change/remove someone holding `current`. */
export function canAssignRole(actor: Member, role: Role): boolean {
  if (actor.role === 'owner') return true;
  return actor.role === 'admin' && role !== 'owner';
}
