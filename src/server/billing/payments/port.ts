/** One auto-recharge payment, off-session, on the organization's saved payment method. */
export interface RechargePayment {
  /** The attempt id: the provider's idempotency key, so a retried job never pays twice. */
  attemptId: string;
  organizationId: string;
  amount: number;
  stripeCustomerId: string | null;
  stripePaymentMethodId: string | null;
}

/**
 * What the provider says of a payment. `processing` is no refusal: the money may still be
 * taken (a bank debit settles in days), so the attempt waits for the final word.
 */
export type PaymentOutcome =
  | { status: 'succeeded'; reference: string }
  | { status: 'processing'; reference: string }
  | { status: 'refused'; code: string; message: string; reference?: string };

/** A payment looked up after the fact; `not_found`: the provider holds no payment for the attempt. */
export type PaymentLookup = PaymentOutcome | { status: 'not_found' };

/**
 * The payment-provider port. `charge` answers succeeded, processing or refused; when the outcome
 * is unknown (timeout, connection failure, provider error) it throws PaymentOutcomeUnknown and
 * the job retries with the same idempotency key. `lookup` finds what became of an attempt's
 * payment — by its reference when one came back, else by the attempt id every payment carries —
 * and throws PaymentOutcomeUnknown when the provider cannot say.
 */
export interface PaymentProvider {
  name: 'manual' | 'stripe';
  charge(payment: RechargePayment): Promise<PaymentOutcome>;
  lookup(payment: RechargePayment & { reference: string | null; requestedSince: Date }): Promise<PaymentLookup>;
}

export class PaymentOutcomeUnknown extends Error {}
