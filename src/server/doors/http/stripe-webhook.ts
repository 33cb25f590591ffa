import { ApiError } from '@/server/doors/errors';
import { errorReply, jsonReply, type DoorReply } from '@/server/doors/door';
import { log } from '@/server/platform/logger';
import { paymentProvider } from '@/server/capabilities/billing/payments/provider';
import { WebhookSignatureInvalid } from '@/server/capabilities/billing/payments/port';
import { confirmCheckoutFromWebhook } from '@/server/capabilities/billing/credit-purchases';
import { confirmCardSetupFromWebhook } from '@/server/capabilities/billing/card-setup';

/** Stripe's events are small; anything larger is not one. */
const MAX_EVENT_BYTES = 512 * 1024;

const NO_STORE = { 'cache-control': 'no-store' };
const received = (body: unknown): DoorReply => jsonReply(200, body, NO_STORE);
function refused(error: ApiError): DoorReply {
  const reply = errorReply(error);
  return { ...reply, headers: { ...reply.headers, ...NO_STORE } };
}

/**
 * POST /api/payments/stripe: Stripe's webhook for credit purchases. The Stripe-Signature header
 * is checked against STRIPE_WEBHOOK_SECRET over the raw body (Stripe's scheme: HMAC-SHA256 of
 * `t.body`, 5 minutes of tolerance) before anything is read; the event only names a checkout,
 * which is then read back from Stripe. A 2xx tells Stripe to stop; a 5xx (Stripe could not be
 * asked) makes it retry, and the sweep reconciles meanwhile.
 */
export async function serveStripeWebhook(req: Request): Promise<DoorReply> {
  const checkout = paymentProvider().checkout;
  if (!checkout) return refused(new ApiError('route_not_found', 'No payment provider with webhooks is configured (PAYMENT_PROVIDER).'));
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_EVENT_BYTES) return refused(new ApiError('request_too_large', 'Not a Stripe event.'));
  const body = await req.text();
  if (Buffer.byteLength(body) > MAX_EVENT_BYTES) return refused(new ApiError('request_too_large', 'Not a Stripe event.'));
  let checkoutId: string | null;
  try {
    checkoutId = await checkout.checkoutOfWebhook(body, req.headers.get('stripe-signature'));
  } catch (error) {
    if (error instanceof WebhookSignatureInvalid) {
      log.warn('stripe webhook refused', { reason: error.message });
      return refused(new ApiError('parameter_invalid', 'The Stripe-Signature does not verify.', { param: 'stripe-signature' }));
    }
    throw error;
  }
  if (!checkoutId) return received({ received: true, ignored: true });
  try {
    const purchase = await confirmCheckoutFromWebhook(checkoutId);
    const outcome = purchase === 'unknown_checkout' ? await confirmCardSetupFromWebhook(checkoutId) : purchase;
    return received({ received: true, outcome });
  } catch (error) {
    log.warn('stripe webhook: checkout not confirmed yet', { checkoutId, error: String(error) });
    return refused(new ApiError('service_unavailable', 'Could not confirm the checkout now; Stripe retries.'));
  }
}
