// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: console requests to the shared server, CLI commands in this process (test/roomtone-cli.ts) and a Stripe stand-in it closes after it; it sets no environment
/**
 * The audit log over real HTTP: what each change records (who, from where, what), rows exactly
 * when the change commits, never editable, kept 13 months, owners and admins only, filters,
 * cursor and exports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, transaction } from '@/server/platform/db';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { OPERATOR } from '@/server/capabilities/audit/actor';
import { deleteExpiredAuditEvents } from '@/server/capabilities/audit/retention';
import { newId } from '@/server/platform/ids';
import { runAutoRechargeJob, setAutoRecharge } from '@/server/capabilities/billing/auto-recharge';
import { confirmCreditPurchase, startCreditPurchase } from '@/server/capabilities/billing/credit-purchases';
import { stripeProvider } from '@/server/capabilities/billing/payments/stripe';
import { manualProvider } from '@/server/capabilities/billing/payments/manual';
import { loggingStep } from '@/server/platform/jobs/steps';
import { clock } from '@/server/platform/clock';
import { AUDIT_ACTIONS, type AuditAction } from '@/shared/audit/actions';
import { baseUrl, createTestOrg, testIp } from './support';
import { createMember, mutate, PASSWORD, query, signedIn, signIn, signUpVerified, uniqueEmail } from './console-support';
import { jsonOf, roomtone } from './roomtone-cli';
import { startFakeStripe, type FakeStripe } from './stripe-server';
import { codeAt } from './two-factor-support';

interface AuditRow {
  id: string;
  created_at: number;
  action: string;
  actor: { type: string; label: string; user_id: string | null; api_key_id: string | null };
  ip: string | null;
  user_agent: string | null;
  device: string | null;
  mode: 'test' | 'live' | null;
  target: { type: string; id: string } | null;
  details: Record<string, unknown>;
}

type Page = { data: AuditRow[]; next_cursor: string | null };

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function auditList(organizationId: string, cookie: string, filters: Record<string, unknown> = {}) {
  return query<Page>('audit.list', { organizationId, mode: 'test', limit: 100, ...filters }, cookie);
}

describe('the audit log records each change with who, when and from where', () => {
  it('keys, members, webhook endpoints and settings, with the actor, IP, user agent, mode and target', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const dev = await createMember(org.id, 'developer');
    const ip = testIp();
    const headers = { 'x-forwarded-for': ip, 'user-agent': UA };
    const cookie = (await signIn(owner.email, PASSWORD, ip, baseUrl, { 'user-agent': UA })).cookie!;
    const scope = { organizationId: org.id, mode: 'live' as const };
    const call = <T>(path: string, input: Record<string, unknown>) => mutate<T>(path, { ...scope, ...input }, cookie, { headers });

    const key = await call<{ id: string }>('keys.create', { name: 'Production', permissions: ['renders', 'generations_read'] });
    await call('keys.revoke', { keyId: key.data.id });
    await call('keys.revoke', { keyId: key.data.id }); // already revoked: no second row
    const invitee = uniqueEmail('invitee');
    await call('members.invite', { email: invitee, role: 'admin' });
    await call('members.updateRole', { userId: dev.id, role: 'admin' });
    await call('members.remove', { userId: dev.id });
    const endpoint = await call<{ endpoint: { id: string } }>('webhooks.create', { url: 'https://127.0.0.1/audit-hook', events: ['generation.succeeded'] });
    const endpointId = endpoint.data.endpoint.id;
    await call('webhooks.rotate', { endpointId });
    await call('webhooks.disable', { endpointId });
    await call('webhooks.enable', { endpointId });
    await call('webhooks.delete', { endpointId });
    await call('settings.rename', { name: 'Renamed Studio' });

    const page = await auditList(org.id, cookie);
    expect(page.status).toBe(200);
    const rows = [...page.data.data].reverse();
    expect(rows.map((r) => r.action)).toEqual([
      'signin.succeeded',
      'api_key.created',
      'api_key.revoked',
      'member.invited',
      'member.role_changed',
      'member.removed',
      'webhook_endpoint.created',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.disabled',
      'webhook_endpoint.enabled',
      'webhook_endpoint.deleted',
      'organization.renamed',
    ]);
    for (const row of rows) {
      expect(row.actor).toEqual({ type: 'user', label: owner.email, user_id: owner.id, api_key_id: null });
      expect(row.ip).toBe(ip);
      expect(row.user_agent).toBe(UA);
      expect(row.device).toBe('Chrome 131 on Windows');
    }
    const byAction = new Map(rows.map((r) => [r.action, r]));
    expect(byAction.get('api_key.created')).toMatchObject({ mode: 'live', target: { type: 'api_key', id: key.data.id }, details: { name: 'Production', permissions: ['generations_read', 'renders'] } });
    expect(byAction.get('member.invited')?.details).toEqual({ email: invitee, role: 'admin' });
    expect(byAction.get('member.role_changed')).toMatchObject({ target: { type: 'user', id: dev.id }, details: { from: 'developer', to: 'admin' } });
    expect(byAction.get('webhook_endpoint.created')).toMatchObject({ mode: 'live', target: { id: endpointId }, details: { url: 'https://127.0.0.1/audit-hook', events: ['generation.succeeded'] } });
    expect(byAction.get('organization.renamed')?.details).toEqual({ from: 'Test org', to: 'Renamed Studio' });
    // Never a secret: not the key's, not the endpoint's.
    const raw = JSON.stringify(rows);
    expect(raw).not.toMatch(/rt_live_[0-9A-Za-z]{20}/);
    expect(raw).not.toContain('whsec_');
  });

  it('records sign-ins and refused passwords of the organization’s members, and operator changes from the CLI services', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const ip = testIp();
    expect((await signIn(owner.email, 'not the password!', ip, baseUrl, { 'user-agent': UA })).cookie).toBeNull();
    const cookie = (await signIn(owner.email, PASSWORD, ip, baseUrl, { 'user-agent': UA })).cookie!;
    await setAutoRecharge(org.id, { enabled: true, threshold: 500, amount: 2000 });
    const rows = (await auditList(org.id, cookie)).data.data;
    expect(rows.find((r) => r.action === 'signin.failed')).toMatchObject({ ip, user_agent: UA, actor: { label: owner.email }, details: { method: 'password', reason: 'wrong_password' } });
    expect(rows.find((r) => r.action === 'signin.succeeded')).toMatchObject({ ip, details: { method: 'password', second_factor: 'not_enrolled' } });
    expect(rows.find((r) => r.action === 'auto_recharge.updated')).toMatchObject({
      actor: { type: 'operator', label: 'operator (CLI)' },
      details: { from: { enabled: false, threshold: null, amount: null }, to: { enabled: true, threshold: 500, amount: 2000 } },
    });
  });
});

/**
 * Every change of money, membership, keys, webhook endpoints, two-factor and settings, made
 * through its real door (the console's tRPC as a stranger who signed up, the operator's CLI,
 * the payment and auto-recharge code as the worker runs it), then read back one action at a
 * time through the console's audit procedure and its action filter.
 */
