import { issueMessage } from '@/server/platform/zod-required';
import { z } from 'zod';
import { db, type Tx, transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { log } from '@/server/platform/logger';
import { jobs } from '@/server/platform/jobs/client';
import type { Step } from '@/server/platform/jobs/steps';
import { autoRechargeRequested } from './billing-jobs';
import { recordBalanceEvent } from '@/server/capabilities/webhooks/events';
import { OPERATOR, SYSTEM, type AuditActor } from '@/server/capabilities/audit/actor';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import type { AutoRechargeAttempt, Prisma } from '@/generated/prisma/client';
import { appendLedgerEntry } from './ledger';
import { rechargeExpiry } from './lots';
import { fileAutoRechargeRequest } from './credit-purchases';
import { balanceObject } from './balance-object';
import { activeSettings } from './balance-decrease';
import { paymentProvider } from './payments/provider';
import { PaymentOutcomeUnknown, type PaymentOutcome, type PaymentProvider } from './payments/port';

/**
 * Auto-recharge: when a live charge leaves the balance below the organization's threshold, a
 * `recharge` of the chosen amount is requested in the charge's transaction (a row and a job,
 * nothing slow) and paid by a job through the payment-provider port. At most 3 recharges within
 * 24 hours; the need for a fourth disables auto-recharge. A failure never changes the balance.
 * A provider that takes no money (manual) credits nothing: the job files a credit request for
 * the operator to approve and closes the attempt as failed (`operator_approval_required`).
 * Every attempt that ends paid or failed is in the audit log (auto_recharge.succeeded|failed).
 */
export { DEFAULT_LOW_BALANCE_THRESHOLD, RETRY_AFTER_REFUSAL_MS } from './balance-decrease';
export const MAX_RECHARGES_PER_DAY = 3;
const DAY_MS = 24 * 3600 * 1000;
/** A pending attempt older than this has lost its job (or the provider never answered). */
export const PENDING_REQUEUE_AFTER_MS = 2 * 60 * 1000;
/** From this age on, the sweeper looks the payment up at the provider instead of waiting for the job. */
export const PENDING_GIVE_UP_AFTER_MS = 3600 * 1000;
/** How often a payment under way (or a provider that could not answer a lookup) is asked again. */
export const PAYMENT_RECHECK_AFTER_MS = 15 * 60 * 1000;
/** The failure code of a recharge the provider cannot pay (manual): a credit request awaits the operator. */
export const APPROVAL_REQUIRED = 'operator_approval_required';
/** Margin past the provider's timeout after which a payment request is surely no longer in flight. */
const IN_FLIGHT_MARGIN_MS = 60 * 1000;
/** Provider lookups per sweep (each may take up to STRIPE_TIMEOUT_MS); the rest wait for the next minute. */
const MAX_LOOKUPS_PER_SWEEP = 20;

export const autoRechargeSettingsSchema = z
  .object({
    enabled: z.boolean(),
    /** Cents: a live charge that leaves the balance below it asks for a recharge. */
    threshold: z.number().int().min(0).max(10_000_000).nullable().optional(),
    /** Cents added by each recharge (Stripe's minimum for EUR is 50). */
    amount: z.number().int().min(100).max(10_000_000).nullable().optional(),
  })
  .strict();
export type AutoRechargeSettings = z.infer<typeof autoRechargeSettingsSchema>;

export interface AutoRechargeView {
  object: 'auto_recharge';
  organization: string;
  enabled: boolean;
  threshold: number | null;
  amount: number | null;
  provider: PaymentProvider['name'];
  payment_method: string | null;
}

function view(org: { id: string; autoRechargeEnabled: boolean; autoRechargeThreshold: number | null; autoRechargeAmount: number | null; stripePaymentMethodId: string | null }): AutoRechargeView {
  return {
    object: 'auto_recharge',
    organization: org.id,
    enabled: org.autoRechargeEnabled,
    threshold: org.autoRechargeThreshold,
    amount: org.autoRechargeAmount,
    provider: config().PAYMENT_PROVIDER,
    payment_method: org.stripePaymentMethodId,
  };
}

/**
 * Turn auto-recharge on or off and set its threshold and amount (the console calls this; the
 * CLI first). Enabling needs both values (given now or kept from before); with the Stripe
 * provider it also needs a saved payment method. Omitted values are kept.
 */
export async function setAutoRecharge(organizationId: string, input: AutoRechargeSettings, actor: AuditActor = OPERATOR): Promise<AutoRechargeView> {
  const parsed = autoRechargeSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = String(issue?.path[0] ?? 'enabled');
    throw new DomainError('parameter_invalid', `Invalid auto-recharge settings: ${issueMessage(issue, param, 'invalid').replace(/\.$/, '')}.`, { param });
  }
  const settings = parsed.data;
  return db().$transaction(async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: organizationId } });
    if (!org) throw new DomainError('resource_not_found', `No organization ${organizationId}.`, { param: 'organization' });
    const threshold = settings.threshold === undefined ? org.autoRechargeThreshold : settings.threshold;
    const amount = settings.amount === undefined ? org.autoRechargeAmount : settings.amount;
    if (settings.enabled) {
      if (threshold === null) throw new DomainError('parameter_invalid', 'Auto-recharge needs a threshold (cents).', { param: 'threshold' });
      if (amount === null) throw new DomainError('parameter_invalid', 'Auto-recharge needs an amount (cents).', { param: 'amount' });
      if (config().PAYMENT_PROVIDER === 'stripe' && (!org.stripeCustomerId || !org.stripePaymentMethodId)) {
        throw new DomainError('parameter_invalid', 'Save a payment method before enabling auto-recharge.', { param: 'enabled' });
      }
    }
    const updated = await tx.organization.update({
      where: { id: organizationId },
      data: { autoRechargeEnabled: settings.enabled, autoRechargeThreshold: threshold, autoRechargeAmount: amount },
    });
    await recordAudit(tx, actor, organizationId, {
      action: 'auto_recharge.updated',
      details: {
        from: { enabled: org.autoRechargeEnabled, threshold: org.autoRechargeThreshold, amount: org.autoRechargeAmount },
        to: { enabled: updated.autoRechargeEnabled, threshold: updated.autoRechargeThreshold, amount: updated.autoRechargeAmount },
      },
    });
    return view(updated);
  });
}

