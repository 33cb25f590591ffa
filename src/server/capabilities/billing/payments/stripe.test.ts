// @node-lines same: our payment rules over the Stripe SDK against a local stand-in; SDK requests over node:http with socket timeouts run under both lines in src/server/capabilities/storage/s3.test.ts and src/server/capabilities/net/safe-http.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../../../../test/stripe-server';
import { stripeProvider } from './stripe';
import { PaymentOutcomeUnknown, type RechargePayment } from './port';

let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(async () => {
  await stripe.close();
});

function payment(paymentMethod: string | null, attemptId = `rch_${Math.random().toString(36).slice(2)}`): RechargePayment {
  return { attemptId, organizationId: 'org_test', amount: 2500, stripeCustomerId: 'cus_Test123', stripePaymentMethodId: paymentMethod };
}

describe('stripe payment provider (against a local PaymentIntents server)', () => {
  // A generous timeout unless a case waits for it: a cold first request on a loaded machine (test
  // files run three at a time) can take most of a second.
  const provider = (timeoutMs = 10_000) => stripeProvider({ secretKey: 'sk_test_roomtone', apiBase: stripe.url, timeoutMs });

  it('success: an off-session, confirmed PaymentIntent in EUR on the saved customer and payment method, keyed by the attempt', async () => {
    const p = payment('pm_card_visa');
    const outcome = await provider().charge(p);
    expect(outcome).toMatchObject({ status: 'succeeded', reference: expect.stringMatching(/^pi_/) });
    const request = stripe.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents', authorization: 'Bearer sk_test_roomtone', idempotencyKey: `auto-recharge-${p.attemptId}` });
    expect(request.form).toMatchObject({
      amount: '2500',
      currency: 'eur',
      customer: 'cus_Test123',
      payment_method: 'pm_card_visa',
      off_session: 'true',
      confirm: 'true',
      'metadata[organization]': 'org_test',
      'metadata[auto_recharge]': p.attemptId,
    });
    // The same attempt again (a retried job): Stripe replays the first answer, one payment.
    const again = await provider().charge(p);
    expect(again).toEqual(outcome);
  });

  it('card declined: a refusal with Stripe code and decline reason, not an exception', async () => {
    const outcome = await provider().charge(payment('pm_card_chargeDeclined'));
    expect(outcome).toMatchObject({ status: 'refused', code: 'card_declined', message: 'Your card was declined. (generic_decline)', reference: expect.stringMatching(/^pi_/) });
  });

  it('timeout: the outcome is unknown (PaymentOutcomeUnknown), so the job retries with the same key', async () => {
    const started = Date.now();
    await expect(provider(800).charge(payment('pm_timeout'))).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a PaymentIntent still processing is no refusal: the outcome says processing, with its id', async () => {
    const outcome = await provider().charge(payment('pm_processing'));
    expect(outcome).toMatchObject({ status: 'processing', reference: expect.stringMatching(/^pi_/) });
  });

  it('lookup by reference follows a processing payment to its end (succeeded, or refused with the bank’s reason)', async () => {
    const p = payment('pm_processing');
    const first = await provider().charge(p);
    const reference = first.status === 'processing' ? first.reference : '';
    const since = new Date(Date.now() - 1000);
    expect(await provider().lookup({ ...p, reference, requestedSince: since })).toEqual({ status: 'processing', reference });
    stripe.settle(reference, 'succeeded');
    expect(await provider().lookup({ ...p, reference, requestedSince: since })).toEqual({ status: 'succeeded', reference });

    const other = payment('pm_processing');
    const second = await provider().charge(other);
    const ref2 = second.status === 'processing' ? second.reference : '';
    stripe.settle(ref2, 'requires_payment_method');
    expect(await provider().lookup({ ...other, reference: ref2, requestedSince: since })).toEqual({ status: 'refused', code: 'payment_failed', message: 'The bank refused the debit.', reference: ref2 });
  });

  it('lookup without a reference finds the attempt’s payment by its metadata among the customer’s, across pages', async () => {
    const p = payment('pm_timeout_charged');
    const since = new Date(Date.now() - 1000);
    // Stripe took the money but the answer never came back.
    await expect(provider(800).charge(p)).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
    // 150 later payments of the same customer push it to the second page of the list.
    for (let i = 0; i < 150; i++) await provider().charge(payment('pm_card_visa'));
    const found = await provider().lookup({ ...p, reference: null, requestedSince: since });
    expect(found).toMatchObject({ status: 'succeeded', reference: expect.stringMatching(/^pi_/) });
    expect(stripe.intents.get((found as { reference: string }).reference)?.metadata.auto_recharge).toBe(p.attemptId);
    expect(stripe.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payment_intents').length).toBeGreaterThanOrEqual(2);
  });

  it('lookup of a payment that never reached Stripe: not_found; with Stripe failing: PaymentOutcomeUnknown', async () => {
    const p = payment('pm_timeout');
    await expect(provider(800).charge(p)).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
    expect(await provider().lookup({ ...p, reference: null, requestedSince: new Date(Date.now() - 1000) })).toEqual({ status: 'not_found' });
    expect(await provider().lookup({ ...payment(null), stripeCustomerId: null, reference: null, requestedSince: new Date() })).toEqual({ status: 'not_found' });
    stripe.unavailable = true;
    try {
      await expect(provider().lookup({ ...p, reference: null, requestedSince: new Date() })).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
      await expect(provider().lookup({ ...p, reference: 'pi_0123', requestedSince: new Date() })).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
    } finally {
      stripe.unavailable = false;
    }
  });

  it('no saved payment method: refused without calling Stripe', async () => {
    const before = stripe.requests.length;
    const outcome = await provider().charge(payment(null));
    expect(outcome).toMatchObject({ status: 'refused', code: 'payment_method_missing' });
    expect(stripe.requests.length).toBe(before);
  });
});
