import { transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { requireVerified } from '@/server/auth/email-verification';
import { recordAudit } from '@/server/audit/record-audit';
import { userActor, type RequestOrigin } from '@/server/audit/actor';
import { createOrganization } from './orgs';

/** Organizations one user may create in the console within 24 hours (sign-up's own included). */
export const ORGANIZATIONS_PER_USER_PER_DAY = 5;
const DAY_MS = 24 * 3600 * 1000;

/**
 * A signed-in user creates another organization and becomes its owner (no credit: money is
 * added from Billing). The same rule as open sign-up: where CONSOLE_OPEN_SIGNUP is false only
 * the operator creates organizations (`roomtone org create`). The address must be confirmed, and
 * a user creates at most ORGANIZATIONS_PER_USER_PER_DAY a day (counted with the user's row
 * locked, so parallel requests cannot pass it).
 */
export async function createMyOrganization(user: { id: string; email?: string | undefined }, name: string, origin: RequestOrigin): Promise<{ id: string; name: string }> {
  if (!config().CONSOLE_OPEN_SIGNUP) {
    throw new DomainError('signup_disabled', 'On this Roomtone only the operator creates organizations (roomtone org create).');
  }
  return transaction(async (tx) => {
    const [account] = await tx.$queryRaw<{ emailVerified: Date | null }[]>`select "emailVerified" from "User" where id = ${user.id} for update`;
    if (!account) throw new DomainError('session_missing', 'Sign in again.');
    requireVerified(account, 'create an organization');
    const now = clock.now();
    const recent = await tx.membership.count({ where: { userId: user.id, role: 'owner', createdAt: { gt: new Date(now.getTime() - DAY_MS) } } });
    if (recent >= ORGANIZATIONS_PER_USER_PER_DAY) {
      throw new DomainError('rate_limit_exceeded', `You can create at most ${ORGANIZATIONS_PER_USER_PER_DAY} organizations a day. Try again tomorrow.`, { retryAfterSeconds: 3600 });
    }
    const org = await createOrganization(tx, { name });
    await tx.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner', createdAt: now } });
    await recordAudit(tx, userActor(user, origin), org.id, { action: 'organization.created', target: { type: 'organization', id: org.id }, details: { name: org.name } });
    return { id: org.id, name: org.name };
  });
}
