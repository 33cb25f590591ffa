import { log } from '@/server/platform/logger';
import { paymentProvider } from '@/server/billing/payments/provider';
import { WebhookSignatureInvalid } from '@/server/billing/payments/port';
import { confirmCheckoutFromWebhook } from '@/server/billing/credit-purchases';
import { confirmCardSetupFromWebhook } from '@/server/billing/card-setup';

/** Stripe's events are small; anything larger is not one. */
const MAX_EVENT_BYTES = 512 * 1024;

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

/**
 * POST /api/payments/stripe: Stripe's webhook for credit purchases. The Stripe-Signature header
 * is checked against STRIPE_WEBHOOK_SECRET over the raw body (Stripe's scheme: HMAC-SHA256 of
 * `t.body`, 5 minutes of tolerance) before anything is read; the event only names a checkout,
 * which is then read back from Stripe. A 2xx tells Stripe to stop; a 5xx (Stripe could not be
 * asked) makes it retry, and the sweep reconciles meanwhile.
 */
export async function serveStripeWebhook(req: Request): Promise<Response> {
  const checkout = paymentProvider().checkout;
  if (!checkout) return json(404, { error: { code: 'route_not_found', message: 'No payment provider with webhooks is configured (PAYMENT_PROVIDER).' } });
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_EVENT_BYTES) return json(413, { error: { code: 'request_too_large', message: 'Not a Stripe event.' } });
  const body = await req.text();
  if (Buffer.byteLength(body) > MAX_EVENT_BYTES) return json(413, { error: { code: 'request_too_large', message: 'Not a Stripe event.' } });
  let checkoutId: string | null;
  try {
    checkoutId = await checkout.checkoutOfWebhook(body, req.headers.get('stripe-signature'));
  } catch (error) {
    if (error instanceof WebhookSignatureInvalid) {
      log.warn('stripe webhook refused', { reason: error.message });
      return json(400, { error: { code: 'parameter_invalid', message: 'The Stripe-Signature does not verify.', param: 'stripe-signature' } });
    }
    throw error;
  }
  if (!checkoutId) return json(200, { received: true, ignored: true });
  try {
    const purchase = await confirmCheckoutFromWebhook(checkoutId);
    const outcome = purchase === 'unknown_checkout' ? await confirmCardSetupFromWebhook(checkoutId) : purchase;
    return json(200, { received: true, outcome });
  } catch (error) {
    log.warn('stripe webhook: checkout not confirmed yet', { checkoutId, error: String(error) });
    return json(503, { error: { code: 'service_unavailable', message: 'Could not confirm the checkout now; Stripe retries.' } });
  }
}