describe('every balance and membership change is in the audit log', () => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
  });
  afterAll(async () => {
    await stripe?.close();
  });

  /** A user's own account (sign-ins, sessions, password), not an organization's change: sign-ins are asserted above and in test/console-two-factor.test.ts. */
  const ACCOUNT_ACTIONS: readonly AuditAction[] = [
    'signin.succeeded',
    'signin.failed',
    'signin.two_factor_succeeded',
    'signin.two_factor_failed',
    'session.ended',
    'session.ended_others',
    'user.password_changed',
    'user.password_reset',
  ];
  /** Every other action: one added to the list without being walked here fails this test. */
  const WALKED = AUDIT_ACTIONS.filter((action) => !ACCOUNT_ACTIONS.includes(action));

  async function cli(...args: string[]) {
    const run = await roomtone([...args, '--json']);
    if (run.code !== 0) throw new Error(`roomtone ${args.join(' ')}: ${run.stderr}${run.stdout}`);
    return jsonOf(run);
  }

  it('each listed action, with actor, time, organization, mode and amounts, read back through audit.list filtered by action', async () => {
    const started = Math.floor(clock.nowMs() / 1000);
    const founder = await signUpVerified('Audited Studio');
    const orgId = founder.organizationId;
    const cookie = founder.cookie;
    const scope = { organizationId: orgId, mode: 'live' as const };
    const call = async <T>(path: string, input: Record<string, unknown> | undefined = {}) => {
      const result = await mutate<T>(path, input === undefined ? undefined : { ...scope, ...input }, cookie);
      if (result.status !== 200) throw new Error(`${path}: ${JSON.stringify(result)}`);
      return result.data;
    };

    // Money: a console request (manual provider) approved, another rejected, the operator's grant.
    const approvedPurchase = await call<{ purchase: { id: string } }>('billing.addCredit', { amount: 2_500 });
    await cli('credit', 'approve', '--purchase', approvedPurchase.purchase.id);
    const rejectedPurchase = await call<{ purchase: { id: string } }>('billing.addCredit', { amount: 900 });
    await cli('credit', 'reject', '--purchase', rejectedPurchase.purchase.id, '--reason', 'not a customer');
    const granted = await cli('credit', 'grant', '--org', orgId, '--amount', '700');
    // Stripe Checkout (the payment code as the webhook runs it): one paid, one whose checkout expired.
    const stripeNow = stripeProvider({ secretKey: 'sk_test_roomtone', apiBase: stripe.url, timeoutMs: 5000 });
    const buyer = { organizationId: orgId, userId: founder.userId, email: founder.email };
    const returnTo = `${baseUrl}/o/${orgId}/live/billing`;
    const paid = await startCreditPurchase(buyer, { amount: 1_200 }, returnTo, stripeNow);
    await stripe.pay(paid.checkoutUrl!.split('/').pop()!);
    expect((await confirmCreditPurchase(orgId, paid.purchase.id, stripeNow)).status).toBe('paid');
    const expired = await startCreditPurchase(buyer, { amount: 800 }, returnTo, stripeNow);
    stripe.expire(expired.checkoutUrl!.split('/').pop()!);
    expect((await confirmCreditPurchase(orgId, expired.purchase.id, stripeNow)).status).toBe('expired');
    // Auto-recharge: settings from the console, one paid by Stripe, one the manual provider turns into a request.
    await call('billing.setAutoRecharge', { enabled: true, threshold: 100_000, amount: 1_000 });
    await call('spendAlerts.update', { percents: [50, 90], balanceFloorCents: 2_500 });
    for (const provider of [stripeNow, manualProvider()]) {
      const id = newId('rch');
      await db().organization.update({ where: { id: orgId }, data: { autoRechargePendingId: id } });
      await db().autoRechargeAttempt.create({ data: { id, organizationId: orgId, amount: 1_000, createdAt: clock.now() } });
      await runAutoRechargeJob(id, loggingStep('auto-recharge', id), provider);
    }

    // Members: an invitation accepted by a newcomer's sign-up, one revoked, a role change, a removal.
    const newcomer = uniqueEmail('joiner');
    await call('members.invite', { email: newcomer, role: 'developer' });
    const mail = await db().mailOutbox.findFirstOrThrow({ where: { to: newcomer }, orderBy: { createdAt: 'desc' } });
    const token = /\/invitations\/([0-9A-Za-z]+)/.exec(mail.body)![1]!;
    expect((await mutate('auth.signUp', { email: newcomer, password: PASSWORD, invitationToken: token }, null)).data).toMatchObject({ status: 'joined' });
    const joiner = await db().user.findUniqueOrThrow({ where: { email: newcomer } });
    const revoked = await call<{ id: string }>('members.invite', { email: uniqueEmail('never'), role: 'admin' });
    await call('members.revokeInvitation', { invitationId: revoked.id });
    await call('members.updateRole', { userId: joiner.id, role: 'admin' });
    await call('members.remove', { userId: joiner.id });

    // Keys and webhook endpoints.
    const key = await call<{ id: string }>('keys.create', { name: 'Audited', permissions: ['renders'] });
    await call('keys.rename', { keyId: key.id, name: 'Audited, renamed' });
    await call('keys.fences', { keyId: key.id, allowedIps: ['203.0.113.0/24'], requestsPerMinute: 30, monthlySpendCapCents: 5_000 });
    await call('keys.expiry', { keyId: key.id, expiresInDays: 30 });
    const rolled = await call<{ prefix: string }>('keys.roll', { keyId: key.id, overlapSeconds: 86_400 });
    await call('keys.revoke', { keyId: key.id });
    const endpoint = await call<{ endpoint: { id: string } }>('webhooks.create', { url: 'https://127.0.0.1/audit-walk', events: ['generation.succeeded'] });
    const endpointId = endpoint.endpoint.id;
    await call('webhooks.update', { endpointId, description: 'walked' });
    await call('webhooks.rotate', { endpointId });
    await call('webhooks.disable', { endpointId });
    await call('webhooks.enable', { endpointId });
    await call('webhooks.delete', { endpointId });

    // Two-factor (a second owner's: the founder's sign-up and sign-in spent most of the account's
    // attempts of this minute), then the organization's settings, which need that owner's second factor.
    const coOwner = await createMember(orgId, 'owner');
    const coCookie = await signedIn(coOwner.email);
    const asCoOwner = <T>(path: string, input: unknown) => mutate<T>(path, input, coCookie, { headers: { 'x-forwarded-for': testIp() } });
    const enrolment = (await asCoOwner<{ secret: string }>('twoFactor.begin', undefined)).data;
    expect((await asCoOwner('twoFactor.confirm', { code: codeAt(enrolment.secret) })).status).toBe(200);
    // The next code without waiting 30 s: the last used step moved back, as test/two-factor-support.ts does.
    await db().user.update({ where: { id: coOwner.id }, data: { totpLastStep: { decrement: 1 } } });
    const regenerated = await asCoOwner<{ recovery_codes: string[] }>('twoFactor.regenerateRecoveryCodes', { code: codeAt(enrolment.secret) });
    expect(regenerated.status).toBe(200);
    expect((await asCoOwner('settings.requireTwoFactor', { ...scope, required: true })).status).toBe(200);
    expect((await asCoOwner('settings.requireTwoFactor', { ...scope, required: false })).status).toBe(200);
    expect((await asCoOwner('twoFactor.disable', { code: regenerated.data.recovery_codes[0] })).status).toBe(200);
    await call('settings.rename', { name: 'Audited Studio, renamed' });

    const rowsOf = async (action: string) => {
      const page = await query<Page>('audit.list', { organizationId: orgId, mode: 'test', limit: 100, action }, cookie);
      expect(page.status, `${action}: ${JSON.stringify(page.error)}`).toBe(200);
      return page.data.data;
    };
    for (const action of WALKED) {
      const rows = await rowsOf(action);
      expect(rows.length, `${action} is in the audit log`).toBeGreaterThanOrEqual(1);
      for (const row of rows) {
        expect(row.action).toBe(action);
        expect(row.created_at).toBeGreaterThanOrEqual(started);
        expect(['user', 'operator', 'system']).toContain(row.actor.type);
      }
    }

    /** The newest row of an action (the log lists newest first). */
    const one = async (action: string) => (await rowsOf(action))[0]!;
    const byFounder = { type: 'user', label: founder.email, user_id: founder.userId, api_key_id: null };
    const requested = await rowsOf('credit_purchase.requested');
    expect(requested.map((r) => [r.actor.type, r.details.amount, r.details.provider]).sort()).toEqual(
      [
        ['system', 1_000, 'manual'],
        ['user', 1_200, 'stripe'],
        ['user', 2_500, 'manual'],
        ['user', 800, 'stripe'],
        ['user', 900, 'manual'],
      ].sort(),
    );
    expect(requested.find((r) => r.details.amount === 2_500)).toMatchObject({ actor: byFounder, mode: 'live', target: { type: 'credit_purchase', id: approvedPurchase.purchase.id }, details: { currency: 'eur', awaiting: 'operator_approval' } });
    expect(await one('credit_purchase.approved')).toMatchObject({ actor: { type: 'operator', label: 'operator (CLI)' }, mode: 'live', target: { id: approvedPurchase.purchase.id }, details: { amount: 2_500, currency: 'eur', provider: 'manual', payment_reference: `approved:${approvedPurchase.purchase.id}` } });
    expect(await one('credit_purchase.rejected')).toMatchObject({ actor: { type: 'operator' }, target: { id: rejectedPurchase.purchase.id }, details: { amount: 900, reason: 'not a customer' } });
    expect(await one('credit_purchase.paid')).toMatchObject({ actor: { type: 'system' }, mode: 'live', target: { id: paid.purchase.id }, details: { amount: 1_200, provider: 'stripe', payment_reference: expect.stringMatching(/^pi_/) } });
    expect(await one('credit_purchase.failed')).toMatchObject({ actor: { type: 'system' }, target: { id: expired.purchase.id }, details: { amount: 800, reason: 'checkout_expired' } });
    expect(await one('balance.credit_granted')).toMatchObject({ actor: { type: 'operator' }, mode: 'live', target: { type: 'balance_transaction', id: granted.id }, details: { amount: 700, currency: 'eur', balance_after: granted.balance_cents } });
    expect(await one('auto_recharge.updated')).toMatchObject({ actor: byFounder, details: { to: { enabled: true, threshold: 100_000, amount: 1_000 } } });
    expect(await one('spend_alerts.updated')).toMatchObject({ actor: byFounder, details: { from: { percents: [80, 100], balance_floor_cents: null }, to: { percents: [50, 90], balance_floor_cents: 2_500 } } });
    expect(await one('auto_recharge.succeeded')).toMatchObject({ actor: { type: 'system' }, mode: 'live', details: { amount: 1_000, provider: 'stripe', payment_reference: expect.stringMatching(/^pi_/) } });
    expect(await one('auto_recharge.failed')).toMatchObject({ actor: { type: 'system' }, mode: 'live', details: { amount: 1_000, provider: 'manual', code: 'operator_approval_required', credit_purchase: expect.stringMatching(/^cp_/) } });
    expect(await one('member.invitation_accepted')).toMatchObject({ actor: { type: 'user', label: newcomer, user_id: joiner.id }, details: { email: newcomer, role: 'developer', invited_by: founder.userId } });
    expect(await one('member.invitation_revoked')).toMatchObject({ actor: byFounder, target: { type: 'invitation', id: revoked.id }, details: { role: 'admin' } });
    expect(await one('member.removed')).toMatchObject({ target: { id: joiner.id }, details: { role: 'admin' } });
    expect(await one('api_key.renamed')).toMatchObject({ actor: byFounder, mode: 'live', target: { id: key.id } });
    expect(await one('api_key.fences_updated')).toMatchObject({ actor: byFounder, mode: 'live', target: { id: key.id } });
    expect(await one('api_key.expiry_changed')).toMatchObject({ actor: byFounder, mode: 'live', target: { id: key.id }, details: { from: null, to: expect.any(Number) } });
    expect(await one('api_key.rolled')).toMatchObject({ actor: byFounder, mode: 'live', target: { id: key.id }, details: { prefix: rolled.prefix, overlap_seconds: 86_400 } });
    expect(await one('two_factor.enabled')).toMatchObject({ actor: { type: 'user', label: coOwner.email, user_id: coOwner.id }, target: { type: 'user', id: coOwner.id } });
    expect(await one('organization.two_factor_requirement_changed')).toMatchObject({ actor: { type: 'user', label: coOwner.email }, details: { required: false } });
    expect(await one('organization.created')).toMatchObject({ actor: { type: 'user', label: founder.email }, details: { name: 'Audited Studio', via: 'sign_up' } });
    // The balance moved exactly by what the log says was credited: 2,500 approved, 700 granted, 1,200 paid, 1,000 recharged.
    expect((await db().organization.findUniqueOrThrow({ where: { id: orgId } })).balanceCents).toBe(2_500 + 700 + 1_200 + 1_000);
  });

  it('the operator’s organization with initial credit: organization.created and balance.credit_granted', async () => {
    const created = await cli('org', 'create', '--name', 'Operator Org', '--credit', '1500');
    const owner = await createMember(String(created.id), 'owner');
    const page = await query<Page>('audit.list', { organizationId: created.id, mode: 'test', limit: 100 }, await signedIn(owner.email));
    const rows = page.data.data.filter((r) => r.action !== 'signin.succeeded');
    expect(rows.map((r) => [r.action, r.actor.type]).sort()).toEqual([
      ['balance.credit_granted', 'operator'],
      ['organization.created', 'operator'],
    ]);
    expect(rows.find((r) => r.action === 'balance.credit_granted')).toMatchObject({ mode: 'live', details: { amount: 1_500, balance_after: 1_500 } });
  });
});

