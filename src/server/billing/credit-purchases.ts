import type { z } from 'zod';
import { db, transaction, type Tx } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { CreditPurchase } from '@/generated/prisma/client';
import { recordAudit } from '@/server/audit/record-audit';
import { SYSTEM } from '@/server/audit/actor';
import { appendLedgerEntry } from './ledger';
import { rechargeExpiry } from './auto-recharge';
import { paymentProvider } from './payments/provider';
import { creditPurchaseInput } from '@/shared/billing/purchase-inputs';
import { PaymentOutcomeUnknown, type CheckoutState, type PaymentProvider } from './payments/port';

/**
 * Buying credit from the console. With a provider that has a checkout (Stripe), the purchase is
 * a pending row and a hosted payment page; it is credited when Stripe says the checkout is paid,
 * whoever asks first — the browser coming back, Stripe's webhook, or the sweep that reconciles
 * purchases whose browser and webhook never came. With the manual provider no money is taken:
 * the purchase is an operator top-up, credited at once. Either way one conditional update
 * (pending → paid) and the `credit` ledger row share a transaction: exactly one credit lot per
 * purchase.
 */
export interface PurchaseView {
  id: string;
  amount_cents: number;
  status: 'pending' | 'paid' | 'expired';
  provider: string;
  payment_reference: string | null;
  receipt_url: string | null;
  created_at: number;
  completed_at: number | null;
}

function purchaseView(p: CreditPurchase): PurchaseView {
  return {
    id: p.id,
    amount_cents: p.amount,
    status: p.status,
    provider: p.provider,
    payment_reference: p.paymentReference,
    receipt_url: p.receiptUrl,
    created_at: toUnixSeconds(p.createdAt),
    completed_at: p.completedAt ? toUnixSeconds(p.completedAt) : null,
  };
}

/** Pending purchases are looked up at the provider from this age on (the browser or the webhook usually came first). */
export const RECONCILE_AFTER_MS = 2 * 60 * 1000;
/** Provider lookups per sweep; the rest wait for the next minute. */
const MAX_LOOKUPS_PER_SWEEP = 20;

export type StartedPurchase = { purchase: PurchaseView; checkoutUrl: string | null };

/**
 * Start a purchase for `organizationId`. `returnTo` is the console's billing page (absolute URL
 * on our own origin): the provider sends the browser back there with `?purchase=<id>`.
 */
export async function startCreditPurchase(
  buyer: { organizationId: string; userId: string; email: string },
  input: z.infer<typeof creditPurchaseInput>,
  returnTo: string,
  provider: PaymentProvider = paymentProvider(),
): Promise<StartedPurchase> {
  const { amount } = creditPurchaseInput.parse(input);
  const now = clock.now();
  const id = newId('cp');
  if (!provider.checkout) {
    const purchase = await transaction(async (tx) => {
      const created = await tx.creditPurchase.create({
        data: { id, organizationId: buyer.organizationId, amount, provider: provider.name, createdByUserId: buyer.userId, createdAt: now },
      });
      await creditOnce(tx, created, { paymentReference: `manual:${id}`, receiptUrl: null }, `Top-up by ${buyer.email} (manual provider: no payment taken)`);
      return tx.creditPurchase.findUniqueOrThrow({ where: { id } });
    });
    return { purchase: purchaseView(purchase), checkoutUrl: null };
  }
  const org = await db().organization.findUniqueOrThrow({ where: { id: buyer.organizationId }, select: { stripeCustomerId: true } });
  await db().creditPurchase.create({ data: { id, organizationId: buyer.organizationId, amount, provider: provider.name, createdByUserId: buyer.userId, createdAt: now } });
  const back = new URL(returnTo);
  back.searchParams.set('purchase', id);
  const cancel = new URL(back);
  cancel.searchParams.set('canceled', '1');
  let started: { checkoutId: string; url: string };
  try {
    started = await provider.checkout.start({ purchaseId: id, organizationId: buyer.organizationId, amount, customerId: org.stripeCustomerId, successUrl: back.toString(), cancelUrl: cancel.toString() });
  } catch (error) {
    // Same idempotency key on a retry: the row stays pending and the sweep finds nothing to credit (no checkout id).
    log.warn('checkout not started', { purchaseId: id, error: String(error) });
    await db().creditPurchase.updateMany({ where: { id, status: 'pending', checkoutId: null }, data: { status: 'expired', completedAt: clock.now() } });
    throw new DomainError('service_unavailable', 'The payment provider did not answer. Nothing was charged; try again in a minute.', { retryAfterSeconds: 60 });
  }
  const purchase = await db().creditPurchase.update({ where: { id }, data: { checkoutId: started.checkoutId, checkoutUrl: started.url } });
  return { purchase: purchaseView(purchase), checkoutUrl: started.url };
}

/**
 * Close a pending purchase as paid and credit it, once: the conditional update decides which
 * confirmation credits; the others find it paid and do nothing. The paying card becomes the
 * organization's card for auto-recharge (Checkout saved it for off-session use).
 */
