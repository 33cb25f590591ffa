import type Stripe from 'stripe';
import { PaymentOutcomeUnknown, type PaymentProvider } from './port';

/**
 * Stripe: an off-session PaymentIntent, confirmed at once, on the organization's saved
 * customer and payment method, with the attempt id as idempotency key. A card error (declined,
 * authentication required) or an invalid request (detached payment method, …) is a refusal;
 * a timeout, a connection failure or a Stripe server error leaves the outcome unknown.
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
        if (intent.status === 'succeeded') return { status: 'succeeded', reference: intent.id };
        return { status: 'refused', code: `payment_intent_${intent.status}`, message: `The payment ended in status ${intent.status}.`, reference: intent.id };
      } catch (error) {
        if (error instanceof errors.StripeCardError || error instanceof errors.StripeInvalidRequestError) {
          const message = error.decline_code ? `${error.message} (${error.decline_code})` : error.message;
          return { status: 'refused', code: error.code ?? error.type, message, reference: error.payment_intent?.id };
        }
        throw new PaymentOutcomeUnknown(`Stripe did not answer the payment: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
