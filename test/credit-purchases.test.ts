// @node-lines same: our purchase rules against the Stripe stand-in; the Stripe SDK's node:http requests are the kind src/server/capabilities/storage/s3.test.ts runs under both lines
/**
 * Buying credit from the console (billing.addCredit) through Stripe Checkout, against the local
 * Stripe stand-in (test/stripe-server.ts) and a server of its own with PAYMENT_PROVIDER=stripe:
 * every purchase is one credit lot exactly once, whoever confirms it (Stripe's signed webhook,
 * twice; the browser's return; the reconciliation sweep when browser and webhook never came);
 * developers and other organizations' admins are refused. With the manual provider (the main
 * test server) a purchase is a request: a stranger's own sign-up asks, the balance does not move
 * until the operator approves it with the CLI (once), and a rejection credits nothing.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { stripeProvider } from '@/server/capabilities/billing/payments/stripe';
import { approveCreditPurchase, reconcileCreditPurchases, rejectCreditPurchase, RECONCILE_AFTER_MS } from '@/server/capabilities/billing/credit-purchases';
import { confirmCardSetup } from '@/server/capabilities/billing/card-setup';
import { SYSTEM } from '@/server/capabilities/audit/actor';
import { createTestOrg, testIp } from './support';
import { createMember, mutate, query, signIn, signUpVerified, type TrpcResult } from './console-support';
import { jsonOf, roomtone } from './roomtone-cli';
import { startServer, type TestProcess } from './server-processes';
import { startFakeStripe, type FakeStripe } from './stripe-server';

const WEBHOOK_SECRET = 'whsec_roomtone_test_0123456789';
const hook = { url: '', secret: WEBHOOK_SECRET };
let stripe: FakeStripe;
let server: TestProcess;
let dataDir: string;

beforeAll(async () => {
  stripe = await startFakeStripe({ webhook: hook });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-purchases-'));
  // A second server on the main database with Stripe as its provider; no workers (the sweep is run here).
  server = await startServer(inject('databaseUrl'), {
    DATA_DIR: dataDir,
    WORKERS_IN_PROCESS: 'false',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_roomtone',
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_TIMEOUT_MS: '5000',
  });
  hook.url = `${server.url}/api/payments/stripe`;
});

afterAll(async () => {
  await server?.stop();
  await stripe?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A `roomtone` command with --json, in this process, as the operator runs it (test/roomtone-cli.ts). */
async function cli(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const run = await roomtone([...args, '--json']);
  return { code: run.code, json: jsonOf(run), stderr: run.stderr };
}

const provider = () => stripeProvider({ secretKey: 'sk_test_roomtone', apiBase: stripe.url, timeoutMs: 5000, webhookSecret: WEBHOOK_SECRET });

interface Started {
  purchase: { id: string; status: string; amount_cents: number };
  checkoutUrl: string | null;
}

async function cookieOf(email: string, base: string): Promise<string> {
  const result = await signIn(email, 'correct horse battery staple', testIp(), base);
  if (!result.cookie) throw new Error(`sign-in of ${email} failed`);
  return result.cookie;
}

async function ownerOnStripeServer(): Promise<{ orgId: string; cookie: string }> {
  const org = await createTestOrg({ credit: 1_000 });
  const owner = await createMember(org.id, 'owner');
  return { orgId: org.id, cookie: await cookieOf(owner.email, server.url) };
}

function addCredit(orgId: string, cookie: string, amount: number, base = server.url): Promise<TrpcResult<Started>> {
  return mutate<Started>('billing.addCredit', { organizationId: orgId, mode: 'live', amount }, cookie, { base });
}

async function creditsOf(orgId: string) {
  const [org, rows, lots] = await Promise.all([
    db().organization.findUniqueOrThrow({ where: { id: orgId } }),
    db().balanceTransaction.findMany({ where: { organizationId: orgId, description: { startsWith: 'Credit purchase' } } }),
    db().creditLot.count({ where: { organizationId: orgId } }),
  ]);
  return { balance: org.balanceCents, purchaseRows: rows, lots };
}

function sessionOf(checkoutUrl: string) {
  const id = checkoutUrl.split('/').pop()!;
  return stripe.sessions.get(id)!;
}

