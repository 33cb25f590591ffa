import { db, type DbTx, transaction } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { jobs } from '@/server/platform/jobs/client';
import type { Step } from '@/server/platform/jobs/steps';
import { spendAlertRecorded } from './billing-jobs';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { memberActor, type Member } from '@/server/capabilities/access/roles';
import type { SpendAlert, SpendAlertKind } from '@/generated/prisma/client';
import { spendAlertSettingsInput, type SpendAlertSettingsInput } from '@/shared/billing/spend-alert-inputs';
import { monthlyLimitCents, monthlySpendCents, monthStart } from './monthly-spend';
import type { AppendedLedgerRow } from './ledger-row';

/**
 * Spend alerts: an organization's thresholds, as percents of its monthly limit (default 80 and
 * 100) and a balance floor in cents (default off). A live ledger row that lowers the balance is
 * checked in its own transaction: each threshold reached (the month's spend at or past the
 * percent, the balance below the floor) gets one SpendAlert row per UTC month, and the unique
 * key (organization, kind, threshold, month) is the guard, so two charges crossing one threshold
 * at once record it once (they also serialise on the organization's row lock the ledger takes).
 * A row that is new triggers the mail job in that transaction (owners and admins, through the
 * mail port); the console lists the current month's rows as notices. A threshold added after the
 * spend passed it fires at the next charge: the alert says where the spend is, not when it moved.
 */

/** An alert not mailed this long after it was recorded lost its job: the sweeper sends it again. */
export const ALERT_REMAIL_AFTER_MS = 2 * 60 * 1000;

export interface SpendAlertSettingsView {
  object: 'spend_alert_settings';
  percents: number[];
  balance_floor_cents: number | null;
}

function settingsView(org: { spendAlertPercents: number[]; balanceFloorCents: number | null }): SpendAlertSettingsView {
  return { object: 'spend_alert_settings', percents: [...org.spendAlertPercents].sort((a, b) => a - b), balance_floor_cents: org.balanceFloorCents };
}

export async function spendAlertSettings(organizationId: string): Promise<SpendAlertSettingsView> {
  return settingsView(await db().organization.findUniqueOrThrow({ where: { id: organizationId }, select: { spendAlertPercents: true, balanceFloorCents: true } }));
}

/** Owners and admins (the console's role check) set both; the change is audited when it changes anything. */
export async function setSpendAlertSettings(member: Member, input: SpendAlertSettingsInput): Promise<SpendAlertSettingsView> {
  const parsed = spendAlertSettingsInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError('parameter_invalid', `Invalid spend alerts: ${issue?.message ?? 'invalid'}.`, { param: String(issue?.path[0] ?? 'percents') });
  }
  const next = { spendAlertPercents: [...parsed.data.percents].sort((a, b) => a - b), balanceFloorCents: parsed.data.balanceFloorCents };
  return transaction(async (tx) => {
    const before = await tx.organization.findUniqueOrThrow({ where: { id: member.organizationId }, select: { spendAlertPercents: true, balanceFloorCents: true } });
    const from = settingsView(before);
    const to = settingsView(next);
    if (from.percents.join() !== to.percents.join() || from.balance_floor_cents !== to.balance_floor_cents) {
      await tx.organization.update({ where: { id: member.organizationId }, data: next });
      await recordAudit(tx, memberActor(member), member.organizationId, {
        action: 'spend_alerts.updated',
        details: { from: { percents: from.percents, balance_floor_cents: from.balance_floor_cents }, to: { percents: to.percents, balance_floor_cents: to.balance_floor_cents } },
      });
    }
    return to;
  });
}

/**
 * In the transaction of a live ledger row that lowered the balance (a charge, an expiry): record
 * the thresholds it reached that have no alert this month, and trigger their mail.
 */
