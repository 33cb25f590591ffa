import { config } from '@/server/platform/config';
import type { PaymentProvider } from './port';
import { manualProvider } from './manual';
import { stripeProvider } from './stripe';

let cached: PaymentProvider | null = null;

/** The configured provider (PAYMENT_PROVIDER): `manual` by default. */
export function paymentProvider(): PaymentProvider {
  if (cached) return cached;
  const c = config();
  if (c.PAYMENT_PROVIDER === 'stripe') {
    if (!c.STRIPE_SECRET_KEY) throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY.');
    cached = stripeProvider({ secretKey: c.STRIPE_SECRET_KEY, apiBase: c.STRIPE_API_BASE, timeoutMs: c.STRIPE_TIMEOUT_MS, webhookSecret: c.STRIPE_WEBHOOK_SECRET });
  } else {
    cached = manualProvider();
  }
  return cached;
}