describe('add credit through Stripe Checkout', () => {
  it('starts a hosted checkout of the amount, returning to the billing page with the purchase id', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const started = await addCredit(orgId, cookie, 2_500);
    expect(started.status, JSON.stringify(started)).toBe(200);
    expect(started.data.purchase).toMatchObject({ status: 'pending', amount_cents: 2_500 });
    expect(started.data.checkoutUrl).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    const session = sessionOf(started.data.checkoutUrl!);
    expect(session).toMatchObject({ mode: 'payment', amount_total: 2_500, currency: 'eur', client_reference_id: started.data.purchase.id });
    expect(session.success_url).toBe(`${server.url}/o/${orgId}/live/billing?purchase=${started.data.purchase.id}`);
    const create = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.form.client_reference_id === started.data.purchase.id)!;
    expect(create.idempotencyKey).toBe(`credit-purchase-${started.data.purchase.id}`);
    expect(create.form['payment_intent_data[setup_future_usage]']).toBe('off_session');
    // Nothing is credited before Stripe says it is paid.
    expect((await creditsOf(orgId)).balance).toBe(1_000);
    const early = await mutate<{ status: string }>('billing.confirmPurchase', { organizationId: orgId, mode: 'live', purchaseId: started.data.purchase.id }, cookie, { base: server.url });
    expect(early.data.status).toBe('pending');
    expect((await creditsOf(orgId)).balance).toBe(1_000);
  });

  it('the webhook delivered twice credits once; the paying card becomes the auto-recharge card', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const started = await addCredit(orgId, cookie, 2_000);
    const { event, delivered } = await stripe.pay(sessionOf(started.data.checkoutUrl!).id);
    expect(delivered).toBe(200);
    expect(await stripe.redeliver(event)).toBe(200);
    const after = await creditsOf(orgId);
    expect(after.balance).toBe(3_000);
    expect(after.purchaseRows).toHaveLength(1);
    expect(after.purchaseRows[0]).toMatchObject({ type: 'credit', amount: 2_000 });
    const purchase = await db().creditPurchase.findUniqueOrThrow({ where: { id: started.data.purchase.id } });
    expect(purchase).toMatchObject({ status: 'paid', balanceTransactionId: after.purchaseRows[0]!.id, receiptUrl: expect.stringMatching(/\/receipts\/ch_/) });
    expect(await db().creditLot.count({ where: { transactionId: after.purchaseRows[0]!.id } })).toBe(1);
    const org = await db().organization.findUniqueOrThrow({ where: { id: orgId } });
    expect(org.stripePaymentMethodId).toBe('pm_card_visa');
    expect(org.stripeCustomerId).toMatch(/^cus_/);
    const cardSet = await db().auditEvent.findMany({ where: { organizationId: orgId, action: 'auto_recharge.payment_method_set' } });
    expect(cardSet.map((a) => [a.actorType, (a.details as { payment_method?: string }).payment_method])).toEqual([['system', 'pm_card_visa']]);
    const receipts = await query<{ data: { id: string; status: string; receipt_url: string }[] }>(
      'billing.purchases',
      { organizationId: orgId, mode: 'test', limit: 10 },
      cookie,
    );
    // Read on the main server (sessions live in the shared database).
    expect(receipts.data.data).toEqual([expect.objectContaining({ id: started.data.purchase.id, status: 'paid', receipt_url: purchase.receiptUrl })]);
  });

  it('the browser coming back and the webhook both confirm: one credit', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const started = await addCredit(orgId, cookie, 1_500);
    stripe.deliverWebhooks = false;
    let event;
    try {
      ({ event } = await stripe.pay(sessionOf(started.data.checkoutUrl!).id));
    } finally {
      stripe.deliverWebhooks = true;
    }
    const back = await mutate<{ status: string; receipt_url: string | null }>('billing.confirmPurchase', { organizationId: orgId, mode: 'live', purchaseId: started.data.purchase.id }, cookie, { base: server.url });
    expect(back.data).toMatchObject({ status: 'paid', receipt_url: expect.stringMatching(/\/receipts\/ch_/) });
    expect(await stripe.redeliver(event)).toBe(200);
    const again = await mutate<{ status: string }>('billing.confirmPurchase', { organizationId: orgId, mode: 'live', purchaseId: started.data.purchase.id }, cookie, { base: server.url });
    expect(again.data.status).toBe('paid');
    const after = await creditsOf(orgId);
    expect(after.balance).toBe(2_500);
    expect(after.purchaseRows).toHaveLength(1);
  });

  it('the browser gone and the webhook lost: the reconciliation sweep credits it once; an abandoned checkout is closed when it expires', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const paid = await addCredit(orgId, cookie, 1_200);
    const abandoned = await addCredit(orgId, cookie, 9_000);
    stripe.deliverWebhooks = false;
    try {
      await stripe.pay(sessionOf(paid.data.checkoutUrl!).id);
    } finally {
      stripe.deliverWebhooks = true;
    }
    // Too early for the sweep: the browser or the webhook usually come first.
    await reconcileCreditPurchases(clock.now(), provider());
    expect((await creditsOf(orgId)).balance).toBe(1_000);
    const later = new Date(clock.nowMs() + RECONCILE_AFTER_MS + 1_000);
    const first = await reconcileCreditPurchases(later, provider());
    expect(first.credited).toBeGreaterThanOrEqual(1);
    expect(await reconcileCreditPurchases(later, provider())).toMatchObject({ credited: 0 });
    let after = await creditsOf(orgId);
    expect(after.balance).toBe(2_200);
    expect(after.purchaseRows).toHaveLength(1);
    expect(await db().creditPurchase.findUniqueOrThrow({ where: { id: abandoned.data.purchase.id } })).toMatchObject({ status: 'pending' });
    stripe.expire(sessionOf(abandoned.data.checkoutUrl!).id);
    await reconcileCreditPurchases(later, provider());
    expect(await db().creditPurchase.findUniqueOrThrow({ where: { id: abandoned.data.purchase.id } })).toMatchObject({ status: 'expired', balanceTransactionId: null });
    after = await creditsOf(orgId);
    expect(after.balance).toBe(2_200);
  });

  it('a webhook without a valid Stripe signature credits nothing (400, param stripe-signature)', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const started = await addCredit(orgId, cookie, 3_000);
    stripe.deliverWebhooks = false;
    let event;
    try {
      ({ event } = await stripe.pay(sessionOf(started.data.checkoutUrl!).id));
    } finally {
      stripe.deliverWebhooks = true;
    }
    for (const signature of [null, stripe.sign(event.body, 'whsec_someone_else'), 't=1,v1=00']) {
      const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body: event.body });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'parameter_invalid', param: 'stripe-signature' } });
    }
    expect((await creditsOf(orgId)).balance).toBe(1_000);
    expect(await stripe.redeliver(event)).toBe(200);
    expect((await creditsOf(orgId)).balance).toBe(4_000);
  });
});

