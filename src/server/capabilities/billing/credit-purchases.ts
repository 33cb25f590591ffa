import type { z } from 'zod';
import { db, transaction, type Tx } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError, notFound } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { pageOf, type Page, type PageParams } from '@/server/platform/pages';
import type { CreditPurchase } from '@/generated/prisma/client';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { NO_ORIGIN, OPERATOR, SYSTEM, userActor, type AuditActor } from '@/server/capabilities/audit/actor';
import { appendLedgerEntry } from './ledger';
import { rechargeExpiry } from './lots';
import { paymentProvider } from './payments/provider';
import { creditPurchaseInput } from '@/shared/billing/purchase-inputs';
import { PaymentOutcomeUnknown, type CheckoutState, type PaymentProvider } from './payments/port';

/**
 * Buying credit from the console. With a provider that has a checkout (Stripe), the purchase is
 * a pending row and a hosted payment page; it is credited when Stripe says the checkout is paid,
 * whoever asks first — the browser coming back, Stripe's webhook, or the sweep that reconciles
 * purchases whose browser and webhook never came. The manual provider takes no money, so its
 * purchase is a request: pending until the operator approves it (`roomtone credit approve`,
 * credited then) or rejects it; open sign-up must not let a stranger mint credit and spend the
 * operator's generative backend. Either way one conditional update (pending → paid) and the
 * `credit` ledger row share a transaction: exactly one credit lot per purchase. Every step is in
 * the audit log (credit_purchase.*), in the transaction of the change.
 */
export interface PurchaseView {
  id: string;
  amount_cents: number;
  status: 'pending' | 'paid' | 'expired' | 'rejected';
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
/** Manual-provider requests an organization may have waiting for the operator at once. */
export const MAX_PENDING_REQUESTS = 5;
/** The balance is spent in live mode only: balance changes are audited under it. */
const MONEY_MODE = 'live' as const;

type AuditedPurchase = Pick<CreditPurchase, 'id' | 'organizationId' | 'amount' | 'provider'>;

function auditPurchase(tx: Tx, actor: AuditActor, purchase: AuditedPurchase, action: 'credit_purchase.requested' | 'credit_purchase.approved' | 'credit_purchase.rejected' | 'credit_purchase.paid' | 'credit_purchase.failed', details: Record<string, string | number | null> = {}) {
  return recordAudit(tx, actor, purchase.organizationId, {
    action,
    mode: MONEY_MODE,
    target: { type: 'credit_purchase', id: purchase.id },
    details: { amount: purchase.amount, currency: 'eur', provider: purchase.provider, ...details },
  });
}

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
  actor: AuditActor = userActor({ id: buyer.userId, email: buyer.email }, NO_ORIGIN),
): Promise<StartedPurchase> {
  const { amount } = creditPurchaseInput.parse(input);
  const now = clock.now();
  const id = newId('cp');
  const data = { id, organizationId: buyer.organizationId, amount, provider: provider.name, createdByUserId: buyer.userId, createdAt: now };
  if (!provider.checkout) {
    const purchase = await transaction(async (tx) => {
      // Under the organization's row lock, so two requests at once count each other.
      await tx.$queryRaw`select id from "Organization" where id = ${buyer.organizationId} for update`;
      const waiting = await tx.creditPurchase.count({ where: { organizationId: buyer.organizationId, status: 'pending', provider: provider.name } });
      if (waiting >= MAX_PENDING_REQUESTS) {
        throw new DomainError('rate_limit_exceeded', `${waiting} credit requests of this organization already await the operator's approval; wait until they are decided.`, { param: 'amount' });
      }
      const created = await tx.creditPurchase.create({ data });
      await auditPurchase(tx, actor, created, 'credit_purchase.requested', { awaiting: 'operator_approval' });
      return created;
    });
    return { purchase: purchaseView(purchase), checkoutUrl: null };
  }
  const org = await db().organization.findUniqueOrThrow({ where: { id: buyer.organizationId }, select: { stripeCustomerId: true } });
  await transaction(async (tx) => auditPurchase(tx, actor, await tx.creditPurchase.create({ data }), 'credit_purchase.requested', { awaiting: 'payment' }));
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
    await closeUnpaid({ id, organizationId: buyer.organizationId, amount, provider: provider.name }, 'checkout_not_started', { checkoutId: null });
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
  purchase: AuditedPurchase,
  paid: { paymentReference: string; receiptUrl: string | null; customerId?: string | null; paymentMethodId?: string | null },
  description: string,
  audit: { actor: AuditActor; action: 'credit_purchase.paid' | 'credit_purchase.approved' },
): Promise<boolean> {
  const now = clock.now();
  const closed = await tx.creditPurchase.updateMany({
    where: { id: purchase.id, status: 'pending' },
    data: { status: 'paid', completedAt: now, paymentReference: paid.paymentReference, receiptUrl: paid.receiptUrl, checkoutUrl: null },
  });
  if (closed.count !== 1) return false;
  const row = await appendLedgerEntry(tx, { organizationId: purchase.organizationId, type: 'credit', amount: purchase.amount, description, expiresAt: rechargeExpiry(now) });
  await tx.creditPurchase.update({ where: { id: purchase.id }, data: { balanceTransactionId: row.id } });
  await auditPurchase(tx, audit.actor, purchase, audit.action, { payment_reference: paid.paymentReference, balance_transaction: row.id, balance_after: row.balanceAfter });
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
    // The system's: whoever confirmed (browser, webhook, sweep), the provider's answer credits.
    await transaction((tx) => creditOnce(tx, purchase, state, `Credit purchase (${purchase.provider} ${state.paymentReference})`, { actor: SYSTEM, action: 'credit_purchase.paid' }));
  } else if (state.status === 'expired') {
    await closeUnpaid(purchase, 'checkout_expired');
  }
}

