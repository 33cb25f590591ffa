import { transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError, invalidParam } from '@/server/platform/errors';
import type { SessionUser } from '@/server/capabilities/auth/sessions';
import { requireAttemptAllowed } from '@/server/capabilities/auth/sign-in-limits';
import { requireVerified } from '@/server/capabilities/auth/email-verification';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { userActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { organizationNameProblem } from '@/shared/orgs/organization-name';
import { createOrganization } from './orgs';

/** Whether a signed-in user may open an organization here: the open sign-up rule. */
export function organizationsOpenToUsers(): boolean {
  return config().CONSOLE_OPEN_SIGNUP;
}

/** Organizations one user may create in the console within 24 hours (sign-up's own included). */
export const ORGANIZATIONS_PER_USER_PER_DAY = 5;
const DAY_MS = 24 * 3600 * 1000;

/**
 * A signed-in user opens a new organization and becomes its owner (no credit: money is added
 * from Billing) — what open sign-up gives a new account, for an existing one (a member removed
 * from their last organization, or anyone who wants a second one). Refused like sign-up when
 * sign-up is by invitation (CONSOLE_OPEN_SIGNUP=false: organizations come from the operator
 * then). It counts against the sign-up attempt limits, needs a confirmed address, and a user
 * creates at most ORGANIZATIONS_PER_USER_PER_DAY a day (counted with the user's row locked, so
 * parallel requests cannot pass it).
 */
export async function createMyOrganization(user: SessionUser, name: string, origin: RequestOrigin): Promise<{ id: string; name: string }> {
  if (!organizationsOpenToUsers()) {
    throw new DomainError('signup_disabled', 'New organizations come from the operator on this Roomtone. Ask an owner or admin of an organization to invite you.');
  }
  const problem = organizationNameProblem(name);
  if (problem) throw invalidParam('name', problem);
  await requireAttemptAllowed(user.email, origin.ip);
  return transaction(async (tx) => {
    const [account] = await tx.$queryRaw<{ emailVerified: Date | null }[]>`select "emailVerified" from "User" where id = ${user.id} for update`;
    if (!account) throw new DomainError('session_missing', 'Sign in again.');
    requireVerified(account, 'create an organization');
    const now = clock.now();
    const recent = await tx.membership.count({ where: { userId: user.id, role: 'owner', createdAt: { gt: new Date(now.getTime() - DAY_MS) } } });
    if (recent >= ORGANIZATIONS_PER_USER_PER_DAY) {
      throw new DomainError('rate_limit_exceeded', `You can create at most ${ORGANIZATIONS_PER_USER_PER_DAY} organizations a day. Try again tomorrow.`, { retryAfterSeconds: 3600 });
    }
    const org = await createOrganization(tx, { name: name.trim() });
    await tx.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner', createdAt: now } });
    await recordAudit(tx, userActor(user, origin), org.id, { action: 'organization.created', target: { type: 'organization', id: org.id }, details: { name: org.name } });
    return { id: org.id, name: org.name };
  });
}