export async function getAutoRecharge(organizationId: string): Promise<AutoRechargeView> {
  const org = await db().organization.findUnique({ where: { id: organizationId } });
  if (!org) throw new DomainError('resource_not_found', `No organization ${organizationId}.`, { param: 'organization' });
  return view(org);
}

const stripeIds = z.object({ customerId: z.string().regex(/^cus_[A-Za-z0-9]+$/), paymentMethodId: z.string().regex(/^pm_[A-Za-z0-9_]+$/) });

/** Store the Stripe customer and saved payment method that auto-recharges are paid with. */
/**
 * `unlessSaved`: change (and audit) nothing when this card is the organization's already — a
 * conditional update decides, so two confirmations of one card set-up arriving together (the
 * browser's return and Stripe's webhook) record it once.
 */
export async function setPaymentMethod(organizationId: string, input: { customerId: string; paymentMethodId: string }, actor: AuditActor = OPERATOR, options: { unlessSaved?: boolean } = {}): Promise<AutoRechargeView> {
  const parsed = stripeIds.safeParse(input);
  if (!parsed.success) {
    const param = parsed.error.issues[0]?.path[0] === 'customerId' ? 'customer' : 'payment_method';
    throw new DomainError('parameter_invalid', param === 'customer' ? 'A Stripe customer id starts with cus_.' : 'A Stripe payment method id starts with pm_.', { param });
  }
  await transaction(async (tx) => {
    const updated = await tx.organization.updateMany({
      where: { id: organizationId, ...(options.unlessSaved ? { OR: [{ stripePaymentMethodId: null }, { NOT: { stripePaymentMethodId: parsed.data.paymentMethodId } }] } : {}) },
      data: { stripeCustomerId: parsed.data.customerId, stripePaymentMethodId: parsed.data.paymentMethodId },
    });
    if (updated.count === 0 && options.unlessSaved && (await tx.organization.count({ where: { id: organizationId } })) === 1) return;
    if (updated.count === 0) throw new DomainError('resource_not_found', `No organization ${organizationId}.`, { param: 'organization' });
    await recordAudit(tx, actor, organizationId, { action: 'auto_recharge.payment_method_set', details: { customer: parsed.data.customerId, payment_method: parsed.data.paymentMethodId } });
  });
  return view(await db().organization.findUniqueOrThrow({ where: { id: organizationId } }));
}

