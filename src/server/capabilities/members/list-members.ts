import { db } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { Member, Role } from '@/server/capabilities/access/roles';

export interface MemberView {
  user_id: string;
  email: string;
  name: string | null;
  role: Role;
  joined_at: number;
}

/** Members, oldest first (cursor: user id). Pending invitations are listed by list-invitations.ts. */
export async function listMembers(member: Member, page: PageParams): Promise<Page<MemberView>> {
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
  return pageOf(rows, page.limit, (r) => r.userId, (r) => ({
    user_id: r.userId,
    email: r.user.email,
    name: r.user.name,
    role: r.role,
    joined_at: toUnixSeconds(r.createdAt),
  }));
}
