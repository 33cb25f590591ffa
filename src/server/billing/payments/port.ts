/** One auto-recharge payment, off-session, on the organization's saved payment method. */
export interface RechargePayment {
  /** The attempt id: the provider's idempotency key, so a retried job never pays twice. */
  attemptId: string;
  organizationId: string;
  amount: number;
  stripeCustomerId: string | null;
  stripePaymentMethodId: string | null;
}

export type PaymentOutcome =
  | { status: 'succeeded'; reference: string }
  | { status: 'refused'; code: string; message: string; reference?: string };

/**
 * The payment-provider port. `charge` answers succeeded or refused; when the outcome is unknown
 * (timeout, connection failure, provider error) it throws PaymentOutcomeUnknown and the job
 * retries with the same idempotency key.
 */
export interface PaymentProvider {
  name: 'manual' | 'stripe';
  charge(payment: RechargePayment): Promise<PaymentOutcome>;
}

export class PaymentOutcomeUnknown extends Error {}
