import { db } from '@/server/platform/db';
import { DomainError, notFound } from '@/server/platform/errors';
import { PERMISSIONS, type Permission } from '@/shared/keys/permissions';
import type { MemberRole, Mode } from '@/generated/prisma/enums';

/**
 * Console roles. The matrix (docs/console.md):
 *   owner      everything; the only role that grants, changes or removes the owner role.
 *   admin      everything else: all keys, members (admin/developer), billing, settings.
 *   developer  overview, logs, generations (cancel too), usage, settings (read); creates keys
 *              and revokes only the keys they created; no billing, no members.
 * An organization always keeps at least one owner.
 */
export type Role = MemberRole;

/** A signed-in user acting in one organization and mode: what every member procedure is scoped by. */
export interface Member {
  userId: string;
  organizationId: string;
  mode: Mode;
  role: Role;
  tier: number;
}

export async function requireMembership(userId: string, organizationId: string, mode: Mode): Promise<Member> {
  const membership = await db().membership.findUnique({
    where: { organizationId_userId: { organizationId, userId } },
    select: { role: true, organization: { select: { tier: true } } },
  });
  // Not a member and no such organization answer alike.
  if (!membership) throw notFound(`No organization ${organizationId}.`, 'organizationId');
  return { userId, organizationId, mode, role: membership.role, tier: membership.organization.tier };
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