describe('an audit row exists exactly when its change committed', () => {
  it('refused changes write none', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const cookie = await signedIn(owner.email);
    const scope = { organizationId: org.id, mode: 'test' as const };
    const before = await db().auditEvent.count({ where: { organizationId: org.id } });

    expect((await mutate('members.updateRole', { ...scope, userId: owner.id, role: 'admin' }, cookie)).error?.code).toBe('last_owner');
    expect((await mutate('members.remove', { ...scope, userId: owner.id }, cookie)).error?.code).toBe('last_owner');
    expect((await mutate('webhooks.create', { ...scope, url: 'http://127.0.0.1/plain-http', events: ['generation.succeeded'] }, cookie)).error?.param).toBe('url');
    expect((await mutate('keys.revoke', { ...scope, keyId: 'key_doesnotexist' }, cookie)).error?.code).toBe('resource_not_found');
    expect((await mutate('settings.rename', { ...scope, name: '   ' }, cookie)).status).toBe(400);
    expect((await mutate('settings.requireTwoFactor', { ...scope, required: true }, cookie)).error?.code).toBe('two_factor_not_enabled');
    expect((await mutate('settings.requireTwoFactor', { ...scope, required: false }, cookie)).status).toBe(200); // no change: no row

    expect(await db().auditEvent.count({ where: { organizationId: org.id } })).toBe(before);
  });

  it('a transaction that fails after recording rolls its row back with it', async () => {
    const org = await createTestOrg();
    const marker = newId('aud');
    await expect(
      transaction(async (tx) => {
        await recordAudit(tx, OPERATOR, org.id, { action: 'organization.renamed', details: { marker } });
        await tx.organization.update({ where: { id: org.id }, data: { name: 'x' } });
        throw new Error('the change fails after the row was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await db().auditEvent.count({ where: { organizationId: org.id, details: { equals: { marker } } } })).toBe(0);
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe('Test org');
  });
});

describe('the audit log is never edited', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE; retention deletes only rows older than 13 months', async () => {
    const org = await createTestOrg();
    const now = new Date();
    const monthsAgo = (n: number) => {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - n);
      return d;
    };
    const old = newId('aud');
    const recent = newId('aud');
    const base = { organizationId: org.id, action: 'organization.renamed', actorType: 'operator', actorLabel: 'operator (CLI)' };
    await db().auditEvent.create({ data: { ...base, id: old, createdAt: new Date(monthsAgo(13).getTime() - 24 * 3600_000) } });
    await db().auditEvent.create({ data: { ...base, id: recent, createdAt: new Date(monthsAgo(12).getTime()) } });

    await expect(db().$executeRaw`update "AuditEvent" set action = 'api_key.created' where id = ${recent}`).rejects.toThrow(/cannot be changed/);
    await expect(db().auditEvent.update({ where: { id: recent }, data: { actorLabel: 'someone else' } })).rejects.toThrow();
    await expect(db().$executeRaw`delete from "AuditEvent" where id = ${recent}`).rejects.toThrow(/only by retention/);
    await expect(db().$executeRaw`delete from "AuditEvent" where id = ${old}`).rejects.toThrow(/only by retention/);
    await expect(db().$executeRawUnsafe('truncate "AuditEvent"')).rejects.toThrow(/cannot be changed/);
    // Even a transaction that declares itself the retention job cannot delete a younger row.
    await expect(
      transaction(async (tx) => {
        await tx.$queryRaw`select set_config('roomtone.audit_retention', 'on', true)`;
        await tx.$executeRaw`delete from "AuditEvent" where id = ${recent}`;
      }),
    ).rejects.toThrow(/only by retention/);

    // A clock moved ahead (maintenance run --now) deletes no younger row either.
    await deleteExpiredAuditEvents(new Date(now.getTime() + 400 * 24 * 3600_000));
    expect(await db().auditEvent.findUnique({ where: { id: recent } })).not.toBeNull();
    await deleteExpiredAuditEvents(now);
    expect(await db().auditEvent.findUnique({ where: { id: old } })).toBeNull();
    expect(await db().auditEvent.findUnique({ where: { id: recent } })).not.toBeNull();
  });
});