async function creditOnce(
  tx: Tx,
  purchase: Pick<CreditPurchase, 'id' | 'organizationId' | 'amount' | 'provider'>,
  paid: { paymentReference: string; receiptUrl: string | null; customerId?: string | null; paymentMethodId?: string | null },
  description: string,
): Promise<boolean> {
  const now = clock.now();
  const closed = await tx.creditPurchase.updateMany({
    where: { id: purchase.id, status: 'pending' },
    data: { status: 'paid', completedAt: now, paymentReference: paid.paymentReference, receiptUrl: paid.receiptUrl, checkoutUrl: null },
  });
  if (closed.count !== 1) return false;
  const row = await appendLedgerEntry(tx, { organizationId: purchase.organizationId, type: 'credit', amount: purchase.amount, description, expiresAt: rechargeExpiry(now) });
  await tx.creditPurchase.update({ where: { id: purchase.id }, data: { balanceTransactionId: row.id } });
  if (paid.customerId && paid.paymentMethodId) {
    await tx.organization.update({ where: { id: purchase.organizationId }, data: { stripeCustomerId: paid.customerId, stripePaymentMethodId: paid.paymentMethodId } });
    // Recorded as the system's: whoever confirmed (browser, webhook, sweep), Stripe's answer set it.
    await recordAudit(tx, SYSTEM, purchase.organizationId, {
      action: 'auto_recharge.payment_method_set',
      details: { customer: paid.customerId, payment_method: paid.paymentMethodId, credit_purchase: purchase.id },
    });
  }
  return true;
}

/** Apply what the provider says of a purchase's checkout: paid → credited once; expired → closed. */
async function applyCheckoutState(purchase: CreditPurchase, state: CheckoutState): Promise<void> {
  if (state.status === 'paid') {
    await transaction((tx) => creditOnce(tx, purchase, state, `Credit purchase (${purchase.provider} ${state.paymentReference})`));
  } else if (state.status === 'expired') {
    await db().creditPurchase.updateMany({ where: { id: purchase.id, status: 'pending' }, data: { status: 'expired', completedAt: clock.now(), checkoutUrl: null } });
  }
}

async function refresh(purchase: CreditPurchase, provider: PaymentProvider): Promise<CreditPurchase> {
  if (purchase.status !== 'pending' || !purchase.checkoutId || !provider.checkout) return purchase;
  await applyCheckoutState(purchase, await provider.checkout.retrieve(purchase.checkoutId));
  return db().creditPurchase.findUniqueOrThrow({ where: { id: purchase.id } });
}

const notFound = (id: string) => new DomainError('resource_not_found', `No credit purchase ${id}.`, { param: 'purchase' });

/**
 * The browser is back from the provider's page: ask the provider now (the webhook may still be
 * on its way). Scoped by organization: another organization's purchase id is not found.
 */
export async function confirmCreditPurchase(organizationId: string, purchaseId: string, provider: PaymentProvider = paymentProvider()): Promise<PurchaseView> {
  const purchase = await db().creditPurchase.findFirst({ where: { id: purchaseId, organizationId } });
  if (!purchase) throw notFound(purchaseId);
  try {
    return purchaseView(await refresh(purchase, provider));
  } catch (error) {
    if (!(error instanceof PaymentOutcomeUnknown)) throw error;
    // Still pending: the webhook or the sweep credits it later.
    return purchaseView(purchase);
  }
}

/** A verified provider webhook names a checkout: read it back from the provider and apply it. */
export async function confirmCheckoutFromWebhook(checkoutId: string, provider: PaymentProvider = paymentProvider()): Promise<'credited_or_closed' | 'unknown_checkout'> {
  const purchase = await db().creditPurchase.findUnique({ where: { checkoutId } });
  if (!purchase) return 'unknown_checkout';
  await refresh(purchase, provider);
  return 'credited_or_closed';
}

/**
 * Reconciliation (the sweeper, every minute): pending purchases older than RECONCILE_AFTER_MS
 * are read back from the provider, so a purchase whose browser closed mid-payment and whose
 * webhook never arrived is still credited (or closed once its checkout expires). A provider
 * that cannot answer leaves them pending for the next sweep.
 */
export async function reconcileCreditPurchases(now: Date, provider: PaymentProvider = paymentProvider()): Promise<{ credited: number; expired: number; waiting: number }> {
  const result = { credited: 0, expired: 0, waiting: 0 };
  if (!provider.checkout) return result;
  const pending = await db().creditPurchase.findMany({
    where: { status: 'pending', checkoutId: { not: null }, provider: provider.name, createdAt: { lte: new Date(now.getTime() - RECONCILE_AFTER_MS) } },
    orderBy: { createdAt: 'asc' },
    take: MAX_LOOKUPS_PER_SWEEP,
  });
  for (const purchase of pending) {
    try {
      const after = await refresh(purchase, provider);
      if (after.status === 'paid') result.credited++;
      else if (after.status === 'expired') result.expired++;
      else result.waiting++;
    } catch (error) {
      if (!(error instanceof PaymentOutcomeUnknown)) throw error;
      result.waiting++;
    }
  }
  return result;
}

/** Receipts: the organization's purchases, newest first (cursor: purchase id); pending ones too, so a buyer sees where theirs is. */
export async function listCreditPurchases(organizationId: string, page: PageParams): Promise<Page<PurchaseView>> {
  let before: Date | undefined;
  if (page.cursor) {
    const row = await db().creditPurchase.findFirst({ where: { id: page.cursor, organizationId }, select: { createdAt: true } });
    if (!row) throw new DomainError('parameter_invalid', 'Unknown cursor.', { param: 'cursor' });
    before = row.createdAt;
  }
  const rows = await db().creditPurchase.findMany({
    where: { organizationId, ...(before ? { createdAt: { lt: before } } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: page.limit + 1,
  });
  return pageOf(rows, page.limit, (r) => r.id, purchaseView);
}

/** Whether buying credit takes a payment here (Stripe) or records an operator top-up (manual). */
export function purchaseMode(): 'checkout' | 'top_up' {
  return config().PAYMENT_PROVIDER === 'stripe' ? 'checkout' : 'top_up';
}
