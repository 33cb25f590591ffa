import { db } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { Member, Role } from './roles';

export interface MemberView {
  user_id: string;
  email: string;
  name: string | null;
  role: Role;
  joined_at: number;
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
}

/** Members, oldest first (cursor: user id); the first page also lists pending invitations. */
export async function listMembers(member: Member, page: PageParams): Promise<Page<MemberView> & { pending_invitations: InvitationView[] }> {
  let after: { createdAt: Date; userId: string } | null = null;
  if (page.cursor) {
    const row = await db().membership.findUnique({ where: { organizationId_userId: { organizationId: member.organizationId, userId: page.cursor } } });
    if (!row) throw invalidParam('cursor', 'Unknown cursor.');
    after = { createdAt: row.createdAt, userId: row.userId };
  }
  const rows = await db().membership.findMany({
    where: {
      organizationId: member.organizationId,
      ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, userId: { gt: after.userId } }] } : {}),
    },
    orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
    take: page.limit + 1,
    include: { user: { select: { email: true, name: true } } },
  });
  const result = pageOf(rows, page.limit, (r) => r.userId, (r) => ({
    user_id: r.userId,
    email: r.user.email,
    name: r.user.name,
    role: r.role,
    joined_at: toUnixSeconds(r.createdAt),
  }));
  const pending = page.cursor
    ? []
    : await db().invitation.findMany({
        where: { organizationId: member.organizationId, acceptedAt: null, expiresAt: { gt: clock.now() } },
        orderBy: { createdAt: 'desc' },
        take: 100,
      });
  const inviters = new Map(
    (await db().user.findMany({ where: { id: { in: pending.map((i) => i.invitedByUserId).filter((id): id is string => id !== null) } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]),
  );
  return {
    ...result,
    pending_invitations: pending.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      invited_by: i.invitedByUserId ? (inviters.get(i.invitedByUserId) ?? null) : null,
      created_at: toUnixSeconds(i.createdAt),
      expires_at: toUnixSeconds(i.expiresAt),
    })),
  };
}
