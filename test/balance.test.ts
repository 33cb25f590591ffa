// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: rows through the service layer, CLI commands in this process (test/roomtone-cli.ts) and a Stripe stand-in it closes after it; it gives the clock it moves back after each test and sets no environment
/**
 * Credit lots, expiry, auto-recharge and the balance events. Endpoint
 * rows are created directly in the database; the events and their pending deliveries are
 * asserted as recorded.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { api, createTestOrg, refusalOf, testIp } from './support';
import { jsonOf, roomtone as runRoomtone } from './roomtone-cli';
import { insertGeneration } from './fixtures';
import { startFakeStripe, type FakeStripe } from './stripe-server';
import { db, transaction } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { grantCredit, ledgerSum } from '@/server/capabilities/billing/ledger';
import { refundIfCharged } from '@/server/capabilities/generations/generations';
import { expireLots, noticeExpiringLots } from '@/server/capabilities/billing/expire-lots';
import { REFUND_AFTER_EXPIRY_MS } from '@/server/capabilities/billing/lots';
import {
  runAutoRechargeJob,
  setAutoRecharge,
  setPaymentMethod,
  sweepAutoRecharges,
  PAYMENT_RECHECK_AFTER_MS,
  PENDING_GIVE_UP_AFTER_MS,
  PENDING_REQUEUE_AFTER_MS,
  RETRY_AFTER_REFUSAL_MS,
} from '@/server/capabilities/billing/auto-recharge';
import { stripeProvider } from '@/server/capabilities/billing/payments/stripe';
import { manualProvider } from '@/server/capabilities/billing/payments/manual';
import { PaymentOutcomeUnknown } from '@/server/capabilities/billing/payments/port';
import { loggingStep } from '@/server/platform/jobs/steps';
import type { Mode } from '@/generated/prisma/enums';

const ip = testIp();
const DAY = 24 * 3600 * 1000;

afterEach(() => clock.reset());

/** A `roomtone` command with --json, in this process (test/roomtone-cli.ts). */
async function roomtone(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const result = await runRoomtone([...args, '--json']);
  return { code: result.code, json: jsonOf(result), stderr: result.stderr };
}

async function endpoint(organizationId: string, eventTypes: string[], mode: Mode = 'live'): Promise<string> {
  const id = newId('we');
  await db().webhookEndpoint.create({ data: { id, organizationId, mode, url: 'https://receiver.example/hooks', eventTypes, secretEncrypted: 'not-used-by-these-tests' } });
  return id;
}

async function events(organizationId: string, type: string) {
  return db().webhookEvent.findMany({ where: { organizationId, type }, orderBy: { createdAt: 'asc' }, include: { deliveries: true } });
}

async function balanceOf(organizationId: string): Promise<number> {
  return (await db().organization.findUniqueOrThrow({ where: { id: organizationId } })).balanceCents;
}

