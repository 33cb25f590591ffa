/**
 * Billing commands of the `roomtone` CLI: credit grants (lots with an optional expiry), the
 * manual provider's credit requests (list, approve, reject), the lots of an organization,
 * auto-recharge settings and the saved Stripe payment method. Each change is in the audit log
 * as the operator's.
 * Same conventions as the other commands: --json prints one JSON document; bad arguments exit
 * with 2, a refused operation with 1.
 */
import { parseArgs } from 'node:util';
import { db, transaction } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { grantCredit } from '@/server/capabilities/billing/ledger';
import { approveCreditPurchase, listCreditRequests, rejectCreditPurchase, type CreditRequestView } from '@/server/capabilities/billing/credit-purchases';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { OPERATOR } from '@/server/capabilities/audit/actor';
import { purchaseIdSchema } from '@/shared/billing/purchase-inputs';
import { getAutoRecharge, setAutoRecharge, setPaymentMethod, type AutoRechargeView } from '@/server/capabilities/billing/auto-recharge';
import type { CliContext } from './context';

export const BILLING_USAGE = `  credit grant --org <org_id> --amount <cents> [--expires-at <ISO-8601>]
  credit requests [--org <org_id>] [--status pending|all]   credit asked for under the manual provider, oldest first
  credit approve --purchase <cp_…>          credit a request (once; approving again credits nothing more)
  credit reject --purchase <cp_…> [--reason <text>]
  credit lots --org <org_id>
  auto-recharge set --org <org_id> --enabled true|false [--threshold <cents>] [--amount <cents>]
  auto-recharge show --org <org_id>
  payment-method set --org <org_id> --customer <cus_…> --payment-method <pm_…>`;

class UsageError extends Error {}
type Flags = Record<string, string | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