/** Close a pending purchase unpaid (its checkout expired or never started), once, with its audit row. */
async function closeUnpaid(purchase: AuditedPurchase, reason: 'checkout_expired' | 'checkout_not_started', onlyIf: { checkoutId?: null } = {}): Promise<void> {
  await transaction(async (tx) => {
    const closed = await tx.creditPurchase.updateMany({ where: { ...onlyIf, id: purchase.id, status: 'pending' }, data: { status: 'expired', completedAt: clock.now(), checkoutUrl: null } });
    if (closed.count === 1) await auditPurchase(tx, SYSTEM, purchase, 'credit_purchase.failed', { reason });
  });
}

async function refresh(purchase: CreditPurchase, provider: PaymentProvider): Promise<CreditPurchase> {
  if (purchase.status !== 'pending' || !purchase.checkoutId || !provider.checkout) return purchase;
  await applyCheckoutState(purchase, await provider.checkout.retrieve(purchase.checkoutId));
  return db().creditPurchase.findUniqueOrThrow({ where: { id: purchase.id } });
}

/**
 * The browser is back from the provider's page: ask the provider now (the webhook may still be
 * on its way). Scoped by organization: another organization's purchase id is not found.
 */
export async function confirmCreditPurchase(organizationId: string, purchaseId: string, provider: PaymentProvider = paymentProvider()): Promise<PurchaseView> {
  const purchase = await db().creditPurchase.findFirst({ where: { id: purchaseId, organizationId } });
  if (!purchase) throw notFound(`No credit purchase ${purchaseId}.`, 'purchase');
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

/** What the operator sees of a request (the CLI): the purchase and who asked. */
export interface CreditRequestView extends PurchaseView {
  organization: string;
  requested_by: string | null;
  auto_recharge: string | null;
}

async function requestView(p: CreditPurchase): Promise<CreditRequestView> {
  const by = p.createdByUserId ? await db().user.findUnique({ where: { id: p.createdByUserId }, select: { email: true } }) : null;
  return { ...purchaseView(p), organization: p.organizationId, requested_by: by?.email ?? null, auto_recharge: p.autoRechargeAttemptId };
}

/** The manual provider's requests (the operator's queue), oldest first; pending only unless `all`. */
export async function listCreditRequests(filter: { organizationId?: string | undefined; all?: boolean }, limit = 100): Promise<CreditRequestView[]> {
  const rows = await db().creditPurchase.findMany({
    where: { provider: 'manual', ...(filter.organizationId ? { organizationId: filter.organizationId } : {}), ...(filter.all ? {} : { status: 'pending' }) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: limit,
  });
  return Promise.all(rows.map(requestView));
}

const requestNotFound = (id: string) => new DomainError('resource_not_found', `No credit request ${id}.`, { param: 'purchase' });

async function decidable(tx: Tx, purchaseId: string): Promise<CreditPurchase> {
  const purchase = await tx.creditPurchase.findUnique({ where: { id: purchaseId } });
  if (!purchase) throw requestNotFound(purchaseId);
  if (purchase.provider !== 'manual') {
    throw new DomainError('parameter_invalid', `${purchaseId} is paid through ${purchase.provider}: it is credited when the payment is, not by approval.`, { param: 'purchase' });
  }
  return purchase;
}

/**
 * The operator approves a manual-provider request: credited once. Approving again (or two
 * approvals at once) finds it paid and credits nothing more (`credited: false`); a rejected
 * request cannot be approved.
 */
export async function approveCreditPurchase(purchaseId: string, actor: AuditActor = OPERATOR): Promise<{ purchase: CreditRequestView; credited: boolean }> {
  const credited = await transaction(async (tx) => {
    const purchase = await decidable(tx, purchaseId);
    if (purchase.status === 'paid') return false;
    if (purchase.status !== 'pending') throw new DomainError('parameter_invalid', `${purchaseId} was ${purchase.status}: there is nothing to approve.`, { param: 'purchase' });
    const source = purchase.autoRechargeAttemptId ? `auto-recharge ${purchase.autoRechargeAttemptId}` : `request ${purchase.id}`;
    return creditOnce(tx, purchase, { paymentReference: `approved:${purchase.id}`, receiptUrl: null }, `Credit approved by the operator (${source}, manual provider)`, { actor, action: 'credit_purchase.approved' });
  });
  return { purchase: await requestView(await db().creditPurchase.findUniqueOrThrow({ where: { id: purchaseId } })), credited };
}

/** The operator rejects a manual-provider request: nothing is credited. An approved request cannot be rejected; rejecting twice changes nothing more. */
export async function rejectCreditPurchase(purchaseId: string, reason: string | null, actor: AuditActor = OPERATOR): Promise<{ purchase: CreditRequestView; rejected: boolean }> {
  const rejected = await transaction(async (tx) => {
    const purchase = await decidable(tx, purchaseId);
    if (purchase.status === 'rejected') return false;
    if (purchase.status !== 'pending') throw new DomainError('parameter_invalid', `${purchaseId} was ${purchase.status}: there is nothing to reject.`, { param: 'purchase' });
    const closed = await tx.creditPurchase.updateMany({ where: { id: purchase.id, status: 'pending' }, data: { status: 'rejected', completedAt: clock.now() } });
    if (closed.count !== 1) {
      // Decided by a concurrent call: refused unless that was a rejection too.
      const now = await tx.creditPurchase.findUniqueOrThrow({ where: { id: purchase.id }, select: { status: true } });
      if (now.status === 'rejected') return false;
      throw new DomainError('parameter_invalid', `${purchaseId} was ${now.status}: there is nothing to reject.`, { param: 'purchase' });
    }
    await auditPurchase(tx, actor, purchase, 'credit_purchase.rejected', { reason });
    return true;
  });
  return { purchase: await requestView(await db().creditPurchase.findUniqueOrThrow({ where: { id: purchaseId } })), rejected };
}

/**
 * An auto-recharge under the manual provider takes no money: it files a request for the
 * operator instead, in the transaction that closes the attempt. While one filed by an earlier
 * attempt still waits, that one stands (the operator's queue does not grow by the hour).
 */
export async function fileAutoRechargeRequest(tx: Tx, attempt: { id: string; organizationId: string; amount: number }): Promise<string> {
  const waiting = await tx.creditPurchase.findFirst({ where: { organizationId: attempt.organizationId, status: 'pending', provider: 'manual', autoRechargeAttemptId: { not: null } }, select: { id: true } });
  if (waiting) return waiting.id;
  const id = newId('cp');
  const purchase = await tx.creditPurchase.create({
    data: { id, organizationId: attempt.organizationId, amount: attempt.amount, provider: 'manual', autoRechargeAttemptId: attempt.id, createdAt: clock.now() },
  });
  await auditPurchase(tx, SYSTEM, purchase, 'credit_purchase.requested', { awaiting: 'operator_approval', auto_recharge: attempt.id });
  return id;
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

/** Whether buying credit takes a payment here (Stripe) or files a request the operator approves (manual). */
export function purchaseMode(): 'checkout' | 'operator_approval' {
  return config().PAYMENT_PROVIDER === 'stripe' ? 'checkout' : 'operator_approval';
}
