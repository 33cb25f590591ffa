import type { Db, DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import { OPERATOR, type AuditActor } from '@/server/capabilities/audit/actor';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { findEndpoint, toApiEndpoint, type ApiWebhookEndpoint, type EndpointScope } from './endpoints';

export type DisabledReason = 'manual' | 'gone' | 'failing';

/**
 * Disable an endpoint and cancel every planned delivery (spec: a re-enabled endpoint receives
 * only new events). Conditional on it being active, so a disable races nothing; true if this
 * call disabled it.
 */
export async function disableEndpointTx(tx: DbTx, endpointId: string, reason: DisabledReason, now: Date): Promise<boolean> {
  const changed = await tx.webhookEndpoint.updateMany({
    where: { id: endpointId, status: 'active' },
    data: { status: 'disabled', disabledReason: reason, disabledAt: now },
  });
  if (changed.count === 0) return false;
  await tx.webhookDelivery.updateMany({
    where: { endpointId, status: 'pending' },
    data: { status: 'canceled', nextAttemptAt: null, lastError: `endpoint disabled (${reason})` },
  });
  return true;
}

/** The audit row of a change to an endpoint, in its transaction. */
function auditEndpoint(tx: DbTx, actor: AuditActor, endpoint: { id: string; organizationId: string; mode: 'test' | 'live'; url: string }, action: 'webhook_endpoint.disabled' | 'webhook_endpoint.enabled' | 'webhook_endpoint.deleted') {
  return recordAudit(tx, actor, endpoint.organizationId, { action, mode: endpoint.mode, target: { type: 'webhook_endpoint', id: endpoint.id }, details: { url: endpoint.url } });
}

export async function disableEndpoint(client: Db, scope: EndpointScope, id: string, actor: AuditActor = OPERATOR): Promise<ApiWebhookEndpoint> {
  return client.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, scope, id);
    if (await disableEndpointTx(tx, id, 'manual', clock.now())) await auditEndpoint(tx, actor, endpoint, 'webhook_endpoint.disabled');
    return toApiEndpoint(await findEndpoint(tx, scope, id));
  });
}

/** Enable by hand: the failure history starts again; only events produced from now on follow. */
export async function enableEndpoint(client: Db, scope: EndpointScope, id: string, actor: AuditActor = OPERATOR): Promise<ApiWebhookEndpoint> {
  return client.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, scope, id);
    const enabled = await tx.webhookEndpoint.updateMany({
      where: { id, status: 'disabled' },
      data: { status: 'active', disabledReason: null, disabledAt: null, failingSince: null },
    });
    if (enabled.count === 1) await auditEndpoint(tx, actor, endpoint, 'webhook_endpoint.enabled');
    return toApiEndpoint(await findEndpoint(tx, scope, id));
  });
}

/** Deleting removes the endpoint with its deliveries and log; its events expire with retention. */
export async function deleteEndpoint(client: Db, scope: EndpointScope, id: string, actor: AuditActor = OPERATOR): Promise<{ id: string; deleted: true }> {
  await client.$transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, scope, id);
    await tx.webhookEndpoint.delete({ where: { id } });
    await auditEndpoint(tx, actor, endpoint, 'webhook_endpoint.deleted');
  });
  return { id, deleted: true };
}

const REASON_TEXT: Record<Exclude<DisabledReason, 'manual'>, string> = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery to it failed for 72 hours',
};

/** E-mail the organization's owners and administrators that an endpoint was disabled automatically. */
export async function mailEndpointDisabled(client: Db, endpointId: string, reason: Exclude<DisabledReason, 'manual'>): Promise<void> {
  const endpoint = await client.webhookEndpoint.findUnique({
    where: { id: endpointId },
    select: { id: true, url: true, mode: true, organization: { select: { name: true, members: { where: { role: { in: ['owner', 'admin'] } }, select: { user: { select: { email: true } } } } } } },
  });
  if (!endpoint) return;
  const text = [
    `Roomtone disabled the ${endpoint.mode} webhook endpoint ${endpoint.id} (${endpoint.url}) of ${endpoint.organization.name} because ${REASON_TEXT[reason]}.`,
    'Its planned deliveries were canceled; they stay in the delivery log for 30 days and can be resent.',
    'Once the receiver works again, enable the endpoint: it receives the events produced from then on.',
  ].join('\n\n');
  for (const member of endpoint.organization.members) {
    await sendMail({ to: member.user.email, subject: `Webhook endpoint disabled: ${endpoint.url}`, text, kind: 'notification' }).catch((error: unknown) =>
      log.error('endpoint-disabled mail failed', { endpointId, error: String(error) }),
    );
  }
}