describe('who may add credit', () => {
  it('a developer is refused (403 permission_denied) and nothing is started', async () => {
    const org = await createTestOrg();
    const dev = await createMember(org.id, 'developer');
    const cookie = await cookieOf(dev.email, server.url);
    const sessionsBefore = stripe.sessions.size;
    const refused = await addCredit(org.id, cookie, 2_000);
    expect(refused.httpStatus).toBe(403);
    expect(refused.error).toMatchObject({ code: 'permission_denied' });
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect(await db().creditPurchase.count({ where: { organizationId: org.id } })).toBe(0);
    const recharge = await mutate('billing.setAutoRecharge', { organizationId: org.id, mode: 'live', enabled: false, threshold: 1_000, amount: 5_000 }, cookie, { base: server.url });
    expect(recharge.httpStatus).toBe(403);
    expect(recharge.error).toMatchObject({ code: 'permission_denied' });
  });

  it('an owner sets auto-recharge (needs the card a purchase saved with Stripe)', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const set = (enabled: boolean) => mutate<{ enabled: boolean; threshold: number; amount: number }>('billing.setAutoRecharge', { organizationId: orgId, mode: 'live', enabled, threshold: 1_000, amount: 5_000 }, cookie, { base: server.url });
    const noCard = await set(true);
    expect(noCard.httpStatus).toBe(400);
    expect(noCard.error).toMatchObject({ code: 'parameter_invalid', param: 'enabled' });
    const started = await addCredit(orgId, cookie, 1_000);
    await stripe.pay(sessionOf(started.data.checkoutUrl!).id);
    const on = await set(true);
    expect(on.status, JSON.stringify(on)).toBe(200);
    expect(on.data).toMatchObject({ enabled: true, threshold: 1_000, amount: 5_000 });
    expect(await db().organization.findUniqueOrThrow({ where: { id: orgId } })).toMatchObject({ autoRechargeEnabled: true, autoRechargeThreshold: 1_000, autoRechargeAmount: 5_000 });
    // Recorded with the member who changed it (the refused attempt without a card recorded nothing).
    const audit = await db().auditEvent.findMany({ where: { organizationId: orgId, action: 'auto_recharge.updated' } });
    expect(audit.map((a) => a.actorType)).toEqual(['user']);
  });

  it("another organization's admin can neither buy for it nor confirm or read its purchases (404)", async () => {
    const victim = await ownerOnStripeServer();
    const started = await addCredit(victim.orgId, victim.cookie, 2_000);
    const other = await createTestOrg();
    const admin = await createMember(other.id, 'admin');
    const cookie = await cookieOf(admin.email, server.url);
    const buy = await addCredit(victim.orgId, cookie, 2_000);
    expect(buy.httpStatus).toBe(404);
    // Their own organization in the input, the victim's purchase id: not found there.
    const confirm = await mutate('billing.confirmPurchase', { organizationId: other.id, mode: 'live', purchaseId: started.data.purchase.id }, cookie, { base: server.url });
    expect(confirm.httpStatus).toBe(404);
    expect(confirm.error).toMatchObject({ code: 'resource_not_found', param: 'purchase' });
    const list = await mutate('billing.confirmPurchase', { organizationId: victim.orgId, mode: 'live', purchaseId: started.data.purchase.id }, cookie, { base: server.url });
    expect(list.httpStatus).toBe(404);
    expect(await db().creditPurchase.count({ where: { organizationId: victim.orgId } })).toBe(1);
  });

  it('amounts outside €5–€10,000 are refused with the field named, nothing started', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    for (const amount of [499, 1_000_001, 10.5]) {
      const refused = await addCredit(orgId, cookie, amount);
      expect(refused.httpStatus).toBe(400);
      expect(refused.error).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    }
    expect(await db().creditPurchase.count({ where: { organizationId: orgId } })).toBe(0);
  });
});