type Settlement = { status: 'succeeded'; provider: PaymentProvider['name']; reference: string } | { status: 'failed' | 'limited' | 'skipped'; provider?: PaymentProvider['name']; code: string; message: string; reference?: string };

/**
 * Close a pending attempt once (a conditional update decides, with `onlyIf` as a further
 * condition), free the organization's pointer, and write what follows: a recharge row (so a
 * payment is credited exactly once, whoever learns of it first), or balance.recharge_failed.
 */
async function settle(
  tx: Tx,
  attempt: Pick<AutoRechargeAttempt, 'id' | 'organizationId' | 'amount'>,
  settlement: Settlement,
  onlyIf: Prisma.AutoRechargeAttemptWhereInput = {},
): Promise<boolean> {
  const now = clock.now();
  const closed = await tx.autoRechargeAttempt.updateMany({
    where: { ...onlyIf, id: attempt.id, status: 'pending' },
    data: {
      status: settlement.status,
      providerStatus: null,
      checkAfter: null,
      provider: settlement.provider ?? null,
      providerReference: settlement.reference ?? null,
      failureCode: settlement.status === 'succeeded' ? null : settlement.code,
      failureMessage: settlement.status === 'succeeded' ? null : settlement.message,
      completedAt: now,
    },
  });
  if (closed.count === 0) return false;
  let filedRequest: string | null = null;
  if (settlement.status === 'failed' && settlement.code === APPROVAL_REQUIRED) filedRequest = await fileAutoRechargeRequest(tx, attempt);
  const disable = settlement.status === 'limited';
  const org = await tx.organization.update({
    where: { id: attempt.organizationId },
    data: { autoRechargePendingId: null, ...(disable ? { autoRechargeEnabled: false } : {}) },
  });
  const audited = { mode: 'live' as const, target: { type: 'auto_recharge', id: attempt.id } };
  if (settlement.status === 'succeeded') {
    const description = `Auto-recharge (${settlement.provider} ${settlement.reference})`;
    const entry = await appendLedgerEntry(tx, { organizationId: attempt.organizationId, type: 'recharge', amount: attempt.amount, description, expiresAt: rechargeExpiry(now) });
    await tx.autoRechargeAttempt.update({ where: { id: attempt.id }, data: { balanceTransactionId: entry.id } });
    await recordAudit(tx, SYSTEM, attempt.organizationId, {
      action: 'auto_recharge.succeeded',
      ...audited,
      details: { amount: attempt.amount, currency: 'eur', provider: settlement.provider, payment_reference: settlement.reference, balance_transaction: entry.id, balance_after: entry.balanceAfter },
    });
  } else if (settlement.status === 'failed' || settlement.status === 'limited') {
    await recordBalanceEvent(tx, attempt.organizationId, 'balance.recharge_failed', {
      ...balanceObject(org.balanceCents),
      failed_recharge: { amount: attempt.amount, auto_recharge_enabled: org.autoRechargeEnabled },
    });
    await recordAudit(tx, SYSTEM, attempt.organizationId, {
      action: 'auto_recharge.failed',
      ...audited,
      details: {
        amount: attempt.amount,
        currency: 'eur',
        provider: settlement.provider ?? null,
        code: settlement.code,
        message: settlement.message,
        auto_recharge_enabled: org.autoRechargeEnabled,
        credit_purchase: filedRequest,
      },
    });
  }
  return true;
}