async function lotsOf(organizationId: string) {
  return db().creditLot.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** balance = Σ ledger = Σ remaining parts of the lots. */
async function expectInvariant(organizationId: string): Promise<number> {
  const balance = await balanceOf(organizationId);
  expect(await ledgerSum(db(), organizationId)).toBe(balance);
  const lots = await db().creditLot.aggregate({ where: { organizationId }, _sum: { remaining: true } });
  expect(lots._sum.remaining ?? 0).toBe(balance);
  return balance;
}

/** A live charge as admission makes it (an ended generation: the sweeper leaves it alone). */
async function charge(organizationId: string, amount: number) {
  return insertGeneration({ organizationId, mode: 'live', costAmount: amount, status: 'succeeded' });
}

async function refund(generation: { id: string; organizationId: string; costAmount: number }) {
  await transaction((tx) => refundIfCharged(tx, { ...generation, mode: 'live' }));
}

async function grant(organizationId: string, amount: number, expiresAt: Date | null) {
  return transaction((tx) => grantCredit(tx, organizationId, amount, 'test grant', expiresAt));
}

/** Waits until the organization has no auto-recharge under way (the server's worker pays it). */
async function settledAttempts(organizationId: string, count: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempts = await db().autoRechargeAttempt.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } });
    if (attempts.length >= count && attempts.every((a) => a.status !== 'pending')) return attempts;
    if (Date.now() > deadline) throw new Error(`auto-recharge attempts not settled: ${JSON.stringify(attempts.map((a) => a.status))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('credit lots', () => {
  it('charges take from the lot that expires first; a refund gives the cents back to the same lots; balance = Σ ledger = Σ lots', async () => {
    const org = await createTestOrg({ credit: 200 }); // a lot without expiry
    const now = clock.nowMs();
    await grant(org.id, 500, new Date(now + 60 * DAY));
    await grant(org.id, 300, new Date(now + 10 * DAY));
    const [initial, later, sooner] = await lotsOf(org.id);
    expect([initial!.amount, later!.amount, sooner!.amount]).toEqual([200, 500, 300]);

    const g1 = await charge(org.id, 350);
    let lots = new Map((await lotsOf(org.id)).map((l) => [l.id, l.remaining]));
    expect([lots.get(sooner!.id), lots.get(later!.id), lots.get(initial!.id)]).toEqual([0, 450, 200]);
    const g2 = await charge(org.id, 600);
    lots = new Map((await lotsOf(org.id)).map((l) => [l.id, l.remaining]));
    expect([lots.get(sooner!.id), lots.get(later!.id), lots.get(initial!.id)]).toEqual([0, 0, 50]);
    expect(await expectInvariant(org.id)).toBe(50);

    // The first charge is refunded: its 300 + 50 go back where they came from.
    await refund(g1);
    lots = new Map((await lotsOf(org.id)).map((l) => [l.id, l.remaining]));
    expect([lots.get(sooner!.id), lots.get(later!.id), lots.get(initial!.id)]).toEqual([300, 50, 50]);
    await refund(g2);
    lots = new Map((await lotsOf(org.id)).map((l) => [l.id, l.remaining]));
    expect([lots.get(sooner!.id), lots.get(later!.id), lots.get(initial!.id)]).toEqual([300, 500, 200]);
    expect(await expectInvariant(org.id)).toBe(1_000);
    // Charging beyond the balance is still refused with no row and no lot change.
    await expect(charge(org.id, 1_001)).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(await expectInvariant(org.id)).toBe(1_000);
  });

  it('at expiry the unspent part leaves through one expiry row; a refund of cents whose lot expired comes back in a lot lasting 30 days', async () => {
    const org = await createTestOrg({ credit: 100 });
    const start = clock.nowMs();
    const expiresAt = new Date(start + 5 * DAY);
    await grant(org.id, 400, expiresAt);
    const gen = await charge(org.id, 250); // all from the expiring lot: 150 left in it

    // The day before: nothing expires.
    await expireLots(new Date(start + 4 * DAY), org.id);
    expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'expiry' } })).toBe(0);

    // Another organization's lot due as well: a run for this organization leaves it alone.
    const other = await createTestOrg({ credit: 0 });
    await grant(other.id, 100, expiresAt);
    clock.set(new Date(start + 5 * DAY + 60_000));
    await expireLots(clock.now(), org.id);
    await expireLots(clock.now(), org.id); // a second run changes nothing
    const expiries = await db().balanceTransaction.findMany({ where: { organizationId: org.id, type: 'expiry' } });
    expect(expiries.map((e) => [e.amount, e.balanceAfter])).toEqual([[-150, 100]]);
    expect((await lotsOf(other.id)).map((l) => [l.remaining, l.expiredAt])).toEqual([[100, null]]);
    expect(await expectInvariant(org.id)).toBe(100);

    // The charge is refunded after its lot expired: the 250 come back, expiring 30 days later.
    await refund(gen);
    const lots = await lotsOf(org.id);
    const fresh = lots.find((l) => l.amount === 250)!;
    expect(fresh.remaining).toBe(250);
    expect(fresh.expiresAt!.getTime()).toBe(clock.nowMs() + REFUND_AFTER_EXPIRY_MS);
    expect(await expectInvariant(org.id)).toBe(350);
  });

  it('a balance from before credit lots (carried over without expiry): a refund of an older charge comes back without expiry', async () => {
    const org = await createTestOrg({ credit: 1_000 });
    const gen = await charge(org.id, 300);
    // The state the migration leaves: no allocations, one carried-over lot holding the balance.
    await db().creditLot.deleteMany({ where: { organizationId: org.id } });
    await db().creditLot.create({ data: { id: newId('lot'), organizationId: org.id, amount: 700, remaining: 700, createdAt: clock.now() } });
    await refund(gen);
    const lots = await lotsOf(org.id);
    expect(lots.map((l) => [l.amount, l.remaining, l.expiresAt])).toEqual([
      [700, 700, null],
      [300, 300, null],
    ]);
    expect(await expectInvariant(org.id)).toBe(1_000);
  });

  it('CLI: credit grant --expires-at makes a lot; maintenance run --now expires its unspent part; bad dates are refused (exit 2)', async () => {
    const org = await createTestOrg({ credit: 0 });
    // Half an hour ahead: beyond what the server's own minute-by-minute maintenance reaches during
    // the test, and near enough that the run below touches no other test's data on the shared
    // database (images, keys; uploaded files live an hour, so a run an hour ahead deleted the
    // file another file's test had just uploaded).
    const expiresAt = new Date(Date.now() + 1800_000);
    const granted = await roomtone('credit', 'grant', '--org', org.id, '--amount', '700', '--expires-at', expiresAt.toISOString());
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.json).toMatchObject({ object: 'balance_transaction', amount: 700, balance_cents: 700, expires_at: toUnixSeconds(expiresAt) });
    const lots = await roomtone('credit', 'lots', '--org', org.id);
    expect(lots.json).toMatchObject({ object: 'list', data: [{ object: 'credit_lot', amount: 700, remaining: 700, expires_at: toUnixSeconds(expiresAt), expired: false }] });

    const run = await roomtone('maintenance', 'run', '--now', new Date(expiresAt.getTime() + 60_000).toISOString());
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.credit_lots_expired).toBeGreaterThanOrEqual(1);
    const expiry = await db().balanceTransaction.findMany({ where: { organizationId: org.id, type: 'expiry' } });
    expect(expiry.map((e) => [e.amount, e.balanceAfter])).toEqual([[-700, 0]]);
    expect(expiry[0]!.createdAt.getTime()).toBe(expiresAt.getTime() + 60_000);
    expect(await expectInvariant(org.id)).toBe(0);

    const refused = await roomtone('credit', 'grant', '--org', org.id, '--amount', '5', '--expires-at', '2001-01-01T00:00:00Z');
    expect(refused.code).toBe(2);
    expect(refused.json).toMatchObject({ error: { code: 'usage', message: '--expires-at must be in the future.' } });
    expect(await balanceOf(org.id)).toBe(0);
  }, 300_000);
});

describe('balance events', () => {
  it('balance.low at each downward crossing of 500 cents without auto-recharge, only for an active live endpoint that follows it', async () => {
    const org = await createTestOrg({ credit: 600 });
    const live = await endpoint(org.id, ['balance.low']);
    await endpoint(org.id, ['balance.expiring']); // does not follow balance.low
    await endpoint(org.id, ['balance.low'], 'test'); // balance events are live only
    const disabled = await endpoint(org.id, ['balance.low']);
    await db().webhookEndpoint.update({ where: { id: disabled }, data: { status: 'disabled' } });

    await charge(org.id, 50); // 550: above
    expect(await events(org.id, 'balance.low')).toHaveLength(0);
    await charge(org.id, 100); // 450: crossing
    await charge(org.id, 10); // 440: still below, no new crossing
    let low = await events(org.id, 'balance.low');
    expect(low).toHaveLength(1);
    expect(low[0]).toMatchObject({ mode: 'live', generationId: null, payload: { object: 'balance', amount: 450, currency: 'eur', unit: 'cents', low_balance_threshold: 500 } });
    expect(low[0]!.deliveries.map((d) => [d.endpointId, d.status])).toEqual([[live, 'pending']]);

    await grant(org.id, 200, null); // 640
    await charge(org.id, 140); // 500: not below
    expect(await events(org.id, 'balance.low')).toHaveLength(1);
    await charge(org.id, 1); // 499: second crossing
    low = await events(org.id, 'balance.low');
    expect(low.map((e) => (e.payload as { amount: number }).amount)).toEqual([450, 499]);
  });

  it('an expiry that takes the balance below the threshold is a crossing too', async () => {
    const org = await createTestOrg({ credit: 300 });
    await endpoint(org.id, ['balance.low']);
    const start = clock.nowMs();
    await grant(org.id, 400, new Date(start + DAY));
    await expireLots(new Date(start + DAY), org.id);
    const low = await events(org.id, 'balance.low');
    expect(low.map((e) => e.payload)).toEqual([{ object: 'balance', amount: 300, currency: 'eur', unit: 'cents', low_balance_threshold: 500 }]);
  });

  it('no endpoint follows: no event is produced, and none is caught up later', async () => {
    const org = await createTestOrg({ credit: 600 });
    await charge(org.id, 200);
    await endpoint(org.id, ['balance.low']);
    await charge(org.id, 10);
    expect(await events(org.id, 'balance.low')).toHaveLength(0);
  });

  it('balance.expiring once per lot with an unspent part expiring within 30 days', async () => {
    const org = await createTestOrg({ credit: 0 });
    const ep = await endpoint(org.id, ['balance.expiring']);
    // Ten years ahead: the shared server's maintenance, every minute at the real time, never finds
    // these lots within 30 days (it would notice one between two grants below, with another
    // balance), and no other file's lot expires within 30 days of then.
    const start = clock.nowMs() + 3650 * DAY;
    const soon = new Date(start + 20 * DAY);
    const later = new Date(start + 45 * DAY);
    await grant(org.id, 300, soon);
    await grant(org.id, 800, later);
    await grant(org.id, 50, new Date(start + 10 * DAY));
    await grant(org.id, 1_000, null);
    await charge(org.id, 50); // the 10-day lot is spent: nothing of it expires

    await noticeExpiringLots(new Date(start));
    await noticeExpiringLots(new Date(start + 60_000)); // once per lot
    let expiring = await events(org.id, 'balance.expiring');
    expect(expiring.map((e) => e.payload)).toEqual([
      { object: 'balance', amount: 2_100, currency: 'eur', unit: 'cents', expiring: { amount: 300, expires_at: toUnixSeconds(soon) } },
    ]);
    expect(expiring[0]!.deliveries.map((d) => [d.endpointId, d.status])).toEqual([[ep, 'pending']]);

    // Fifteen days later the 45-day lot is within 30 days; the partly spent amount is what expires.
    await charge(org.id, 300 + 100); // the 20-day lot, then 100 of the 45-day one
    await noticeExpiringLots(new Date(start + 15 * DAY + 1));
    expiring = await events(org.id, 'balance.expiring');
    expect(expiring).toHaveLength(2);
    expect(expiring[1]!.payload).toMatchObject({ amount: 1_700, expiring: { amount: 700, expires_at: toUnixSeconds(later) } });
  });
});

describe('auto-recharge', () => {
  const origin = inject('imageOrigin');
  const wwwDir = inject('wwwDir');
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(async () => {
    await stripe.close();
  });

  it('setAutoRecharge validates its input with the parameter to blame, and keeps omitted values', async () => {
    const org = await createTestOrg({ credit: 0 });
    expect(await refusalOf(setAutoRecharge(org.id, { enabled: true, threshold: 1_000 }))).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'amount' });
    expect(await refusalOf(setAutoRecharge(org.id, { enabled: true, amount: 1_000 }))).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'threshold' });
    expect(await refusalOf(setAutoRecharge(org.id, { enabled: true, threshold: -1, amount: 1_000 }))).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'threshold' });
    expect(await refusalOf(setAutoRecharge(org.id, { enabled: true, threshold: 10, amount: 99 }))).toMatchObject({ status: 400, code: 'parameter_invalid', param: 'amount' });
    expect(await refusalOf(setAutoRecharge('org_missing', { enabled: false }))).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect(await setAutoRecharge(org.id, { enabled: true, threshold: 1_000, amount: 2_500 })).toMatchObject({ object: 'auto_recharge', enabled: true, threshold: 1_000, amount: 2_500, provider: 'manual' });
    expect(await setAutoRecharge(org.id, { enabled: false })).toMatchObject({ enabled: false, threshold: 1_000, amount: 2_500 });
    expect(await refusalOf(setPaymentMethod(org.id, { customerId: 'cust', paymentMethodId: 'pm_card_visa' }))).toMatchObject({ status: 400, param: 'customer' });
    expect(await setPaymentMethod(org.id, { customerId: 'cus_A1', paymentMethodId: 'pm_card_visa' })).toMatchObject({ payment_method: 'pm_card_visa' });
  });

  it('CLI: auto-recharge set / show and payment-method set (--json), bad values exit 2 or 1', async () => {
    const org = await createTestOrg({ credit: 0 });
    const set = await roomtone('auto-recharge', 'set', '--org', org.id, '--enabled', 'true', '--threshold', '800', '--amount', '3000');
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toMatchObject({ object: 'auto_recharge', organization: org.id, enabled: true, threshold: 800, amount: 3_000, provider: 'manual' });
    expect((await roomtone('auto-recharge', 'show', '--org', org.id)).json).toMatchObject({ enabled: true, threshold: 800, amount: 3_000 });
    const pm = await roomtone('payment-method', 'set', '--org', org.id, '--customer', 'cus_Q1', '--payment-method', 'pm_card_visa');
    expect(pm.json).toMatchObject({ payment_method: 'pm_card_visa' });
    expect((await roomtone('auto-recharge', 'set', '--org', org.id, '--enabled', 'maybe')).code).toBe(2);
    const refused = await roomtone('auto-recharge', 'set', '--org', org.id, '--enabled', 'true', '--amount', '50');
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ error: { code: 'parameter_invalid', param: 'amount' } });
  }, 300_000);

  it('manual provider, through a live /v1 charge: balance.low at the threshold, then no credit without the operator — the job files a credit request (the attempt fails, balance.recharge_failed) that `credit approve` credits once', async () => {
    const org = await createTestOrg({ credit: 1_005 });
    await endpoint(org.id, ['balance.low', 'balance.recharge_failed']);
    await setAutoRecharge(org.id, { enabled: true, threshold: 1_000, amount: 2_000 });
    const file = path.join(wwwDir, 'balance-room.jpg');
    if (!fs.existsSync(file)) await sharp({ create: { width: 320, height: 240, channels: 3, background: '#9a8f80' } }).jpeg().toFile(file);
    const res = await api<{ id: string; cost: { amount: number } }>('/v1/upscales', { key: org.liveKey, ip, body: { image: `${origin}/balance-room.jpg`, scale: 'x2', background: true } });
    expect(res.status).toBe(202);
    const cost = res.body.cost.amount;

    const [attempt] = await settledAttempts(org.id, 1);
    expect(attempt).toMatchObject({ status: 'failed', provider: 'manual', amount: 2_000, failureCode: 'operator_approval_required', balanceTransactionId: null });
    expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: { in: ['recharge', 'credit'] }, amount: 2_000 } })).toBe(0);
    expect(await balanceOf(org.id)).toBe(1_005 - cost);
    const request = await db().creditPurchase.findUniqueOrThrow({ where: { autoRechargeAttemptId: attempt!.id } });
    expect(request).toMatchObject({ organizationId: org.id, amount: 2_000, status: 'pending', provider: 'manual', createdByUserId: null });

    const low = await events(org.id, 'balance.low');
    expect(low.map((e) => e.payload)).toEqual([{ object: 'balance', amount: 1_005 - cost, currency: 'eur', unit: 'cents', low_balance_threshold: 1_000 }]);
    const failed = await events(org.id, 'balance.recharge_failed');
    expect(failed.map((e) => e.payload)).toEqual([{ object: 'balance', amount: 1_005 - cost, currency: 'eur', unit: 'cents', failed_recharge: { amount: 2_000, auto_recharge_enabled: true } }]);
    expect(await db().organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({ autoRechargeEnabled: true, autoRechargePendingId: null });

    // The operator approves: credited once, as a lot expiring like a recharge's; a second approval adds nothing.
    const approved = await roomtone('credit', 'approve', '--purchase', request.id);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json).toMatchObject({ status: 'paid', credited: true, auto_recharge: attempt!.id });
    expect((await roomtone('credit', 'approve', '--purchase', request.id)).json).toMatchObject({ credited: false });
    const credit = await db().balanceTransaction.findFirstOrThrow({ where: { organizationId: org.id, type: 'credit', amount: 2_000 } });
    expect(credit).toMatchObject({ balanceAfter: 1_005 - cost + 2_000, description: `Credit approved by the operator (auto-recharge ${attempt!.id}, manual provider)` });
    expect(await balanceOf(org.id)).toBe(1_005 - cost + 2_000);
    const lot = await db().creditLot.findFirstOrThrow({ where: { transactionId: credit.id } });
    expect(lot).toMatchObject({ amount: 2_000, remaining: 2_000 });
    expect(lot.expiresAt).not.toBeNull();
    await expectInvariant(org.id);
  });

  it('manual provider: while a request filed by an auto-recharge waits, a later attempt files no second one', async () => {
    const org = await createTestOrg({ credit: 400 });
    await db().organization.update({ where: { id: org.id }, data: { autoRechargeEnabled: true, autoRechargeThreshold: 500, autoRechargeAmount: 1_500 } });
    const attempts = [newId('rch'), newId('rch')];
    for (const id of attempts) {
      await db().organization.update({ where: { id: org.id }, data: { autoRechargePendingId: id } });
      await db().autoRechargeAttempt.create({ data: { id, organizationId: org.id, amount: 1_500, createdAt: clock.now() } });
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), manualProvider());
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), manualProvider()); // at-least-once: nothing more
    }
    const closed = await db().autoRechargeAttempt.findMany({ where: { organizationId: org.id } });
    expect(closed.map((a) => [a.status, a.failureCode])).toEqual([
      ['failed', 'operator_approval_required'],
      ['failed', 'operator_approval_required'],
    ]);
    expect(await db().creditPurchase.findMany({ where: { organizationId: org.id } })).toEqual([expect.objectContaining({ autoRechargeAttemptId: attempts[0], status: 'pending', amount: 1_500 })]);
    expect(await balanceOf(org.id)).toBe(400);
    await expectInvariant(org.id);
  });

  describe('stripe provider (local PaymentIntents server), job run in this process', () => {
    const provider = () => stripeProvider({ secretKey: 'sk_test_roomtone', apiBase: stripe.url, timeoutMs: 800 });

    /** An organization whose balance is below its threshold with one attempt pending, as a charge leaves it. */
    async function pendingAttempt(paymentMethod: string) {
      const org = await createTestOrg({ credit: 400 });
      await endpoint(org.id, ['balance.recharge_failed']);
      await setPaymentMethod(org.id, { customerId: 'cus_Stripe1', paymentMethodId: paymentMethod });
      const id = newId('rch');
      await db().organization.update({ where: { id: org.id }, data: { autoRechargeEnabled: true, autoRechargeThreshold: 500, autoRechargeAmount: 1_500, autoRechargePendingId: id } });
      await db().autoRechargeAttempt.create({ data: { id, organizationId: org.id, amount: 1_500, createdAt: clock.now() } });
      return { org, id };
    }

    it('success: a recharge row referencing the PaymentIntent', async () => {
      const { org, id } = await pendingAttempt('pm_card_visa');
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      const attempt = await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } });
      expect(attempt).toMatchObject({ status: 'succeeded', provider: 'stripe', providerReference: expect.stringMatching(/^pi_/) });
      expect(stripe.requests.filter((r) => r.idempotencyKey === `auto-recharge-${id}`)).toHaveLength(1);
      const recharge = await db().balanceTransaction.findFirstOrThrow({ where: { organizationId: org.id, type: 'recharge' } });
      expect(recharge).toMatchObject({ amount: 1_500, balanceAfter: 1_900, description: `Auto-recharge (stripe ${attempt.providerReference})` });
      // The job run again (at-least-once): nothing more is paid or written.
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'recharge' } })).toBe(1);
      expect(stripe.requests.filter((r) => r.idempotencyKey === `auto-recharge-${id}`)).toHaveLength(1);
      await expectInvariant(org.id);
    });

    it('at most 3 recharges within 24 hours: the need for a fourth disables auto-recharge and records balance.recharge_failed; the balance is unchanged', async () => {
      const org = await createTestOrg({ credit: 1_000 });
      await endpoint(org.id, ['balance.recharge_failed']);
      await setPaymentMethod(org.id, { customerId: 'cus_Stripe1', paymentMethodId: 'pm_card_visa' });
      await setAutoRecharge(org.id, { enabled: true, threshold: 100_000, amount: 100 });
      // Each attempt as a charge below the threshold requests it, paid here by this file's Stripe.
      for (let i = 1; i <= 4; i++) {
        const id = newId('rch');
        await db().organization.update({ where: { id: org.id }, data: { autoRechargePendingId: id } });
        await db().autoRechargeAttempt.create({ data: { id, organizationId: org.id, amount: 100, createdAt: clock.now() } });
        await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      }
      const attempts = await db().autoRechargeAttempt.findMany({ where: { organizationId: org.id }, orderBy: { createdAt: 'asc' } });
      expect(attempts.map((a) => a.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'limited']);
      expect(attempts[3]).toMatchObject({ failureCode: 'recharge_limit_reached', balanceTransactionId: null });
      expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'recharge' } })).toBe(3);
      expect(await balanceOf(org.id)).toBe(1_000 + 300);
      expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).autoRechargeEnabled).toBe(false);
      const failed = await events(org.id, 'balance.recharge_failed');
      expect(failed.map((e) => e.payload)).toEqual([{ object: 'balance', amount: 1_000 + 300, currency: 'eur', unit: 'cents', failed_recharge: { amount: 100, auto_recharge_enabled: false } }]);

      // Disabled: further charges ask for nothing.
      await charge(org.id, 10);
      expect(await db().autoRechargeAttempt.count({ where: { organizationId: org.id } })).toBe(4);
      await expectInvariant(org.id);
    });

    it('card declined: balance unchanged, balance.recharge_failed (auto-recharge still enabled), no new request for an hour', async () => {
      const { org, id } = await pendingAttempt('pm_card_chargeDeclined');
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', failureCode: 'card_declined', provider: 'stripe' });
      expect(await balanceOf(org.id)).toBe(400);
      expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'recharge' } })).toBe(0);
      const failed = await events(org.id, 'balance.recharge_failed');
      expect(failed.map((e) => e.payload)).toEqual([
        { object: 'balance', amount: 400, currency: 'eur', unit: 'cents', failed_recharge: { amount: 1_500, auto_recharge_enabled: true } },
      ]);
      expect(await db().organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({ autoRechargeEnabled: true, autoRechargePendingId: null });

      await charge(org.id, 10); // within the hour: no new attempt
      expect(await db().autoRechargeAttempt.count({ where: { organizationId: org.id } })).toBe(1);
      clock.advance(RETRY_AFTER_REFUSAL_MS + 1_000);
      await charge(org.id, 10); // an hour later a charge below the threshold asks again
      expect(await db().autoRechargeAttempt.count({ where: { organizationId: org.id } })).toBe(2);
      await expectInvariant(org.id);
    });

    it('timeout before Stripe got it: the job fails (pg-boss retries it), the attempt stays pending; after an hour the sweeper finds no payment and closes it as failed', async () => {
      const { org, id } = await pendingAttempt('pm_timeout');
      await expect(runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider())).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'pending' });
      expect(await balanceOf(org.id)).toBe(400);
      expect(await events(org.id, 'balance.recharge_failed')).toHaveLength(0);

      clock.advance(PENDING_GIVE_UP_AFTER_MS + 1_000);
      await sweepAutoRecharges(clock.now(), provider());
      // It asked Stripe first: the customer's PaymentIntents, none of them this attempt's.
      expect(stripe.requests.some((r) => r.method === 'GET' && r.path === '/v1/payment_intents' && r.form.customer === 'cus_Stripe1')).toBe(true);
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', failureCode: 'provider_unavailable' });
      const failed = await events(org.id, 'balance.recharge_failed');
      expect(failed.map((e) => e.payload)).toEqual([
        { object: 'balance', amount: 400, currency: 'eur', unit: 'cents', failed_recharge: { amount: 1_500, auto_recharge_enabled: true } },
      ]);
      expect(await balanceOf(org.id)).toBe(400);
      await expectInvariant(org.id);
    });

    /** One sweep an hour (and a recheck) later, with this file's Stripe. */
    async function sweepLater(ms: number) {
      clock.advance(ms);
      return sweepAutoRecharges(clock.now(), provider());
    }

    it('timeout after Stripe took the money: the sweeper looks the payment up by its metadata and credits it exactly once; the job retried later pays nothing', async () => {
      const { org, id } = await pendingAttempt('pm_timeout_charged');
      await expect(runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider())).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
      const taken = [...stripe.intents.values()].find((i) => i.metadata.auto_recharge === id);
      expect(taken?.status).toBe('succeeded');
      expect(await balanceOf(org.id)).toBe(400);

      await sweepLater(PENDING_GIVE_UP_AFTER_MS + 1_000);
      const attempt = await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } });
      expect(attempt).toMatchObject({ status: 'succeeded', provider: 'stripe', providerReference: taken!.id });
      const recharge = await db().balanceTransaction.findFirstOrThrow({ where: { organizationId: org.id, type: 'recharge' } });
      expect(recharge).toMatchObject({ id: attempt.balanceTransactionId, amount: 1_500, balanceAfter: 1_900, description: `Auto-recharge (stripe ${taken!.id})` });
      expect(await db().creditLot.findFirstOrThrow({ where: { transactionId: recharge.id } })).toMatchObject({ amount: 1_500, remaining: 1_500 });
      expect(await events(org.id, 'balance.recharge_failed')).toHaveLength(0);
      expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).autoRechargePendingId).toBeNull();

      // Everything again: the next sweep, and pg-boss's last retry of the job.
      const creates = stripe.requests.filter((r) => r.method === 'POST' && r.idempotencyKey === `auto-recharge-${id}`).length;
      await sweepLater(60_000);
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      expect(stripe.requests.filter((r) => r.method === 'POST' && r.idempotencyKey === `auto-recharge-${id}`)).toHaveLength(creates);
      expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'recharge' } })).toBe(1);
      expect(await balanceOf(org.id)).toBe(1_900);
      await expectInvariant(org.id);
    });

    it('a PaymentIntent in processing is not a refusal: the attempt waits, is looked up again, and is credited once when it succeeds', async () => {
      const { org, id } = await pendingAttempt('pm_processing');
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      const waiting = await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } });
      expect(waiting).toMatchObject({ status: 'pending', providerStatus: 'processing', providerReference: expect.stringMatching(/^pi_/), failureCode: null });
      expect(await balanceOf(org.id)).toBe(400);
      expect(await events(org.id, 'balance.recharge_failed')).toHaveLength(0);
      // While it waits, a charge asks for no second recharge.
      await charge(org.id, 10);
      expect(await db().autoRechargeAttempt.count({ where: { organizationId: org.id } })).toBe(1);

      // An hour later it is still processing: asked again, nothing closed, nothing credited.
      await sweepLater(PENDING_GIVE_UP_AFTER_MS + 1_000);
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'pending', providerStatus: 'processing' });
      const retrieves = () => stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${waiting.providerReference}`).length;
      expect(retrieves()).toBe(1);
      // Not again before the recheck delay.
      await sweepLater(60_000);
      expect(retrieves()).toBe(1);

      stripe.settle(waiting.providerReference!, 'succeeded');
      await sweepLater(PAYMENT_RECHECK_AFTER_MS);
      expect(retrieves()).toBe(2);
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'succeeded', providerStatus: null, checkAfter: null });
      expect(await balanceOf(org.id)).toBe(400 - 10 + 1_500);
      await sweepLater(PAYMENT_RECHECK_AFTER_MS);
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      expect(await db().balanceTransaction.count({ where: { organizationId: org.id, type: 'recharge' } })).toBe(1);
      await expectInvariant(org.id);
    });

    it('a processing payment the bank refuses in the end: failed then, with balance.recharge_failed, and no credit', async () => {
      const { org, id } = await pendingAttempt('pm_processing');
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      const { providerReference } = await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } });
      stripe.settle(providerReference!, 'requires_payment_method');
      await sweepLater(PAYMENT_RECHECK_AFTER_MS + PENDING_REQUEUE_AFTER_MS);
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', failureCode: 'payment_failed', providerReference });
      expect((await events(org.id, 'balance.recharge_failed')).map((e) => e.payload)).toEqual([
        { object: 'balance', amount: 400, currency: 'eur', unit: 'cents', failed_recharge: { amount: 1_500, auto_recharge_enabled: true } },
      ]);
      expect(await balanceOf(org.id)).toBe(400);
      await expectInvariant(org.id);
    });

    it('never given up while Stripe cannot answer the lookup, nor while a payment request may be in flight', async () => {
      const { org, id } = await pendingAttempt('pm_timeout');
      await expect(runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider())).rejects.toBeInstanceOf(PaymentOutcomeUnknown);
      stripe.unavailable = true;
      try {
        await sweepLater(PENDING_GIVE_UP_AFTER_MS + 1_000);
        await sweepLater(PAYMENT_RECHECK_AFTER_MS);
      } finally {
        stripe.unavailable = false;
      }
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'pending' });
      expect(await events(org.id, 'balance.recharge_failed')).toHaveLength(0);

      // A retry of the job has just sent its request (it may reach Stripe after the lookup).
      clock.advance(PAYMENT_RECHECK_AFTER_MS);
      await db().autoRechargeAttempt.update({ where: { id }, data: { paymentRequestedAt: clock.now() } });
      await sweepAutoRecharges(clock.now(), provider());
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'pending' });

      // Past the provider's timeout, nothing can be in flight: no payment found, failed.
      await sweepLater(PAYMENT_RECHECK_AFTER_MS);
      expect(await db().autoRechargeAttempt.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed', failureCode: 'provider_unavailable' });
      // A job retry after that never pays.
      const creates = stripe.requests.filter((r) => r.method === 'POST' && r.idempotencyKey === `auto-recharge-${id}`).length;
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider());
      expect(stripe.requests.filter((r) => r.method === 'POST' && r.idempotencyKey === `auto-recharge-${id}`)).toHaveLength(creates);
      expect(await balanceOf(org.id)).toBe(400);
      await expectInvariant(org.id);
    });
  });
});
