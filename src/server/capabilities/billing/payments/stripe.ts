import type Stripe from 'stripe';
import { PaymentOutcomeUnknown, WebhookSignatureInvalid, type CardSetupState, type CheckoutPort, type CheckoutState, type PaymentLookup, type PaymentOutcome, type PaymentProvider } from './port';

/**
 * Stripe: an off-session PaymentIntent, confirmed at once, on the organization's saved
 * customer and payment method, with the attempt id as idempotency key and in its metadata. A
 * card error (declined, authentication required) or an invalid request (detached payment
 * method, …) is a refusal; `processing` is a payment under way; a timeout, a connection failure
 * or a Stripe server error leaves the outcome unknown. A lookup retrieves the PaymentIntent by
 * id, or finds it among the customer's PaymentIntents by `metadata.auto_recharge` (the list
 * endpoint, not search: search is eventually consistent and missing in some regions).
 */
export function stripeProvider(options: { secretKey: string; apiBase?: string; timeoutMs: number; webhookSecret?: string }): PaymentProvider {
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
    checkout: stripeCheckout(sdk, unknown, options.webhookSecret),
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

/** Events that mean a checkout may have been paid (or has ended): each sends us to read the session itself. */
const CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired']);

/**
 * Stripe Checkout for buying credit: a hosted payment page (mode `payment`, EUR) whose card is
 * saved for off-session use, so the same card pays auto-recharges. The purchase id is the
 * idempotency key and travels as `client_reference_id` and metadata. Whoever reports a
 * checkout (the browser's return, a webhook, the sweep), the session is read back from Stripe:
 * only Stripe's own answer credits.
 */
function stripeCheckout(
  sdk: () => Promise<{ stripe: Stripe; errors: typeof Stripe.errors }>,
  unknown: (what: string, error: unknown) => PaymentOutcomeUnknown,
  webhookSecret: string | undefined,
): CheckoutPort {
  return {
    async start(request) {
      const { stripe } = await sdk();
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ quantity: 1, price_data: { currency: 'eur', unit_amount: request.amount, product_data: { name: 'Roomtone credit' } } }],
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            client_reference_id: request.purchaseId,
            ...(request.customerId ? { customer: request.customerId } : { customer_creation: 'always' as const }),
            payment_intent_data: { setup_future_usage: 'off_session', metadata: { organization: request.organizationId, credit_purchase: request.purchaseId } },
            metadata: { organization: request.organizationId, credit_purchase: request.purchaseId },
          },
          { idempotencyKey: `credit-purchase-${request.purchaseId}` },
        );
        if (!session.url) throw new Error('Stripe returned a checkout without a URL.');
        return { checkoutId: session.id, url: session.url };
      } catch (error) {
        throw unknown('the checkout', error);
      }
    },
    async retrieve(checkoutId) {
      const { stripe } = await sdk();
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(checkoutId, { expand: ['payment_intent.latest_charge'] });
      } catch (error) {
        throw unknown('the checkout lookup', error);
      }
      return checkoutStateOf(session);
    },
    // Checkout in `setup` mode: the card entered there is saved on the customer for off-session use.
    async startCardSetup(request) {
      const { stripe } = await sdk();
      try {
        const session = await stripe.checkout.sessions.create({
          mode: 'setup',
          currency: 'eur',
          customer: request.customerId,
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          setup_intent_data: { metadata: { organization: request.organizationId } },
          metadata: { organization: request.organizationId, card_setup: 'auto_recharge' },
        });
        if (!session.url) throw new Error('Stripe returned a checkout without a URL.');
        return { checkoutId: session.id, url: session.url };
      } catch (error) {
        throw unknown('the card set-up', error);
      }
    },
    async retrieveCardSetup(checkoutId) {
      const { stripe } = await sdk();
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(checkoutId, { expand: ['setup_intent'] });
      } catch (error) {
        throw unknown('the card set-up lookup', error);
      }
      return cardSetupStateOf(session);
    },
    async checkoutOfWebhook(rawBody, signatureHeader) {
      if (!webhookSecret) throw new WebhookSignatureInvalid('STRIPE_WEBHOOK_SECRET is not set: Stripe webhooks cannot be verified.');
      if (!signatureHeader) throw new WebhookSignatureInvalid('The Stripe-Signature header is missing.');
      const { stripe } = await sdk();
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signatureHeader, webhookSecret);
      } catch (error) {
        throw new WebhookSignatureInvalid(error instanceof Error ? error.message : String(error));
      }
      if (!CHECKOUT_EVENTS.has(event.type)) return null;
      const session = event.data.object as { id?: unknown; object?: unknown };
      return session.object === 'checkout.session' && typeof session.id === 'string' ? session.id : null;
    },
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function checkoutStateOf(session: Stripe.Checkout.Session): CheckoutState {
  if (session.payment_status === 'paid') {
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    return {
      status: 'paid',
      paymentReference: idOf(session.payment_intent) ?? session.id,
      receiptUrl: charge?.receipt_url ?? null,
      customerId: idOf(session.customer),
      paymentMethodId: idOf(intent?.payment_method),
    };
  }
  // `complete` but unpaid: a delayed method (a bank debit) still settling; the webhook or the sweep comes back.
  return session.status === 'expired' ? { status: 'expired' } : { status: 'open' };
}

function cardSetupStateOf(session: Stripe.Checkout.Session): CardSetupState {
  const intent = typeof session.setup_intent === 'object' ? session.setup_intent : null;
  if (session.mode === 'setup' && session.status === 'complete' && intent?.status === 'succeeded') {
    return { status: 'complete', organizationId: session.metadata?.organization ?? null, customerId: idOf(session.customer), paymentMethodId: idOf(intent.payment_method) };
  }
  return session.status === 'expired' ? { status: 'expired' } : { status: 'open' };
}
