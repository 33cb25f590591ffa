import type { DbTx, Tx } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { chargeBalance } from '@/server/capabilities/billing/ledger';
import { keyMonthlySpendCents, monthlyLimitCents, monthlySpendCents } from '@/server/capabilities/billing/monthly-spend';
import { tierOf, type Price } from '@/server/capabilities/billing/pricing';
import type { Caller } from '@/server/capabilities/access/caller';
import type { GenerationType } from '@/generated/prisma/enums';

/** The generation quota after an accepted creation (remaining values include it). */
export interface GenerationQuota {
  minute: { limit: number; remaining: number };
  hour: { limit: number; remaining: number };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Serialise admissions of one organization and mode for the rest of the transaction: quota
 * counts, the idempotency lookup and the insert then act as one step (20 identical
 * concurrent requests → one generation, and the quota is never overrun by a burst).
 */
export async function lockAdmission(tx: DbTx, caller: Caller): Promise<void> {
  const key = `${caller.organizationId}:${caller.mode}`;
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${key}))`;
}

async function windowCount(tx: DbTx, caller: Caller, sinceMs: number): Promise<{ count: number; oldest: Date | null }> {
  const since = new Date(clock.nowMs() - sinceMs);
  const where = { organizationId: caller.organizationId, mode: caller.mode, createdAt: { gt: since } };
  const [count, oldest] = await Promise.all([
    tx.generation.count({ where }),
    tx.generation.findFirst({ where, orderBy: { createdAt: 'asc' }, select: { createdAt: true } }),
  ]);
  return { count, oldest: oldest?.createdAt ?? null };
}

/** Sliding minute and hour, per organization and mode; 429 with the wait until a slot frees. */
export async function checkGenerationQuota(tx: DbTx, caller: Caller): Promise<{ minute: number; hour: number }> {
  const tier = tierOf(caller.tier);
  const [minute, hour] = await Promise.all([windowCount(tx, caller, MINUTE_MS), windowCount(tx, caller, HOUR_MS)]);
  const now = clock.nowMs();
  const refuse = (oldest: Date | null, windowMs: number, what: string) => {
    const retryAfter = Math.max(1, Math.ceil(((oldest?.getTime() ?? now) + windowMs - now) / 1000));
    return new DomainError('generation_rate_limit_exceeded', quotaExceededMessage(caller.tier, what), {
      retryAfterSeconds: retryAfter,
    });
  };
  if (minute.count >= tier.generationsPerMinute) throw refuse(minute.oldest, MINUTE_MS, `${tier.generationsPerMinute} per minute`);
  if (hour.count >= tier.generationsPerHour) throw refuse(hour.oldest, HOUR_MS, `${tier.generationsPerHour} per hour`);
  return { minute: minute.count, hour: hour.count };
}

/** What a 429 generation_rate_limit_exceeded says: the quota, then how to wait and how to raise it. */
export function quotaExceededMessage(tier: number, what: string): string {
  const current = tierOf(tier);
  return `Generation quota exceeded (${what}, tier ${current.tier} ${current.name}; test and live keys have separate quotas). Nothing was created or charged. Wait the Retry-After seconds; to raise the quota, ask the operator of this Roomtone service to move your organization to a higher tier (docs/api.md, "Tiers and prices").`;
}

export function generationQuota(caller: Caller, used: { minute: number; hour: number }): GenerationQuota {
  const tier = tierOf(caller.tier);
  return {
    minute: { limit: tier.generationsPerMinute, remaining: Math.max(0, tier.generationsPerMinute - used.minute) },
    hour: { limit: tier.generationsPerHour, remaining: Math.max(0, tier.generationsPerHour - used.hour) },
  };
}

/** Current usage without admitting anything (idempotent replays). */
export async function currentQuotaUsage(tx: DbTx, caller: Caller): Promise<{ minute: number; hour: number }> {
  const [minute, hour] = await Promise.all([windowCount(tx, caller, MINUTE_MS), windowCount(tx, caller, HOUR_MS)]);
  return { minute: minute.count, hour: hour.count };
}

/**
 * Heavy load: live render, edit and decoration are refused while the queue of generations not
 * yet started is beyond QUEUE_MAX_DEPTH (upscales are cheap and test mode costs nothing).
 */
export async function checkLoad(tx: DbTx, caller: Caller, type: GenerationType): Promise<void> {
  if (caller.mode !== 'live' || type === 'upscale') return;
  const maxDepth = config().QUEUE_MAX_DEPTH;
  const depth = await tx.generation.count({ where: { status: 'in_progress', startedAt: null } });
  if (depth >= maxDepth) {
    const retryAfter = Math.min(300, Math.max(30, Math.round((30 * depth) / Math.max(1, maxDepth))));
    throw new DomainError('overloaded', 'The service is under heavy load; nothing was charged. Retry after the delay given.', {
      retryAfterSeconds: retryAfter,
    });
  }
}

/**
 * Live mode: the organization's monthly spend limit (charges net of refunds this calendar month,
 * UTC), the calling key's monthly spend cap if it has one (402 api_key_spend_cap_reached), then
 * the charge. Both read inside the admission lock (lockAdmission), so a burst cannot pass them;
 * the cap is read from the key's row here, so an edit applies to the next creation.
 */
export async function chargeForGeneration(tx: Tx, caller: Caller, price: Price, generationId: string, type: GenerationType): Promise<void> {
  if (caller.mode !== 'live' || price.amount === 0) return;
  const org = await tx.organization.findUniqueOrThrow({ where: { id: caller.organizationId }, select: { monthlyLimitCents: true } });
  const limit = monthlyLimitCents(org, caller.tier);
  const spentCents = await monthlySpendCents(tx, caller.organizationId);
  if (spentCents + price.amount > limit) {
    throw new DomainError('monthly_limit_reached', `This generation would pass your monthly spending limit of ${limit} cents. Raise it in the console.`);
  }
  if (caller.apiKeyId) {
    const key = await tx.apiKey.findUnique({ where: { id: caller.apiKeyId }, select: { monthlySpendCapCents: true } });
    const cap = key?.monthlySpendCapCents ?? null;
    if (cap !== null) {
      const keySpent = await keyMonthlySpendCents(tx, caller.organizationId, caller.apiKeyId);
      if (keySpent + price.amount > cap) {
        throw new DomainError(
          'api_key_spend_cap_reached',
          `This generation (${price.amount} cents) would pass the monthly spend cap of API key ${caller.apiKeyId} (${cap} cents, ${keySpent} spent this month). Nothing was charged; an admin can raise the cap in the console.`,
        );
      }
    }
  }
  await chargeBalance(tx, caller.organizationId, price.amount, generationId, `${type} ${generationId}`);
}
