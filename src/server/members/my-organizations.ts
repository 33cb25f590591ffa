import { db } from '@/server/platform/db';
import type { SessionUser } from '@/server/auth/sessions';
import type { Role } from './roles';

export interface MeView {
  user: { id: string; email: string; name: string | null; has_password: boolean };
  organizations: { id: string; name: string; role: Role }[];
}

/** The signed-in user and every organization they belong to (the organization switcher). */
export async function me(user: SessionUser): Promise<MeView> {
  const row = await db().user.findUniqueOrThrow({
    where: { id: user.id },
    select: { passwordHash: true, memberships: { select: { role: true, organization: { select: { id: true, name: true } } }, orderBy: { createdAt: 'asc' } } },
  });
  return {
    user: { id: user.id, email: user.email, name: user.name, has_password: row.passwordHash !== null },
    organizations: row.memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role })),
  };
}
