import { db } from '@/server/platform/db';
import { toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { tierOf } from '@/server/billing/pricing';
import { organizationNameProblem } from './organization-name';

export interface SettingsView {
  id: string;
  name: string;
  created_at: number;
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

export async function renameOrganization(organizationId: string, name: string): Promise<SettingsView> {
  const trimmed = name.trim();
  const problem = organizationNameProblem(trimmed);
  if (problem) throw invalidParam('name', problem);
  await db().organization.update({ where: { id: organizationId }, data: { name: trimmed } });
  return organizationSettings(organizationId);
}
