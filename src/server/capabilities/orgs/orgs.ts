import type { DbTx, Tx } from '@/server/platform/db';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { grantCredit } from '@/server/capabilities/billing/ledger';
import { isKnownTier } from '@/server/capabilities/billing/pricing';
import type { MemberRole } from '@/generated/prisma/enums';
import { checkPasswordRule, hashPassword } from '@/server/capabilities/auth/password';
import { normalizeEmail } from '@/server/capabilities/mail/email-address';
import { organizationNameProblem } from '@/shared/orgs/organization-name';

export async function createOrganization(
  tx: Tx,
  input: { name: string; tier?: number; creditCents?: number },
): Promise<{ id: string; name: string; tier: number; balanceCents: number }> {
  const tier = input.tier ?? 1;
  const nameProblem = organizationNameProblem(input.name);
  if (nameProblem) throw invalidParam('name', nameProblem);
  if (!isKnownTier(tier)) throw new DomainError('parameter_invalid', `Unknown tier ${tier}.`, { param: 'tier' });
  const org = await tx.organization.create({
    data: { id: newId('org'), name: input.name.trim(), tier, createdAt: clock.now() },
  });
  let balanceCents = 0;
  if (input.creditCents && input.creditCents > 0) {
    balanceCents = (await grantCredit(tx, org.id, input.creditCents, 'Initial credit')).balanceAfter;
  }
  return { id: org.id, name: org.name, tier: org.tier, balanceCents };
}

/**
 * Create a console user (or add an existing one) as a member of an organization: the CLI's
 * `user create` and the first-run demo owner. A user created here is verified (the operator
 * vouches for the address); an existing account keeps its state, so an address someone else
 * claimed by signing up is not vouched for by adding it to an organization.
 */
export async function createUser(
  tx: DbTx,
  input: { email: string; password: string; organizationId: string; role: MemberRole; name?: string },
) {
  const email = normalizeEmail(input.email);
  const org = await tx.organization.findUnique({ where: { id: input.organizationId } });
  if (!org) throw new DomainError('resource_not_found', `No organization ${input.organizationId}.`, { param: 'org' });
  const existing = await tx.user.findUnique({ where: { email } });
  if (!existing) checkPasswordRule(input.password);
  const user =
    existing ??
    (await tx.user.create({
      data: { id: newId('usr'), email, name: input.name ?? null, passwordHash: await hashPassword(input.password), emailVerified: clock.now(), createdAt: clock.now() },
    }));
  await tx.membership.upsert({
    where: { organizationId_userId: { organizationId: org.id, userId: user.id } },
    create: { organizationId: org.id, userId: user.id, role: input.role },
    update: { role: input.role },
  });
  return { id: user.id, email: user.email, organization: org.id, role: input.role };
}
