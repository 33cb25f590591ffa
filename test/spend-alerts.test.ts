// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
/**
 * Spend alerts: thresholds set in the console, alerts recorded in the charge's
 * transaction (the test moves this process's clock across months and writes the charges through
 * the ledger's own chargeBalance), mailed by the server's real job worker to owners and admins,
 * listed as console notices; the usage screen's month-to-date figures through the console's tRPC.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestOrg } from './support';
import { createMember, mutate, query, signedIn } from './console-support';
import { insertGeneration } from './fixtures';
import { waitFor } from './server-processes';
import { db, transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { chargeBalance, grantCredit } from '@/server/capabilities/billing/ledger';
import { projectMonth } from '@/server/capabilities/usage/month-to-date';

afterEach(() => clock.reset());

async function charge(organizationId: string, amount: number): Promise<void> {
  const generationId = newId('gen');
  await transaction((tx) => chargeBalance(tx, organizationId, amount, generationId, `render ${generationId}`));
}

/** Once every alert of the organization is mailed, the mail each address received about it, oldest first. */
async function alertMails(organizationId: string, name: string, emails: string[]): Promise<Record<string, string[]>> {
  await waitFor('spend alerts mailed', async () => (await db().spendAlert.count({ where: { organizationId, mailedAt: null } })) === 0, 60_000);
  const rows = await db().mailOutbox.findMany({ where: { to: { in: emails }, subject: { endsWith: `(${name})` } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  // Each alert is mailed by its own job, so two alerts recorded together may be mailed in either
  // order: the subjects are compared as a set (sorted).
  return Object.fromEntries(emails.map((e) => [e, rows.filter((r) => r.to === e).map((r) => r.subject).sort()]));
}

async function team(name: string, credit = 100_000) {
  const org = await createTestOrg({ name, credit });
  const [owner, admin, developer] = [await createMember(org.id, 'owner'), await createMember(org.id, 'admin'), await createMember(org.id, 'developer')];
  return { org, owner, admin, developer };
}

describe('spend alerts', () => {
  it('mails owners and admins once per threshold per month: 50 % then 80 %, nothing more above 80 %, one mail for two charges passing 100 % at once, again in a new month', async () => {
    const name = `Alerted ${newId('org')}`;
    const { org, owner, admin, developer } = await team(name);
    await db().organization.update({ where: { id: org.id }, data: { monthlyLimitCents: 10_000 } });
    const cookie = await signedIn(owner.email);
    const live = { organizationId: org.id, mode: 'live' as const };
    expect((await query('spendAlerts.get', live, cookie)).data).toEqual({ object: 'spend_alert_settings', percents: [80, 100], balance_floor_cents: null });
    const saved = await mutate('spendAlerts.update', { ...live, percents: [100, 50, 80], balanceFloorCents: null }, cookie);
    expect(saved.status).toBe(200);
    expect(saved.data).toEqual({ object: 'spend_alert_settings', percents: [50, 80, 100], balance_floor_cents: null });

    clock.set(new Date('2026-09-10T12:00:00Z'));
    await charge(org.id, 4_999);
    expect(await db().spendAlert.count({ where: { organizationId: org.id } })).toBe(0);
    await charge(org.id, 1); // 50.00 of 100.00: 50 %
    await charge(org.id, 3_000); // 80 %
    await charge(org.id, 500); // 85 %: nothing new
    const subjects = (percents: number[]) => percents.map((p) => `Roomtone: ${p} % of the monthly spending limit reached (${name})`).sort();
    const emails = [owner.email, admin.email, developer.email];
    expect(await alertMails(org.id, name, emails)).toEqual({ [owner.email]: subjects([50, 80]), [admin.email]: subjects([50, 80]), [developer.email]: [] });
    const body = (await db().mailOutbox.findFirstOrThrow({ where: { to: admin.email, subject: subjects([80])[0] } })).body;
    expect(body).toContain(`${name} has spent €80.00 in 2026-09 (UTC), 80 % of its monthly limit of €100.00.`);
    expect(body).toContain(`/o/${org.id}/live/usage`);

    // 85.00 spent: two charges at once both end at or past 100 %; one alert, one mail each.
    await Promise.all([charge(org.id, 2_000), charge(org.id, 2_000)]);
    expect(await alertMails(org.id, name, emails)).toEqual({ [owner.email]: subjects([50, 80, 100]), [admin.email]: subjects([50, 80, 100]), [developer.email]: [] });
    const september = await db().spendAlert.findMany({ where: { organizationId: org.id }, orderBy: { threshold: 'asc' } });
    expect(september.map((a) => [a.kind, a.threshold, a.month.toISOString(), a.spendCents])).toEqual([
      ['monthly_limit', 50, '2026-09-01T00:00:00.000Z', 5_000],
      ['monthly_limit', 80, '2026-09-01T00:00:00.000Z', 8_000],
      ['monthly_limit', 100, '2026-09-01T00:00:00.000Z', 10_500],
    ]);

    // A new month counts from zero and mails again.
    clock.set(new Date('2026-10-02T09:00:00Z'));
    await charge(org.id, 5_000);
    expect(await alertMails(org.id, name, emails)).toEqual({
      [owner.email]: subjects([50, 80, 100, 50]),
      [admin.email]: subjects([50, 80, 100, 50]),
      [developer.email]: [],
    });
    expect(await db().spendAlert.count({ where: { organizationId: org.id, month: new Date('2026-10-01T00:00:00Z') } })).toBe(1);
  });

  it('the balance floor: one mail when the balance falls below it, none while it stays or falls again that month, one in the next', async () => {
    const name = `Floored ${newId('org')}`;
    const { org, owner, admin } = await team(name, 10_000);
    const cookie = await signedIn(admin.email);
    const live = { organizationId: org.id, mode: 'live' as const };
    // An admin may: percents off, a floor of 20.00.
    expect((await mutate('spendAlerts.update', { ...live, percents: [], balanceFloorCents: 2_000 }, cookie)).status).toBe(200);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { organizationId: org.id, action: 'spend_alerts.updated' } });
    expect(audit).toMatchObject({ actorLabel: admin.email, details: { from: { percents: [80, 100], balance_floor_cents: null }, to: { percents: [], balance_floor_cents: 2_000 } } });

    clock.set(new Date('2026-09-05T12:00:00Z'));
    await charge(org.id, 5_000); // 50.00 left
    await charge(org.id, 3_000); // 20.00: not below
    expect(await db().spendAlert.count({ where: { organizationId: org.id } })).toBe(0);
    await charge(org.id, 1); // 19.99: below
    await charge(org.id, 500); // lower still
    await transaction((tx) => grantCredit(tx, org.id, 5_000));
    await charge(org.id, 5_000); // below again the same month
    const subject = `Roomtone: Balance below €20.00 (${name})`;
    const emails = [owner.email, admin.email];
    expect(await alertMails(org.id, name, emails)).toEqual({ [owner.email]: [subject], [admin.email]: [subject] });
    expect((await db().mailOutbox.findFirstOrThrow({ where: { to: owner.email, subject } })).body).toContain(`The balance of ${name} is €19.99, below the floor of €20.00`);

    clock.set(new Date('2026-10-01T00:00:00Z'));
    await charge(org.id, 100);
    expect(await alertMails(org.id, name, emails)).toEqual({ [owner.email]: [subject, subject], [admin.email]: [subject, subject] });
  });

  it('settings: a developer is refused with the envelope and changes nothing; invalid thresholds name their parameter', async () => {
    const { org, owner, developer } = await team(`Guarded ${newId('org')}`);
    const live = { organizationId: org.id, mode: 'live' as const };
    const devCookie = await signedIn(developer.email);
    const refused = await mutate('spendAlerts.update', { ...live, percents: [10], balanceFloorCents: 1 }, devCookie);
    expect(refused.status).toBe(403);
    expect(refused.error).toEqual({ code: 'permission_denied', message: 'This needs the owner or admin role; you are developer.' });
    expect((await query('spendAlerts.get', live, devCookie)).data).toEqual({ object: 'spend_alert_settings', percents: [80, 100], balance_floor_cents: null });
    expect(await db().auditEvent.count({ where: { organizationId: org.id, action: 'spend_alerts.updated' } })).toBe(0);

    const cookie = await signedIn(owner.email);
    const zero = await mutate('spendAlerts.update', { ...live, percents: [50, 0], balanceFloorCents: null }, cookie);
    expect([zero.status, zero.error?.code, zero.error?.param]).toEqual([400, 'parameter_invalid', 'percents[1]']);
    const twice = await mutate('spendAlerts.update', { ...live, percents: [50, 50], balanceFloorCents: null }, cookie);
    expect([twice.status, twice.error?.code, twice.error?.param]).toEqual([400, 'parameter_invalid', 'percents']);
    const floor = await mutate('spendAlerts.update', { ...live, percents: [], balanceFloorCents: -5 }, cookie);
    expect([floor.status, floor.error?.code, floor.error?.param]).toEqual([400, 'parameter_invalid', 'balanceFloorCents']);
  });

  it('the console: this month’s notices for every member, and spend to date against the limit with its projection', async () => {
    const { org, developer } = await team(`Projected ${newId('org')}`);
    await db().organization.update({ where: { id: org.id }, data: { monthlyLimitCents: 10_000 } });
    // A live generation charged now (the server's month): 80.00 of 100.00 reaches the default 80 %.
    await insertGeneration({ organizationId: org.id, mode: 'live', status: 'succeeded', costAmount: 8_000 });
    const cookie = await signedIn(developer.email);
    const live = { organizationId: org.id, mode: 'live' as const };
    const notices = await query<{ data: { kind: string; threshold: number; headline: string; spend_cents: number; limit_cents: number }[] }>('spendAlerts.notices', live, cookie);
    expect(notices.status).toBe(200);
    expect(notices.data.data).toEqual([
      expect.objectContaining({ kind: 'monthly_limit', threshold: 80, headline: '80 % of the monthly spending limit reached', spend_cents: 8_000, limit_cents: 10_000 }),
    ]);

    const month = await query<Record<string, unknown>>('usage.month', { organizationId: org.id, mode: 'test' }, cookie);
    expect(month.status).toBe(200);
    const now = new Date(Number(month.data.generated_at) * 1000);
    const expected = projectMonth(8_000, 10_000, now);
    const daysInMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
    expect(month.data).toMatchObject({
      month: `${now.toISOString().slice(0, 7)}-01`,
      spend_cents: 8_000,
      limit_cents: 10_000,
      days_elapsed: now.getUTCDate(),
      days_in_month: daysInMonth,
      projected_cents: Math.round((8_000 / now.getUTCDate()) * daysInMonth),
      projected_over_limit: expected.projected >= 10_000,
      projected_limit_day: expected.limitDay,
    });

    // Another organization's member sees none of it.
    const stranger = await team(`Stranger ${newId('org')}`);
    const strangerCookie = await signedIn(stranger.owner.email);
    expect((await query('spendAlerts.notices', live, strangerCookie)).status).toBe(404);
    expect((await query('spendAlerts.notices', { organizationId: stranger.org.id, mode: 'live' }, strangerCookie)).data).toEqual({ data: [] });
  });
});
