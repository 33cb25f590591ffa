import { db } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { invalidParam } from '@/server/platform/errors';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { BalanceTransactionType } from '@/generated/prisma/enums';
import { purchaseMode } from './credit-purchases';
import { monthlyLimitCents, monthlySpendCents } from './monthly-spend';

/**
 * Billing as the console shows it. Money exists in live mode only (test generations are never
 * charged), so these figures are the organization's whatever mode the console is in.
 */
export interface BillingView {
  balance_cents: number;
  monthly_limit_cents: number;
  month_spend_cents: number;
  auto_recharge: { enabled: boolean; threshold_cents: number | null; amount_cents: number | null };
  /** How credit is bought here (a provider checkout, or with the manual provider a request the operator approves) and the saved card that pays auto-recharges. */
  payment: { mode: 'checkout' | 'operator_approval'; card: string | null };
  /** Credit lots with an unspent part and an expiry ahead (soonest first): granted and unspent amounts. */
  expiring_credits: { id: string; type: BalanceTransactionType; amount_cents: number; remaining_cents: number; created_at: number; expires_at: number }[];
}

export async function billingSummary(organizationId: string): Promise<BillingView> {
  const org = await db().organization.findUniqueOrThrow({ where: { id: organizationId } });
  const [spend, credits] = await Promise.all([
    monthlySpendCents(db(), organizationId),
    db().creditLot.findMany({
      where: { organizationId, remaining: { gt: 0 }, expiresAt: { gt: clock.now() } },
      orderBy: { expiresAt: 'asc' },
      take: 50,
    }),
  ]);
  const origins = await db().balanceTransaction.findMany({
    where: { id: { in: credits.flatMap((c) => (c.transactionId ? [c.transactionId] : [])) } },
    select: { id: true, type: true },
  });
  const typeOf = new Map(origins.map((t) => [t.id, t.type]));
  return {
    balance_cents: org.balanceCents,
    monthly_limit_cents: monthlyLimitCents(org, org.tier),
    month_spend_cents: spend,
    auto_recharge: { enabled: org.autoRechargeEnabled, threshold_cents: org.autoRechargeThreshold, amount_cents: org.autoRechargeAmount },
    payment: { mode: purchaseMode(), card: org.stripePaymentMethodId },
    expiring_credits: credits.map((c) => ({
      id: c.id,
      type: (c.transactionId ? typeOf.get(c.transactionId) : undefined) ?? 'credit',
      amount_cents: c.amount,
      remaining_cents: c.remaining,
      created_at: toUnixSeconds(c.createdAt),
      expires_at: toUnixSeconds(c.expiresAt as Date),
    })),
  };
}

export interface TransactionView {
  id: string;
  type: BalanceTransactionType;
  amount_cents: number;
  balance_after_cents: number;
  description: string;
  generation_id: string | null;
  expires_at: number | null;
  created_at: number;
}

/** Ledger rows, newest first (cursor: transaction id). */
export async function listTransactions(organizationId: string, page: PageParams & { type?: BalanceTransactionType | undefined }): Promise<Page<TransactionView>> {
  let beforeSeq: bigint | undefined;
  if (page.cursor) {
    const row = await db().balanceTransaction.findFirst({ where: { id: page.cursor, organizationId }, select: { seq: true } });
    if (!row) throw invalidParam('cursor', 'Unknown cursor.');
    beforeSeq = row.seq;
  }
  const rows = await db().balanceTransaction.findMany({
    where: { organizationId, ...(page.type ? { type: page.type } : {}), ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}) },
    orderBy: { seq: 'desc' },
    take: page.limit + 1,
  });
  return pageOf(rows, page.limit, (r) => r.id, (r) => ({
    id: r.id,
    type: r.type,
    amount_cents: r.amount,
    balance_after_cents: r.balanceAfter,
    description: r.description,
    generation_id: r.generationId,
    expires_at: toUnixSeconds(r.expiresAt),
    created_at: toUnixSeconds(r.createdAt),
  }));
}