function cents(flags: Flags, name: string, min: number): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} must be an integer ≥ ${min} (cents).`);
  return Number(value);
}

async function existingOrg(id: string): Promise<void> {
  if (!(await db().organization.findUnique({ where: { id }, select: { id: true } }))) {
    throw new DomainError('resource_not_found', `No organization ${id}.`, { param: 'org' });
  }
}

function autoRechargeText(v: AutoRechargeView): string {
  const settings = `threshold ${v.threshold ?? '—'} cents, amount ${v.amount ?? '—'} cents, provider ${v.provider}`;
  return `Auto-recharge for ${v.organization}: ${v.enabled ? 'enabled' : 'disabled'} (${settings})`;
}

function purchaseId(flags: Flags): string {
  const parsed = purchaseIdSchema.safeParse(required(flags, 'purchase'));
  if (!parsed.success) throw new UsageError('--purchase must be a credit purchase id (cp_…).');
  return parsed.data;
}

function requestJson(r: CreditRequestView) {
  return { object: 'credit_request', ...r };
}

function requestText(r: CreditRequestView): string {
  const by = r.auto_recharge ? `auto-recharge ${r.auto_recharge}` : (r.requested_by ?? 'unknown');
  return `${r.id}  ${r.organization}  ${r.amount_cents} cents  ${r.status}  ${new Date(r.created_at * 1000).toISOString()}  by ${by}`;
}

type Result = { json: unknown; text: string };
const string = { type: 'string' } as const;

const commands: Record<string, { options: Record<string, typeof string>; run(flags: Flags): Promise<Result> }> = {
  'credit grant': {
    options: { org: string, amount: string, 'expires-at': string },
    async run(flags) {
      const organizationId = required(flags, 'org');
      const amount = cents(flags, 'amount', 1);
      if (amount === undefined) throw new UsageError('--amount is required (cents).');
      let expiresAt: Date | null = null;
      if (flags['expires-at'] !== undefined) {
        expiresAt = new Date(flags['expires-at']);
        if (Number.isNaN(expiresAt.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(flags['expires-at'])) {
          throw new UsageError('--expires-at must be an ISO-8601 date-time, e.g. 2027-01-31T00:00:00Z.');
        }
        if (expiresAt.getTime() <= clock.nowMs()) throw new UsageError('--expires-at must be in the future.');
      }
      await existingOrg(organizationId);
      const entry = await transaction(async (tx) => {
        const row = await grantCredit(tx, organizationId, amount, 'Credit granted (CLI)', expiresAt);
        await recordAudit(tx, OPERATOR, organizationId, {
          action: 'balance.credit_granted',
          mode: 'live',
          target: { type: 'balance_transaction', id: row.id },
          details: { amount, currency: 'eur', expires_at: toUnixSeconds(expiresAt), balance_after: row.balanceAfter },
        });
        return row;
      });
      return {
        json: { object: 'balance_transaction', id: entry.id, organization: organizationId, amount, expires_at: toUnixSeconds(expiresAt), balance_cents: entry.balanceAfter },
        text: `Granted ${amount} cents${expiresAt ? ` expiring ${expiresAt.toISOString()}` : ''}; balance ${entry.balanceAfter} cents`,
      };
    },
  },
  'credit requests': {
    options: { org: string, status: string },
    async run(flags) {
      const status = flags.status ?? 'pending';
      if (status !== 'pending' && status !== 'all') throw new UsageError('--status must be pending or all.');
      const organizationId = flags.org;
      if (organizationId !== undefined) await existingOrg(organizationId);
      const data = await listCreditRequests({ organizationId, all: status === 'all' });
      return { json: { object: 'list', data: data.map(requestJson), has_more: false }, text: data.map(requestText).join('\n') || 'No credit requests.' };
    },
  },
  'credit approve': {
    options: { purchase: string },
    async run(flags) {
      const { purchase, credited } = await approveCreditPurchase(purchaseId(flags));
      return {
        json: { ...requestJson(purchase), credited },
        text: credited ? `Approved ${purchase.id}: ${purchase.amount_cents} cents credited to ${purchase.organization}` : `${purchase.id} was already approved: nothing more credited`,
      };
    },
  },
  'credit reject': {
    options: { purchase: string, reason: string },
    async run(flags) {
      const { purchase, rejected } = await rejectCreditPurchase(purchaseId(flags), flags.reason?.trim() || null);
      return { json: { ...requestJson(purchase), rejected }, text: rejected ? `Rejected ${purchase.id}: nothing credited` : `${purchase.id} was already rejected` };
    },
  },
  'credit lots': {
    options: { org: string },
    async run(flags) {
      const organizationId = required(flags, 'org');
      await existingOrg(organizationId);
      const lots = await db().creditLot.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      const data = lots.map((l) => ({
        object: 'credit_lot',
        id: l.id,
        amount: l.amount,
        remaining: l.remaining,
        expires_at: toUnixSeconds(l.expiresAt),
        expired: l.expiredAt !== null,
        created_at: toUnixSeconds(l.createdAt),
      }));
      const text = data.map((l) => `${l.id}  ${l.remaining}/${l.amount} cents  ${l.expires_at ? new Date(l.expires_at * 1000).toISOString() : 'no expiry'}${l.expired ? '  expired' : ''}`);
      return { json: { object: 'list', data, has_more: false }, text: text.join('\n') || 'No credit lots.' };
    },
  },
  'auto-recharge set': {
    options: { org: string, enabled: string, threshold: string, amount: string },
    async run(flags) {
      const organizationId = required(flags, 'org');
      const enabled = required(flags, 'enabled');
      if (enabled !== 'true' && enabled !== 'false') throw new UsageError('--enabled must be true or false.');
      const view = await setAutoRecharge(organizationId, { enabled: enabled === 'true', threshold: cents(flags, 'threshold', 0), amount: cents(flags, 'amount', 1) });
      return { json: view, text: autoRechargeText(view) };
    },
  },
  'auto-recharge show': {
    options: { org: string },
    async run(flags) {
      const organizationId = required(flags, 'org');
      const view = await getAutoRecharge(organizationId);
      return { json: view, text: autoRechargeText(view) };
    },
  },
  'payment-method set': {
    options: { org: string, customer: string, 'payment-method': string },
    async run(flags) {
      const view = await setPaymentMethod(required(flags, 'org'), { customerId: required(flags, 'customer'), paymentMethodId: required(flags, 'payment-method') });
      return { json: view, text: `Auto-recharges of ${view.organization} are paid with ${view.payment_method}` };
    },
  },
};

export function isBillingCommand(name: string): boolean {
  return name in commands;
}

/** Runs one billing command; returns the exit code. */
export async function runBillingCommand(name: string, args: string[], context: CliContext): Promise<number> {
  const emit = (doc: unknown, text: string, stream: 'out' | 'err') => {
    if (context.json) context.out(JSON.stringify(doc));
    else if (stream === 'out') context.out(text);
    else context.err(text);
  };
  try {
    const command = commands[name];
    if (!command) throw new UsageError(`Unknown command '${name}'.`);
    let flags: Flags;
    try {
      flags = parseArgs({ args, options: command.options, strict: true, allowPositionals: false }).values as Flags;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    await context.ready();
    const result = await command.run(flags);
    emit(result.json, result.text, 'out');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      emit({ error: { code: 'usage', message: error.message } }, `roomtone: ${error.message}`, 'err');
      return 2;
    }
    if (error instanceof DomainError) {
      emit(error.toBody(), `roomtone: ${error.message}`, 'err');
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    emit({ error: { code: 'internal_error', message } }, `roomtone: ${message}`, 'err');
    return 1;
  }
}
