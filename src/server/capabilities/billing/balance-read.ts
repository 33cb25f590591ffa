import { db } from '@/server/platform/db';
import { monthlyLimitCents, monthlySpendCents } from './monthly-spend';
import { balanceObject } from './balance-object';
import type { Caller } from '@/server/capabilities/access/caller';

/**
 * `GET /v1/balance` (an addition to the spec, which shows the balance object inside balance
 * events only): the spec's balance object plus what an integration checks before a batch, the
 * monthly spending limit and the spend so far this calendar month (UTC, live charges net of
 * refunds). Money exists in live mode only, so a test key reads the same figures.
 */
export interface ApiBalance {
  object: 'balance';
  amount: number;
  currency: 'eur';
  unit: 'cents';
  monthly_limit: number;
  monthly_spend: number;
}

export async function readBalance(caller: Pick<Caller, 'organizationId' | 'tier'>): Promise<ApiBalance> {
  const [org, spend] = await Promise.all([
    db().organization.findUniqueOrThrow({ where: { id: caller.organizationId }, select: { balanceCents: true, monthlyLimitCents: true } }),
    monthlySpendCents(db(), caller.organizationId),
  ]);
  return { ...balanceObject(org.balanceCents), monthly_limit: monthlyLimitCents(org, caller.tier), monthly_spend: spend } as ApiBalance;
}
