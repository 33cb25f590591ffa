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
  /** A hosted checkout for buying credit; absent: the provider takes no payment. */
  checkout?: CheckoutPort;
  /** The provider takes no money (manual): every credit, auto-recharges included, waits for the operator's approval. */
  approvalOnly?: true;
}

/** A credit purchase handed to the provider's hosted payment page. */
export interface CheckoutRequest {
  /** Our purchase id: the provider's idempotency key and the reference its webhook carries back. */
  purchaseId: string;
  organizationId: string;
  amount: number;
  /** The organization's customer at the provider, if it has one (else the checkout creates one). */
  customerId: string | null;
  /** Where the provider sends the browser after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

/** A checkout as the provider sees it: only `paid` took the money. */
export type CheckoutState =
  | { status: 'open' }
  | { status: 'expired' }
  | { status: 'paid'; paymentReference: string; receiptUrl: string | null; customerId: string | null; paymentMethodId: string | null };

export interface CheckoutPort {
  start(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>;
  /** Throws PaymentOutcomeUnknown when the provider cannot say. */
  retrieve(checkoutId: string): Promise<CheckoutState>;
  /**
   * The checkout a webhook delivery is about, once its signature is verified; null for an event
   * about something else. Throws WebhookSignatureInvalid for a payload the provider did not sign.
   */
  checkoutOfWebhook(rawBody: string, signatureHeader: string | null): Promise<string | null>;
  /** A hosted page that saves another card on the organization's customer, for off-session payments (auto-recharge). */
  startCardSetup(request: CardSetupRequest): Promise<{ checkoutId: string; url: string }>;
  /** Throws PaymentOutcomeUnknown when the provider cannot say. */
  retrieveCardSetup(checkoutId: string): Promise<CardSetupState>;
}

export interface CardSetupRequest {
  organizationId: string;
  customerId: string;
  /** `{CHECKOUT_SESSION_ID}` in it is replaced by the provider with the checkout's id. */
  successUrl: string;
  cancelUrl: string;
}

/** A card set-up as the provider sees it: `complete` saved `paymentMethodId` on the customer. */
export type CardSetupState =
  | { status: 'open' }
  | { status: 'expired' }
  | { status: 'complete'; organizationId: string | null; customerId: string | null; paymentMethodId: string | null };

export class WebhookSignatureInvalid extends Error {}

export class PaymentOutcomeUnknown extends Error {}