describe('who may read it', () => {
  it('owners and admins of the organization only: a developer gets 403, another organization’s admin 404', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const admin = await createMember(org.id, 'admin');
    const dev = await createMember(org.id, 'developer');
    const other = await createTestOrg();
    const outsider = await createMember(other.id, 'admin');
    const [ownerCookie, adminCookie, devCookie, outsiderCookie] = await Promise.all([owner, admin, dev, outsider].map((u) => signedIn(u.email)));

    expect((await auditList(org.id, ownerCookie!)).status).toBe(200);
    const adminView = await auditList(org.id, adminCookie!);
    expect(adminView.status).toBe(200);
    expect(adminView.data.data.every((r) => r.action !== undefined)).toBe(true);
    const devView = await auditList(org.id, devCookie!);
    expect(devView.status).toBe(403);
    expect(devView.error?.code).toBe('permission_denied');
    const devExport = await query('audit.export', { organizationId: org.id, mode: 'test', format: 'csv' }, devCookie!);
    expect(devExport.status).toBe(403);
    const foreign = await auditList(org.id, outsiderCookie!);
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'resource_not_found', param: 'organizationId' });
    // Scoped by organization: the other organization's log holds none of this one's rows.
    const otherOwner = await createMember(other.id, 'owner');
    const otherRows = (await auditList(other.id, await signedIn(otherOwner.email))).data.data;
    expect(otherRows.some((r) => r.actor.user_id === owner.id || r.actor.user_id === admin.id)).toBe(false);
  });
});

