import { db, transaction } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { tierOf } from '@/server/capabilities/billing/pricing';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { memberActor, type Member } from '@/server/capabilities/access/roles';
import { organizationNameProblem } from '@/shared/orgs/organization-name';

export interface SettingsView {
  id: string;
  name: string;
  created_at: number;
  /** Members must have two-factor sign-in to use the organization (owners decide). */
  require_two_factor: boolean;
  /** Read-only: tiers change by agreement (CLI), not in the console. */
  tier: {
    tier: number;
    name: string;
    requests_per_minute: number;
    generations_per_minute: number;
    generations_per_hour: number;
    discount_percent: number;
    monthly_limit_cents: number;
  };
}

export async function organizationSettings(organizationId: string): Promise<SettingsView> {
  const org = await db().organization.findUniqueOrThrow({ where: { id: organizationId } });
  const tier = tierOf(org.tier);
  return {
    id: org.id,
    name: org.name,
    created_at: toUnixSeconds(org.createdAt),
    require_two_factor: org.requireTwoFactor,
    tier: {
      tier: tier.tier,
      name: tier.name,
      requests_per_minute: tier.requestsPerMinute,
      generations_per_minute: tier.generationsPerMinute,
      generations_per_hour: tier.generationsPerHour,
      discount_percent: tier.discountPercent,
      monthly_limit_cents: org.monthlyLimitCents ?? tier.monthlyLimitCents,
    },
  };
}

export async function renameOrganization(member: Member, name: string): Promise<SettingsView> {
  const trimmed = name.trim();
  const problem = organizationNameProblem(trimmed);
  if (problem) throw invalidParam('name', problem);
  await transaction(async (tx) => {
    const before = await tx.organization.findUniqueOrThrow({ where: { id: member.organizationId }, select: { name: true } });
    await tx.organization.update({ where: { id: member.organizationId }, data: { name: trimmed } });
    await recordAudit(tx, memberActor(member), member.organizationId, { action: 'organization.renamed', details: { from: before.name, to: trimmed } });
  });
  return organizationSettings(member.organizationId);
}

/**
 * Require two-factor sign-in of every member (owners only, by the role matrix). The owner who
 * turns it on must have it already, so no one locks themselves out of the settings.
 */
export async function setTwoFactorRequirement(member: Member, required: boolean): Promise<SettingsView> {
  await transaction(async (tx) => {
    if (required) {
      const me = await tx.user.findUniqueOrThrow({ where: { id: member.userId }, select: { totpEnabledAt: true } });
      if (!me.totpEnabledAt) throw new DomainError('two_factor_not_enabled', 'Turn on two-factor sign-in for your own account before requiring it of every member.', { param: 'required' });
    }
    const changed = await tx.organization.updateMany({ where: { id: member.organizationId, requireTwoFactor: !required }, data: { requireTwoFactor: required } });
    if (changed.count === 1) {
      await recordAudit(tx, memberActor(member), member.organizationId, { action: 'organization.two_factor_requirement_changed', details: { required } });
    }
  });
  return organizationSettings(member.organizationId);
}