/** What the provider said, written down: succeeded and refused close the attempt; processing keeps it open to be looked up again. */
async function recordOutcome(attempt: Pick<AutoRechargeAttempt, 'id' | 'organizationId' | 'amount'>, provider: PaymentProvider['name'], outcome: PaymentOutcome): Promise<boolean> {
  if (outcome.status === 'processing') {
    const kept = await db().autoRechargeAttempt.updateMany({
      where: { id: attempt.id, status: 'pending' },
      data: { provider, providerReference: outcome.reference, providerStatus: 'processing', checkAfter: new Date(clock.nowMs() + PAYMENT_RECHECK_AFTER_MS) },
    });
    return kept.count > 0;
  }
  return transaction((tx) =>
    settle(
      tx,
      attempt,
      outcome.status === 'succeeded'
        ? { status: 'succeeded', provider, reference: outcome.reference }
        : { status: 'failed', provider, code: outcome.code, message: outcome.message, reference: outcome.reference },
    ),
  );
}

/**
 * The auto-recharge job, in named idempotent steps: check (settings still on, balance still
 * low, fewer than 3 recharges in the last 24 hours), pay (idempotency key = attempt id), record.
 * An unknown payment outcome throws, and the jobs provider retries the job with the same key. Before each
 * payment request the attempt is marked as possibly in flight, only while it is still pending:
 * an attempt the sweeper has closed is never paid, and one with a request in flight is never
 * closed. A payment still `processing` leaves the attempt pending for the sweeper to follow.
 */
export async function runAutoRechargeJob(attemptId: string, step: Step, provider: PaymentProvider = paymentProvider()): Promise<void> {
  const decision = await step.run('check', () =>
    transaction(async (tx) => {
      const attempt = await tx.autoRechargeAttempt.findUnique({ where: { id: attemptId } });
      if (!attempt || attempt.status !== 'pending') return null;
      const [org] = await tx.$queryRaw<{ balanceCents: number; autoRechargeEnabled: boolean; autoRechargeThreshold: number | null; autoRechargeAmount: number | null }[]>`
        select "balanceCents", "autoRechargeEnabled", "autoRechargeThreshold", "autoRechargeAmount" from "Organization" where id = ${attempt.organizationId} for update`;
      const settings = org ? activeSettings(org) : null;
      if (!org || !settings) {
        await settle(tx, attempt, { status: 'skipped', code: 'auto_recharge_disabled', message: 'Auto-recharge was turned off before the payment.' });
        return null;
      }
      if (org.balanceCents >= settings.threshold) {
        await settle(tx, attempt, { status: 'skipped', code: 'balance_restored', message: 'The balance is no longer below the threshold.' });
        return null;
      }
      const recent = await tx.balanceTransaction.count({
        where: { organizationId: attempt.organizationId, type: 'recharge', createdAt: { gt: new Date(clock.nowMs() - DAY_MS) } },
      });
      if (recent >= MAX_RECHARGES_PER_DAY) {
        await settle(tx, attempt, {
          status: 'limited',
          code: 'recharge_limit_reached',
          message: `${MAX_RECHARGES_PER_DAY} recharges within 24 hours: auto-recharge is now disabled.`,
        });
        return null;
      }
      return { id: attempt.id, organizationId: attempt.organizationId, amount: attempt.amount };
    }),
  );
  if (!decision) return;
  if (provider.approvalOnly) {
    await step.run('request approval', () =>
      transaction((tx) =>
        settle(tx, decision, {
          status: 'failed',
          provider: provider.name,
          code: APPROVAL_REQUIRED,
          message: 'This installation takes no payment (manual provider): the recharge waits for the operator\'s approval as a credit request.',
        }),
      ),
    );
    return;
  }
  const org = await db().organization.findUniqueOrThrow({ where: { id: decision.organizationId }, select: { stripeCustomerId: true, stripePaymentMethodId: true } });
  const outcome = await step.run('pay', async (): Promise<PaymentOutcome | null> => {
    const marked = await db().autoRechargeAttempt.updateMany({ where: { id: attemptId, status: 'pending' }, data: { paymentRequestedAt: clock.now() } });
    if (marked.count === 0) return null;
    return provider.charge({ attemptId, organizationId: decision.organizationId, amount: decision.amount, ...org });
  });
  if (!outcome) return;
  await step.run('record', () => recordOutcome(decision, provider.name, outcome));
}

