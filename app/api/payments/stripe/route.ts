import { serveStripeWebhook } from '@/server/http/stripe-webhook';

// Stripe's webhook endpoint (checkout events that confirm credit purchases).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';
export const POST = serveStripeWebhook;
