import { db } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { log } from '@/server/platform/logger';
import { SYSTEM, type AuditActor } from '@/server/capabilities/audit/actor';
import { setPaymentMethod } from './auto-recharge';
import { paymentProvider } from './payments/provider';
import { PaymentOutcomeUnknown, type PaymentProvider } from './payments/port';

/**
 * Changing the card that pays auto-recharges, apart from buying credit: the provider's hosted
 * page saves another card on the organization's customer (Stripe Checkout in setup mode); back
 * from it, the set-up is read from the provider and its card becomes the organization's
 * (`setPaymentMethod`: audited as `auto_recharge.payment_method_set`). The browser's return
 * carries only the checkout id: only the provider's answer, for a set-up made for this
 * organization on its own customer, changes anything. The provider's webhook does the same when
 * the browser never comes back. The manual provider takes no payment, so
 * there is no card to change.
 */
export type CardSetupView = { status: 'saved'; card: string } | { status: 'open' } | { status: 'expired' };

function checkoutOf(provider: PaymentProvider) {
  if (!provider.checkout) throw new DomainError('parameter_invalid', 'This installation takes no payment (manual provider): auto-recharge needs no card.', { param: 'card' });
  return provider.checkout;
}

/** `returnTo`: the console's billing page; the provider sends the browser back with `?card_setup=<checkout id>`. */
export async function startCardSetup(organizationId: string, returnTo: string, provider: PaymentProvider = paymentProvider()): Promise<{ url: string }> {
  const checkout = checkoutOf(provider);
  const org = await db().organization.findUniqueOrThrow({ where: { id: organizationId }, select: { stripeCustomerId: true } });
  if (!org.stripeCustomerId) {
    throw new DomainError('parameter_invalid', 'Add credit once first: the card you pay with is saved for auto-recharge, and can be changed afterwards.', { param: 'card' });
  }
  const back = new URL(returnTo);
  const cancel = back.toString();
  // Stripe fills in the checkout's id (the literal braces must stay unencoded).
  const success = `${cancel}${back.search ? '&' : '?'}card_setup={CHECKOUT_SESSION_ID}`;
  try {
    const started = await checkout.startCardSetup({ organizationId, customerId: org.stripeCustomerId, successUrl: success, cancelUrl: cancel });
    return { url: started.url };
  } catch (error) {
    log.warn('card set-up not started', { organizationId, error: String(error) });
    throw new DomainError('service_unavailable', 'The payment provider did not answer. Nothing changed; try again in a minute.', { retryAfterSeconds: 60 });
  }
}

/** The browser is back from the set-up page: ask the provider, and save the card when the set-up is this organization's. */
export async function confirmCardSetup(organizationId: string, checkoutId: string, actor: AuditActor, provider: PaymentProvider = paymentProvider()): Promise<CardSetupView> {
  const checkout = checkoutOf(provider);
  const notFound = () => new DomainError('resource_not_found', `No card set-up ${checkoutId} for this organization.`, { param: 'checkoutId' });
  let state;
  try {
    state = await checkout.retrieveCardSetup(checkoutId);
  } catch (error) {
    if (error instanceof PaymentOutcomeUnknown) throw new DomainError('service_unavailable', 'The payment provider did not answer. Reload the page in a minute.', { retryAfterSeconds: 60 });
    throw error;
  }
  if (state.status !== 'complete') return { status: state.status };
  const org = await db().organization.findUniqueOrThrow({ where: { id: organizationId }, select: { stripeCustomerId: true } });
  if (state.organizationId !== organizationId || !state.customerId || state.customerId !== org.stripeCustomerId || !state.paymentMethodId) throw notFound();
  // A reload of the return page, or the browser and the webhook at once, save (and audit) once.
  await setPaymentMethod(organizationId, { customerId: state.customerId, paymentMethodId: state.paymentMethodId }, actor, { unlessSaved: true });
  return { status: 'saved', card: state.paymentMethodId };
}

/** Stripe's webhook about a checkout that is no credit purchase: a card set-up, saved if it is one of ours. */
export async function confirmCardSetupFromWebhook(checkoutId: string, provider: PaymentProvider = paymentProvider()): Promise<'card_saved' | 'not_a_card_setup'> {
  if (!provider.checkout) return 'not_a_card_setup';
  const state = await provider.checkout.retrieveCardSetup(checkoutId);
  if (state.status !== 'complete' || !state.organizationId) return 'not_a_card_setup';
  const org = await db().organization.findUnique({ where: { id: state.organizationId }, select: { id: true } });
  if (!org) return 'not_a_card_setup';
  try {
    await confirmCardSetup(org.id, checkoutId, SYSTEM, provider);
    return 'card_saved';
  } catch (error) {
    if (error instanceof DomainError && error.code === 'resource_not_found') return 'not_a_card_setup'; // not on the organization's customer
    throw error;
  }
}