/**
 * Every minute, for pending attempts older than 2 minutes: re-enqueue the job (a no-op when it
 * exists) while it may still pay; look the payment up at the provider when one is under way
 * (`processing`) or the attempt is an hour old. What the provider holds decides: a payment that
 * succeeded is credited (once, however late), a refused one closes the attempt as failed, one
 * still under way is asked again later. Only when the provider has no payment for the attempt,
 * and no payment request can still be in flight, is it closed as failed; while the provider
 * cannot answer, the attempt stays pending (and so does any further auto-recharge).
 */
export async function sweepAutoRecharges(now: Date, provider: PaymentProvider = paymentProvider()): Promise<{ requeued: number; credited: number; failed: number; waiting: number }> {
  const pending = await db().autoRechargeAttempt.findMany({
    where: { status: 'pending', createdAt: { lt: new Date(now.getTime() - PENDING_REQUEUE_AFTER_MS) }, OR: [{ checkAfter: null }, { checkAfter: { lte: now } }] },
    orderBy: { createdAt: 'asc' },
    take: 500,
  });
  const counts = { requeued: 0, credited: 0, failed: 0, waiting: 0 };
  let lookups = 0;
  for (const attempt of pending) {
    const old = now.getTime() - attempt.createdAt.getTime() >= PENDING_GIVE_UP_AFTER_MS;
    if (!old && attempt.providerStatus !== 'processing') {
      await jobs().resend(autoRechargeRequested(attempt.id));
      counts.requeued += 1;
      continue;
    }
    if (++lookups > MAX_LOOKUPS_PER_SWEEP) {
      counts.waiting += 1;
      continue;
    }
    const result = await reconcileAttempt(attempt, now, provider, old);
    counts[result] += 1;
  }
  return counts;
}

async function reconcileAttempt(attempt: AutoRechargeAttempt, now: Date, provider: PaymentProvider, old: boolean): Promise<'credited' | 'failed' | 'waiting' | 'requeued'> {
  const lookupStarted = clock.now();
  const later = () => db().autoRechargeAttempt.updateMany({ where: { id: attempt.id, status: 'pending' }, data: { checkAfter: new Date(now.getTime() + PAYMENT_RECHECK_AFTER_MS) } });
  const org = await db().organization.findUnique({ where: { id: attempt.organizationId }, select: { stripeCustomerId: true, stripePaymentMethodId: true } });
  let found;
  try {
    found = await provider.lookup({
      attemptId: attempt.id,
      organizationId: attempt.organizationId,
      amount: attempt.amount,
      stripeCustomerId: org?.stripeCustomerId ?? null,
      stripePaymentMethodId: org?.stripePaymentMethodId ?? null,
      reference: attempt.providerReference,
      requestedSince: attempt.createdAt,
    });
  } catch (error) {
    if (!(error instanceof PaymentOutcomeUnknown)) throw error;
    log.warn('auto-recharge: the payment provider could not say what became of a payment; asking again later', { attemptId: attempt.id, error: error.message });
    await later();
    return 'waiting';
  }
  if (found.status === 'succeeded' || found.status === 'refused') {
    await recordOutcome(attempt, provider.name, found);
    if (found.status === 'succeeded') log.info('auto-recharge: a payment confirmed after the fact was credited', { attemptId: attempt.id, reference: found.reference });
    return found.status === 'succeeded' ? 'credited' : 'failed';
  }
  if (found.status === 'processing') {
    await recordOutcome(attempt, provider.name, found);
    return 'waiting';
  }
  if (!old) {
    await jobs().resend(autoRechargeRequested(attempt.id));
    return 'requeued';
  }
  // No payment at the provider. A request sent before the lookup began (timeout included) has
  // reached it or never will; one sent since makes the attempt wait for the next sweep.
  const inFlightSince = new Date(lookupStarted.getTime() - config().STRIPE_TIMEOUT_MS - IN_FLIGHT_MARGIN_MS);
  const closed = await transaction((tx) =>
    settle(
      tx,
      attempt,
      { status: 'failed', code: 'provider_unavailable', message: 'The payment provider did not answer, and holds no payment for this recharge: nothing was taken.' },
      { OR: [{ paymentRequestedAt: null }, { paymentRequestedAt: { lt: inFlightSince } }] },
    ),
  );
  return closed ? 'failed' : 'waiting';
}