describe('changing the auto-recharge card (Checkout in setup mode)', () => {
  it('needs a first purchase; saves the card entered on the organization\'s customer, once, audited; refuses another organization (404)', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const scope = { organizationId: orgId, mode: 'live' };
    const early = await mutate('billing.changeCard', scope, cookie, { base: server.url });
    expect(early.httpStatus).toBe(400);
    expect(early.error).toMatchObject({ code: 'parameter_invalid', param: 'card' });

    const bought = await addCredit(orgId, cookie, 2_000);
    await stripe.pay(sessionOf(bought.data.checkoutUrl!).id);
    const customer = (await db().organization.findUniqueOrThrow({ where: { id: orgId } })).stripeCustomerId;
    const started = await mutate<{ url: string }>('billing.changeCard', scope, cookie, { base: server.url });
    expect(started.status).toBe(200);
    const session = sessionOf(started.data.url);
    expect(session).toMatchObject({ mode: 'setup', customer, metadata: { organization: orgId } });
    expect(session.success_url).toBe(`${server.url}/o/${orgId}/live/billing?card_setup={CHECKOUT_SESSION_ID}`);
    const open = await mutate('billing.confirmCardSetup', { ...scope, checkoutId: session.id }, cookie, { base: server.url });
    expect(open.data).toEqual({ status: 'open' });

    stripe.deliverWebhooks = false; // the browser's return saves it
    try {
      await stripe.pay(session.id, '5555 5555 5555 4444');
    } finally {
      stripe.deliverWebhooks = true;
    }
    const other = await createTestOrg();
    const admin = await createMember(other.id, 'admin');
    const stranger = await mutate('billing.confirmCardSetup', { organizationId: other.id, mode: 'live', checkoutId: session.id }, await cookieOf(admin.email, server.url), { base: server.url });
    expect(stranger.httpStatus).toBe(404);
    expect((await db().organization.findUniqueOrThrow({ where: { id: orgId } })).stripePaymentMethodId).toBe('pm_card_visa');

    // The browser's return beside Stripe's webhook and a double load (confirmations in this
    // process, as the webhook runs them), then a reload: the card is saved and audited once.
    const together = await Promise.all([
      mutate('billing.confirmCardSetup', { ...scope, checkoutId: session.id }, cookie, { base: server.url }).then((r) => r.data),
      ...Array.from({ length: 5 }, () => confirmCardSetup(orgId, session.id, SYSTEM, provider())),
    ]);
    for (const saved of together) expect(saved).toEqual({ status: 'saved', card: 'pm_card_mastercard' });
    const reloaded = await mutate('billing.confirmCardSetup', { ...scope, checkoutId: session.id }, cookie, { base: server.url });
    expect(reloaded.data).toEqual({ status: 'saved', card: 'pm_card_mastercard' });
    const org = await db().organization.findUniqueOrThrow({ where: { id: orgId } });
    expect(org).toMatchObject({ stripeCustomerId: customer, stripePaymentMethodId: 'pm_card_mastercard' });
    const cardSet = await db().auditEvent.findMany({ where: { organizationId: orgId, action: 'auto_recharge.payment_method_set' }, orderBy: { createdAt: 'asc' } });
    expect(cardSet.map((a) => (a.details as { payment_method?: string }).payment_method)).toEqual(['pm_card_visa', 'pm_card_mastercard']);
    expect(cardSet[0]?.actorType).toBe('system');
    expect(['user', 'system']).toContain(cardSet[1]?.actorType);
  });

  it('a member without billing rights (a developer) can neither start a card change nor adopt one: 403, nothing started, the card unchanged', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const bought = await addCredit(orgId, cookie, 2_000);
    await stripe.pay(sessionOf(bought.data.checkoutUrl!).id);
    const dev = await createMember(orgId, 'developer');
    const devCookie = await cookieOf(dev.email, server.url);
    const scope = { organizationId: orgId, mode: 'live' };

    const sessionsBefore = stripe.sessions.size;
    const start = await mutate('billing.changeCard', scope, devCookie, { base: server.url });
    expect(start.httpStatus).toBe(403);
    expect(start.error).toMatchObject({ code: 'permission_denied' });
    expect(stripe.sessions.size).toBe(sessionsBefore);

    // A set-up the owner completed on Stripe, its return never loaded (no webhook): the developer's confirmation adopts nothing.
    const started = await mutate<{ url: string }>('billing.changeCard', scope, cookie, { base: server.url });
    const session = sessionOf(started.data.url);
    stripe.deliverWebhooks = false;
    try {
      await stripe.pay(session.id, '5555 5555 5555 4444');
    } finally {
      stripe.deliverWebhooks = true;
    }
    const adopt = await mutate('billing.confirmCardSetup', { ...scope, checkoutId: session.id }, devCookie, { base: server.url });
    expect(adopt.httpStatus).toBe(403);
    expect(adopt.error).toMatchObject({ code: 'permission_denied' });
    expect((await db().organization.findUniqueOrThrow({ where: { id: orgId } })).stripePaymentMethodId).toBe('pm_card_visa');
    expect(await db().auditEvent.count({ where: { organizationId: orgId, action: 'auto_recharge.payment_method_set', actorUserId: dev.id } })).toBe(0);
  });

  it('Stripe\'s webhook saves the card when the browser never comes back', async () => {
    const { orgId, cookie } = await ownerOnStripeServer();
    const bought = await addCredit(orgId, cookie, 2_000);
    await stripe.pay(sessionOf(bought.data.checkoutUrl!).id);
    const started = await mutate<{ url: string }>('billing.changeCard', { organizationId: orgId, mode: 'live' }, cookie, { base: server.url });
    const { delivered } = await stripe.pay(sessionOf(started.data.url).id, '5555 5555 5555 4444');
    expect(delivered).toBe(200);
    expect((await db().organization.findUniqueOrThrow({ where: { id: orgId } })).stripePaymentMethodId).toBe('pm_card_mastercard');
  });
});

