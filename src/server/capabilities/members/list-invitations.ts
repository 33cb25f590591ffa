import { db } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { Member, Role } from '@/server/capabilities/access/roles';

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
}

/** Pending invitations (not accepted, revoked or expired) of the member's organization, newest first (cursor: invitation id). */
export async function listPendingInvitations(member: Member, page: PageParams): Promise<Page<InvitationView>> {
  const pending = { organizationId: member.organizationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: clock.now() } };
  let after: { createdAt: Date; id: string } | null = null;
  if (page.cursor) {
    const row = await db().invitation.findFirst({ where: { id: page.cursor, organizationId: member.organizationId } });
    if (!row) throw invalidParam('cursor', 'Unknown cursor.');
    after = { createdAt: row.createdAt, id: row.id };
  }
  const rows = await db().invitation.findMany({
    where: { ...pending, ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
  });
  const inviterIds = [...new Set(rows.map((i) => i.invitedByUserId).filter((id): id is string => id !== null))];
  const inviters = new Map((await db().user.findMany({ where: { id: { in: inviterIds } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]));
  return pageOf(rows, page.limit, (i) => i.id, (i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    invited_by: i.invitedByUserId ? (inviters.get(i.invitedByUserId) ?? null) : null,
    created_at: toUnixSeconds(i.createdAt),
    expires_at: toUnixSeconds(i.expiresAt),
  }));
}
