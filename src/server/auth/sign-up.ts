import { transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { createOrganization } from '@/server/orgs/orgs';
import { acceptInvitationTx } from '@/server/members/accept-invitation';
import type { Role } from '@/server/members/roles';
import { checkPasswordRule, hashPassword } from './password';
import { requireAttemptAllowed } from './sign-in-limits';
import { normalizeEmail } from './verify-credentials';

export interface SignUpInput {
  email: string;
  password: string;
  name?: string | undefined;
  /** A new organization of which the new user is owner (open sign-up). */
  organizationName?: string | undefined;
  /** Or: join the organization of this invitation (always allowed; the address must match). */
  invitationToken?: string | undefined;
}

/**
 * Create an account: either with a new organization (when CONSOLE_OPEN_SIGNUP is on, the
 * default) or by accepting an invitation. The client then signs in through Auth.js.
 */
export async function signUp(input: SignUpInput, ip: string | null): Promise<{ user_id: string; organization_id: string; role: Role }> {
  const email = normalizeEmail(input.email);
  await requireAttemptAllowed(email, ip);
  if (!input.invitationToken) {
    if (!config().CONSOLE_OPEN_SIGNUP) {
      throw new DomainError('signup_disabled', 'Sign-up is by invitation on this Roomtone. Ask an organization admin to invite you.');
    }
    if (!input.organizationName?.trim()) throw invalidParam('organizationName', 'Name the organization to create.');
  }
  checkPasswordRule(input.password);
  const passwordHash = await hashPassword(input.password);
  return transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
      throw new DomainError('email_taken', 'An account with this e-mail address exists: sign in instead.', { param: 'email' });
    }
    const user = await tx.user.create({ data: { id: newId('usr'), email, name: input.name?.trim() || null, passwordHash, createdAt: clock.now() } });
    if (input.invitationToken) {
      const joined = await acceptInvitationTx(tx, user, input.invitationToken);
      return { user_id: user.id, ...joined };
    }
    const org = await createOrganization(tx, { name: (input.organizationName ?? '').trim() });
    await tx.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner', createdAt: clock.now() } });
    return { user_id: user.id, organization_id: org.id, role: 'owner' as const };
  });
}