describe('the manual provider (the main test server)', () => {
  it('has no card to change: billing.changeCard says so (400, param card)', async () => {
    const org = await createTestOrg({ credit: 0 });
    const owner = await createMember(org.id, 'owner');
    const cookie = await cookieOf(owner.email, inject('baseUrl'));
    const refused = await mutate('billing.changeCard', { organizationId: org.id, mode: 'live' }, cookie, { base: inject('baseUrl') });
    expect(refused.httpStatus).toBe(400);
    expect(refused.error).toMatchObject({ code: 'parameter_invalid', param: 'card', message: expect.stringContaining('manual provider') });
  });

  it('a stranger’s console purchase waits for the operator: the balance does not move until `credit approve`, which credits once', async () => {
    const base = inject('baseUrl');
    const stranger = await signUpVerified('Stranger Studio');
    const orgId = stranger.organizationId;
    const scope = { organizationId: orgId, mode: 'live' as const };
    const before = await creditsOf(orgId);
    const summary = await query<{ payment: { mode: string } }>('billing.get', scope, stranger.cookie);
    expect(summary.data.payment.mode).toBe('operator_approval');

    const started = await addCredit(orgId, stranger.cookie, 5_000, base);
    expect(started.status, JSON.stringify(started)).toBe(200);
    expect(started.data.checkoutUrl).toBeNull();
    expect(started.data.purchase).toMatchObject({ status: 'pending', amount_cents: 5_000, provider: 'manual', payment_reference: null });
    const purchaseId = started.data.purchase.id;
    // Nothing credited: no ledger row, no lot, the same balance; asking again changes nothing.
    const confirm = await mutate<{ status: string }>('billing.confirmPurchase', { ...scope, purchaseId }, stranger.cookie, { base });
    expect(confirm.data.status).toBe('pending');
    expect(await creditsOf(orgId)).toEqual(before);
    expect(await db().balanceTransaction.count({ where: { organizationId: orgId, type: 'credit', amount: 5_000 } })).toBe(0);
    const receipts = await query<{ data: { id: string; status: string }[] }>('billing.purchases', { ...scope, limit: 10 }, stranger.cookie);
    expect(receipts.data.data.map((p) => [p.id, p.status])).toEqual([[purchaseId, 'pending']]);

    // The operator's queue names it and who asked.
    const queue = await cli('credit', 'requests', '--org', orgId);
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.json.data).toEqual([expect.objectContaining({ object: 'credit_request', id: purchaseId, organization: orgId, amount_cents: 5_000, status: 'pending', requested_by: stranger.email })]);

    const approved = await cli('credit', 'approve', '--purchase', purchaseId);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json).toMatchObject({ id: purchaseId, status: 'paid', credited: true, payment_reference: `approved:${purchaseId}` });
    const after = await creditsOf(orgId);
    expect(after.balance).toBe(before.balance + 5_000);
    const rows = await db().balanceTransaction.findMany({ where: { organizationId: orgId, type: 'credit', amount: 5_000 } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.description).toBe(`Credit approved by the operator (request ${purchaseId}, manual provider)`);
    expect(await db().creditLot.count({ where: { transactionId: rows[0]!.id } })).toBe(1);

    // Approving again, and two approvals at once of a second request: each credits once.
    const again = await cli('credit', 'approve', '--purchase', purchaseId);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ status: 'paid', credited: false });
    expect((await creditsOf(orgId)).balance).toBe(before.balance + 5_000);
    const second = await addCredit(orgId, stranger.cookie, 700, base);
    const together = await Promise.all([approveCreditPurchase(second.data.purchase.id), approveCreditPurchase(second.data.purchase.id), approveCreditPurchase(second.data.purchase.id)]);
    expect(together.filter((r) => r.credited)).toHaveLength(1);
    expect((await creditsOf(orgId)).balance).toBe(before.balance + 5_700);
    expect(await db().creditLot.count({ where: { organizationId: orgId } })).toBe(before.lots + 2);

    // An approved request cannot be rejected; the stranger's receipts say approved.
    const late = await cli('credit', 'reject', '--purchase', purchaseId);
    expect(late.code).toBe(1);
    expect(late.json).toMatchObject({ error: { code: 'parameter_invalid', param: 'purchase' } });
    const listed = await query<{ data: { id: string; status: string }[] }>('billing.purchases', { ...scope, limit: 10 }, stranger.cookie);
    expect(listed.data.data.map((p) => p.status)).toEqual(['paid', 'paid']);
  });

  it('rejecting credits nothing, and a rejected request cannot be approved afterwards', async () => {
    const base = inject('baseUrl');
    const stranger = await signUpVerified('Rejected Studio');
    const orgId = stranger.organizationId;
    const before = await creditsOf(orgId);
    const started = await addCredit(orgId, stranger.cookie, 1_000_000, base);
    expect(started.data.purchase.status).toBe('pending');
    const rejected = await cli('credit', 'reject', '--purchase', started.data.purchase.id, '--reason', 'unknown customer');
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.json).toMatchObject({ status: 'rejected', rejected: true });
    expect((await cli('credit', 'reject', '--purchase', started.data.purchase.id)).json).toMatchObject({ status: 'rejected', rejected: false });
    const approve = await cli('credit', 'approve', '--purchase', started.data.purchase.id);
    expect(approve.code).toBe(1);
    expect(approve.json).toMatchObject({ error: { code: 'parameter_invalid', param: 'purchase' } });
    expect(await creditsOf(orgId)).toEqual(before);
    expect((await cli('credit', 'requests', '--org', orgId)).json.data).toEqual([]);
    expect((await cli('credit', 'requests', '--org', orgId, '--status', 'all')).json.data).toEqual([expect.objectContaining({ id: started.data.purchase.id, status: 'rejected' })]);
    // Bad ids and unknown requests: usage (2) and not found (1).
    expect((await cli('credit', 'approve', '--purchase', 'nope')).code).toBe(2);
    expect((await cli('credit', 'approve', '--purchase', 'cp_doesnotexist')).json).toMatchObject({ error: { code: 'resource_not_found', param: 'purchase' } });
  });

  it('another organization’s member neither sees nor confirms the request; nothing in the console approves it', async () => {
    const base = inject('baseUrl');
    const stranger = await signUpVerified('Requesting Studio');
    const started = await addCredit(stranger.organizationId, stranger.cookie, 2_500, base);
    const purchaseId = started.data.purchase.id;
    const other = await createTestOrg({ credit: 0 });
    const outsider = await createMember(other.id, 'owner');
    const cookie = await cookieOf(outsider.email, base);
    // In the outsider's own organization the id is unknown; in the stranger's, the outsider is no member.
    const confirmHere = await mutate('billing.confirmPurchase', { organizationId: other.id, mode: 'live', purchaseId }, cookie, { base });
    expect(confirmHere.httpStatus).toBe(404);
    const confirmThere = await mutate('billing.confirmPurchase', { organizationId: stranger.organizationId, mode: 'live', purchaseId }, cookie, { base });
    expect([403, 404]).toContain(confirmThere.httpStatus);
    const listThere = await query('billing.purchases', { organizationId: stranger.organizationId, mode: 'live', limit: 10 }, cookie);
    expect([403, 404]).toContain(listThere.httpStatus);
    expect(JSON.stringify(listThere)).not.toContain(purchaseId);
    const listHere = await query<{ data: unknown[] }>('billing.purchases', { organizationId: other.id, mode: 'live', limit: 10 }, cookie);
    expect(listHere.data.data).toEqual([]);
    // The stranger's own owner has no approving procedure either (tRPC: no such procedure).
    const selfApprove = await mutate('billing.approvePurchase', { organizationId: stranger.organizationId, mode: 'live', purchaseId }, stranger.cookie, { base });
    expect(selfApprove.status).toBe(404);
    expect(await db().creditPurchase.findUniqueOrThrow({ where: { id: purchaseId } })).toMatchObject({ status: 'pending', balanceTransactionId: null });
  });

  it('at most 5 requests wait at once per organization: the sixth is refused (429, param amount) until one is decided', async () => {
    const base = inject('baseUrl');
    const org = await createTestOrg({ credit: 0 });
    const owner = await createMember(org.id, 'owner');
    const cookie = await cookieOf(owner.email, base);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await addCredit(org.id, cookie, 500 + i, base)).data.purchase.id);
    const sixth = await addCredit(org.id, cookie, 600, base);
    expect(sixth.httpStatus).toBe(429);
    expect(sixth.error).toMatchObject({ code: 'rate_limit_exceeded', param: 'amount' });
    await rejectCreditPurchase(ids[0]!, null);
    expect((await addCredit(org.id, cookie, 600, base)).data.purchase.status).toBe('pending');
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).balanceCents).toBe(0);
  });
});
