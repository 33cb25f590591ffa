import type { Prisma } from '@/generated/prisma/client';
import type { Mode } from '@/generated/prisma/enums';
import type { DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import type { AuditAction } from '@/shared/audit/actions';
import type { AuditActor } from './actor';

export interface AuditEntry {
  action: AuditAction;
  /** The mode of what changed (a key, an endpoint), when it has one. */
  mode?: Mode | undefined;
  target?: { type: string; id: string } | undefined;
  /** What changed: names, roles, before/after values. Never a secret. */
  details?: Record<string, Prisma.InputJsonValue | null> | undefined;
}

const USER_AGENT_MAX = 400;

async function actorColumns(tx: DbTx, actor: AuditActor) {
  switch (actor.type) {
    case 'user': {
      const email = actor.email ?? (await tx.user.findUnique({ where: { id: actor.userId }, select: { email: true } }))?.email ?? actor.userId;
      return { actorType: 'user', actorUserId: actor.userId, actorApiKeyId: null, actorLabel: email, ip: actor.origin.ip, userAgent: actor.origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null };
    }
    case 'api_key':
      return { actorType: 'api_key', actorUserId: null, actorApiKeyId: actor.apiKeyId, actorLabel: actor.prefix, ip: actor.origin.ip, userAgent: actor.origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null };
    case 'operator':
      return { actorType: 'operator', actorUserId: null, actorApiKeyId: null, actorLabel: 'operator (CLI)', ip: null, userAgent: null };
    case 'system':
      return { actorType: 'system', actorUserId: null, actorApiKeyId: null, actorLabel: 'Roomtone', ip: null, userAgent: null };
  }
}

/**
 * Append one audit row per organization, inside the transaction of the change it records:
 * the row commits exactly when the change does. There is no function to change or delete
 * rows (retention aside), and a database trigger refuses it too.
 */
export async function recordAudit(tx: DbTx, actor: AuditActor, organizationIds: string | readonly string[], entry: AuditEntry): Promise<void> {
  const ids = [...new Set(typeof organizationIds === 'string' ? [organizationIds] : organizationIds)];
  if (ids.length === 0) return;
  const columns = await actorColumns(tx, actor);
  const createdAt = clock.now();
  await tx.auditEvent.createMany({
    data: ids.map((organizationId) => ({
      id: newId('aud'),
      organizationId,
      createdAt,
      action: entry.action,
      ...columns,
      mode: entry.mode ?? null,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      details: entry.details ?? {},
    })),
  });
}

/**
 * An event of a user's account (sign-in, 2FA, sessions, password): recorded in every
 * organization the user belongs to at that moment, since each of them is reachable with it.
 */
export async function recordUserAudit(tx: DbTx, actor: AuditActor, userId: string, entry: AuditEntry): Promise<void> {
  const memberships = await tx.membership.findMany({ where: { userId }, select: { organizationId: true } });
  await recordAudit(tx, actor, memberships.map((m) => m.organizationId), { target: { type: 'user', id: userId }, ...entry });
}