export async function checkSpendAlerts(tx: DbTx, row: AppendedLedgerRow): Promise<void> {
  const org = await tx.organization.findUniqueOrThrow({
    where: { id: row.organizationId },
    select: { tier: true, monthlyLimitCents: true, spendAlertPercents: true, balanceFloorCents: true },
  });
  const floorReached = org.balanceFloorCents !== null && row.balanceAfter < org.balanceFloorCents;
  const checksSpend = row.type === 'charge' && org.spendAlertPercents.length > 0;
  if (!floorReached && !checksSpend) return;
  const now = clock.now();
  const limit = monthlyLimitCents(org, org.tier);
  const spend = checksSpend ? await monthlySpendCents(tx, row.organizationId) : 0;
  const reached: { kind: SpendAlertKind; threshold: number }[] = [];
  if (checksSpend) {
    for (const percent of org.spendAlertPercents) if (spend * 100 >= limit * percent) reached.push({ kind: 'monthly_limit', threshold: percent });
  }
  if (floorReached) reached.push({ kind: 'balance_floor', threshold: org.balanceFloorCents! });
  const month = monthStart(now);
  for (const { kind, threshold } of reached) {
    const id = newId('spa');
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      insert into "SpendAlert" (id, "organizationId", kind, threshold, month, "spendCents", "limitCents", "balanceCents", "createdAt")
      values (${id}, ${row.organizationId}, ${kind}::"SpendAlertKind", ${threshold}, ${month}, ${spend}, ${limit}, ${row.balanceAfter}, ${now})
      on conflict ("organizationId", kind, threshold, month) do nothing
      returning id`;
    if (inserted.length === 1) await jobs().trigger(spendAlertRecorded(id), { tx });
  }
}

function money(cents: number): string {
  return `€${(cents / 100).toFixed(2)}`;
}

/** The notice's one line (the console's banner and the mail's subject). */
export function alertHeadline(alert: Pick<SpendAlert, 'kind' | 'threshold'>): string {
  return alert.kind === 'monthly_limit'
    ? `${alert.threshold} % of the monthly spending limit reached`
    : `Balance below ${money(alert.threshold)}`;
}

function alertText(alert: SpendAlert, organization: { id: string; name: string }): string {
  const monthName = alert.month.toISOString().slice(0, 7);
  const where = `${config().publicBaseUrl}/o/${organization.id}/live/usage`;
  const body =
    alert.kind === 'monthly_limit'
      ? `${organization.name} has spent ${money(alert.spendCents)} in ${monthName} (UTC), ${alert.threshold} % of its monthly limit of ${money(alert.limitCents)}. ` +
        (alert.threshold >= 100
          ? 'Live generations are refused until the month ends or an owner or admin raises the limit.'
          : 'At the limit, live generations are refused until the month ends.')
      : `The balance of ${organization.name} is ${money(alert.balanceCents)}, below the floor of ${money(alert.threshold)} set for spend alerts. Add credit before it runs out: a generation the balance does not cover is refused.`;
  return [body, `Spend, projection and alert settings: ${where}`, 'Each alert is sent once a month; owners and admins receive it.'].join('\n\n');
}

/**
 * The mail job: every owner and admin of the alert's organization, each address in its own
 * memoized step (a retried job does not mail twice), then the alert is marked mailed.
 */
export async function mailSpendAlert(alertId: string, step: Step): Promise<{ mailed: number }> {
  const alert = await db().spendAlert.findUnique({ where: { id: alertId } });
  if (!alert || alert.mailedAt) return { mailed: 0 };
  const organization = await db().organization.findUniqueOrThrow({
    where: { id: alert.organizationId },
    select: { id: true, name: true, members: { where: { role: { in: ['owner', 'admin'] } }, select: { user: { select: { email: true } } }, orderBy: { createdAt: 'asc' } } },
  });
  const subject = `Roomtone: ${alertHeadline(alert)} (${organization.name})`;
  const text = alertText(alert, organization);
  for (const { user } of organization.members) {
    await step.run(`mail ${user.email}`, () => sendMail({ to: user.email, subject, text, kind: 'notification' }));
  }
  await step.run('mailed', () => db().spendAlert.updateMany({ where: { id: alertId, mailedAt: null }, data: { mailedAt: clock.now() } }));
  return { mailed: organization.members.length };
}

/** The sweeper: alerts recorded a while ago and still not mailed get their job again. */
export async function sweepSpendAlerts(now: Date): Promise<{ resent: number }> {
  const stale = await db().spendAlert.findMany({
    where: { mailedAt: null, createdAt: { lt: new Date(now.getTime() - ALERT_REMAIL_AFTER_MS) } },
    orderBy: { createdAt: 'asc' },
    take: 200,
    select: { id: true },
  });
  let resent = 0;
  for (const { id } of stale) {
    if (await jobs().resend(spendAlertRecorded(id))) resent += 1;
  }
  if (resent > 0) log.warn('spend alert mail re-sent by the sweeper', { resent });
  return { resent };
}

export interface SpendAlertNotice {
  id: string;
  kind: SpendAlertKind;
  threshold: number;
  headline: string;
  spend_cents: number;
  limit_cents: number;
  balance_cents: number;
  created_at: number;
}

/** The console's notices: this UTC month's alerts of the organization, newest first. */
export async function spendAlertNotices(organizationId: string): Promise<{ data: SpendAlertNotice[] }> {
  const rows = await db().spendAlert.findMany({
    where: { organizationId, month: monthStart(clock.now()) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 50,
  });
  return {
    data: rows.map((a) => ({
      id: a.id,
      kind: a.kind,
      threshold: a.threshold,
      headline: alertHeadline(a),
      spend_cents: a.spendCents,
      limit_cents: a.limitCents,
      balance_cents: a.balanceCents,
      created_at: toUnixSeconds(a.createdAt),
    })),
  };
}
