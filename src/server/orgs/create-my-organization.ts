import { transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError, invalidParam } from '@/server/platform/errors';
import type { SessionUser } from '@/server/auth/sessions';
import { requireAttemptAllowed } from '@/server/auth/sign-in-limits';
import { createOrganization } from './orgs';
import { organizationNameProblem } from '@/shared/orgs/organization-name';

/** Whether a signed-in user may open an organization here: the open sign-up rule. */
export function organizationsOpenToUsers(): boolean {
  return config().CONSOLE_OPEN_SIGNUP;
}

/**
 * A signed-in user opens a new organization and becomes its owner — what open sign-up gives a
 * new account, for an existing one (a member removed from their last organization, or anyone
 * who wants a second one). Refused like sign-up when sign-up is by invitation
 * (CONSOLE_OPEN_SIGNUP=false: organizations come from the operator then). It counts against the
 * same per-account and per-IP attempt limits as sign-up, so it cannot be scripted into thousands
 * of organizations (each with its own test quota).
 */
export async function createMyOrganization(user: SessionUser, name: string, ip: string | null): Promise<{ organization_id: string }> {
  if (!organizationsOpenToUsers()) {
    throw new DomainError('signup_disabled', 'New organizations come from the operator on this Roomtone. Ask an owner or admin of an organization to invite you.');
  }
  const problem = organizationNameProblem(name);
  if (problem) throw invalidParam('name', problem);
  await requireAttemptAllowed(user.email, ip);
  return transaction(async (tx) => {
    const org = await createOrganization(tx, { name: name.trim() });
    await tx.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner', createdAt: clock.now() } });
    return { organization_id: org.id };
  });
}
