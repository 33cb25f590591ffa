import { db } from '@/server/platform/db';
import type { SessionUser } from '@/server/capabilities/auth/sessions';
import type { Role } from '@/server/capabilities/access/roles';

export interface MeView {
  user: { id: string; email: string; name: string | null; has_password: boolean };
  organizations: { id: string; name: string; role: Role }[];
  /** Whether the user has two-factor sign-in, and the organizations that require it (their ids). */
  two_factor: { enabled: boolean; required_by: string[] };
}

/** The signed-in user and every organization they belong to (the organization switcher). */
export async function me(user: SessionUser): Promise<MeView> {
  const row = await db().user.findUniqueOrThrow({
    where: { id: user.id },
    select: {
      passwordHash: true,
      totpEnabledAt: true,
      memberships: { select: { role: true, organization: { select: { id: true, name: true, requireTwoFactor: true } } }, orderBy: { createdAt: 'asc' } },
    },
  });
  return {
    user: { id: user.id, email: user.email, name: user.name, has_password: row.passwordHash !== null },
    organizations: row.memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role })),
    two_factor: { enabled: row.totpEnabledAt !== null, required_by: row.memberships.filter((m) => m.organization.requireTwoFactor).map((m) => m.organization.id) },
  };
}
