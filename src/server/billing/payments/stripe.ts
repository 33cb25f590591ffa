import type Stripe from 'stripe';
import { PaymentOutcomeUnknown, type PaymentLookup, type PaymentOutcome, type PaymentProvider } from './port';

/**
 * Stripe: an off-session PaymentIntent, confirmed at once, on the organization's saved
 * customer and payment method, with the attempt id as idempotency key and in its metadata. A
 * card error (declined, authentication required) or an invalid request (detached payment
 * method, …) is a refusal; `processing` is a payment under way; a timeout, a connection failure
 * or a Stripe server error leaves the outcome unknown. A lookup retrieves the PaymentIntent by
 * id, or finds it among the customer's PaymentIntents by `metadata.auto_recharge` (the list
 * endpoint, not search: search is eventually consistent and missing in some regions).
 */
export function stripeProvider(options: { secretKey: string; apiBase?: string; timeoutMs: number }): PaymentProvider {
  const base = new URL(options.apiBase ?? 'https://api.stripe.com');
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  // The SDK loads on the first charge, not with every process that may append to the ledger.
  let client: Promise<{ stripe: Stripe; errors: typeof Stripe.errors }> | null = null;
  const sdk = () =>
    (client ??= import('stripe').then(({ default: StripeSdk }) => ({
      stripe: new StripeSdk(options.secretKey, {
        host: base.hostname,
        port: base.port || (protocol === 'http' ? 80 : 443),
        protocol,
        timeout: options.timeoutMs,
        // Our job retries (with the same idempotency key); the client itself does not.
        maxNetworkRetries: 0,
        telemetry: false,
      }),
      errors: StripeSdk.errors,
    })));
  const unknown = (what: string, error: unknown) => new PaymentOutcomeUnknown(`Stripe did not answer ${what}: ${error instanceof Error ? error.message : String(error)}`);
  return {
    name: 'stripe',
    async charge(payment) {
      if (!payment.stripeCustomerId || !payment.stripePaymentMethodId) {
        return { status: 'refused', code: 'payment_method_missing', message: 'The organization has no saved payment method.' };
      }
      const { stripe, errors } = await sdk();
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: payment.amount,
            currency: 'eur',
            customer: payment.stripeCustomerId,
            payment_method: payment.stripePaymentMethodId,
            off_session: true,
            confirm: true,
            description: 'Roomtone auto-recharge',
            metadata: { organization: payment.organizationId, auto_recharge: payment.attemptId },
          },
          { idempotencyKey: `auto-recharge-${payment.attemptId}` },
        );
        return outcomeOf(intent);
      } catch (error) {
        if (error instanceof errors.StripeCardError || error instanceof errors.StripeInvalidRequestError) {
          const message = error.decline_code ? `${error.message} (${error.decline_code})` : error.message;
          return { status: 'refused', code: error.code ?? error.type, message, reference: error.payment_intent?.id };
        }
        throw unknown('the payment', error);
      }
    },
    async lookup(payment) {
      // Without a customer no PaymentIntent was ever created (charge refuses before Stripe).
      if (!payment.reference && !payment.stripeCustomerId) return { status: 'not_found' };
      const { stripe } = await sdk();
      try {
        if (payment.reference) return outcomeOf(await stripe.paymentIntents.retrieve(payment.reference));
        // A minute of margin for clocks that disagree.
        const since = Math.floor(payment.requestedSince.getTime() / 1000) - 60;
        for await (const intent of stripe.paymentIntents.list({ customer: payment.stripeCustomerId!, created: { gte: since }, limit: 100 })) {
          if (intent.metadata?.auto_recharge === payment.attemptId) return outcomeOf(intent);
        }
        return { status: 'not_found' } satisfies PaymentLookup;
      } catch (error) {
        throw unknown('the lookup', error);
      }
    },
  };
}

/** A PaymentIntent's state as an outcome: only `succeeded` took the money, only `processing` may still. */
function outcomeOf(intent: Stripe.PaymentIntent): PaymentOutcome {
  if (intent.status === 'succeeded') return { status: 'succeeded', reference: intent.id };
  if (intent.status === 'processing') return { status: 'processing', reference: intent.id };
  const lastError = intent.last_payment_error;
  return {
    status: 'refused',
    code: lastError?.code ?? `payment_intent_${intent.status}`,
    message: lastError?.message ?? `The payment ended in status ${intent.status}.`,
    reference: intent.id,
  };
}