describe('filters, pages and exports', () => {
  it('filters by actor, action and time range, pages with a cursor, and exports the same rows as CSV and JSON', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const admin = await createMember(org.id, 'admin');
    const ownerCookie = await signedIn(owner.email);
    // A user agent is whatever the client sends: here one a spreadsheet would run as a formula.
    const adminCookie = (await signIn(admin.email, PASSWORD, testIp(), baseUrl, { 'user-agent': '=2+5' })).cookie!;
    const scope = { organizationId: org.id, mode: 'test' as const };
    for (let i = 0; i < 3; i++) await mutate('keys.create', { ...scope, name: `owner key ${i}`, permissions: ['renders'] }, ownerCookie);
    await mutate('keys.create', { ...scope, name: 'admin key', permissions: ['renders'] }, adminCookie);
    await mutate('settings.rename', { ...scope, name: '=SUM(A1,"x")' }, adminCookie);

    const byOwner = (await auditList(org.id, ownerCookie, { actor: owner.email.toUpperCase(), action: 'api_key.created' })).data.data;
    expect(byOwner.map((r) => r.details.name)).toEqual(['owner key 2', 'owner key 1', 'owner key 0']);
    expect((await auditList(org.id, ownerCookie, { actor: admin.id, action: 'api_key.created' })).data.data.map((r) => r.details.name)).toEqual(['admin key']);
    const all = (await auditList(org.id, ownerCookie)).data.data;
    expect(all.length).toBeGreaterThanOrEqual(7);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await auditList(org.id, ownerCookie, { from: future })).data.data).toEqual([]);
    expect((await auditList(org.id, ownerCookie, { to: all.at(-1)!.created_at })).data.data).toEqual([]);
    expect((await auditList(org.id, ownerCookie, { from: all.at(-1)!.created_at, to: future })).data.data).toHaveLength(all.length);
    const badAction = await auditList(org.id, ownerCookie, { action: 'everything' });
    expect(badAction.status).toBe(400);
    expect(badAction.error?.code).toBe('parameter_invalid');

    const first = await query<Page>('audit.list', { ...scope, limit: 2 }, ownerCookie);
    expect(first.data.data).toHaveLength(2);
    const second = await query<Page>('audit.list', { ...scope, limit: 100, cursor: first.data.next_cursor }, ownerCookie);
    expect([...first.data.data, ...second.data.data].map((r) => r.id)).toEqual(all.map((r) => r.id));

    interface Export {
      filename: string;
      content_type: string;
      content: string;
      rows: number;
      truncated: boolean;
    }
    const json = await query<Export>('audit.export', { ...scope, format: 'json', action: 'api_key.created' }, adminCookie);
    expect(json.status).toBe(200);
    expect(json.data).toMatchObject({ content_type: 'application/json', rows: 4, truncated: false });
    expect(json.data.filename).toMatch(new RegExp(`^audit-log-${org.id}-.*\\.json$`));
    const parsed = JSON.parse(json.data.content) as { data: AuditRow[] };
    expect(parsed.data.map((r) => r.id)).toEqual((await auditList(org.id, ownerCookie, { action: 'api_key.created' })).data.data.map((r) => r.id));

    const csv = await query<Export>('audit.export', { ...scope, format: 'csv', actor: admin.email }, adminCookie);
    expect(csv.data.content_type).toBe('text/csv');
    const lines = csv.data.content.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,time_utc,action,actor_type,actor,actor_user_id,actor_api_key_id,ip,user_agent,mode,target_type,target_id,details');
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['organization.renamed', 'api_key.created', 'signin.succeeded']);
    expect(csv.data.rows).toBe(3);
    // Formulas stay text: the agent's cell gets a leading apostrophe; JSON details are quoted.
    const signInLine = lines.find((l) => l.includes(',signin.succeeded,'))!;
    expect(signInLine).toContain(",'=2+5,");
    for (const line of lines) expect(line.split(',').some((cell) => /^[=+@]/.test(cell))).toBe(false);
    expect(csv.data.content).toContain('""to"":""=SUM(A1,\\""x\\"")""');
  });
});
