import type { DbTx } from '@/server/platform/db';
import { db } from '@/server/platform/db';
import { ApiError, invalidParam, notFound } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import type { GenerationStatus, GenerationType, Mode } from '@/generated/prisma/enums';
import type { Generation } from '@/generated/prisma/client';
import { appendLedgerEntry } from '@/server/billing/ledger';
import { PERMISSION_FOR_TYPE, type Permission } from '@/server/keys/permissions';
import { recordGenerationEvent } from '@/server/webhooks/events';
import { IMAGE_RETENTION_MS } from './serialize';

/** Who is asking: every query is scoped by organization and mode. */
export interface Scope {
  organizationId: string;
  mode: Mode;
}

export async function getGeneration(scope: Scope, id: string, tx: DbTx = db()): Promise<Generation> {
  const row = await tx.generation.findFirst({
    where: { id, organizationId: scope.organizationId, mode: scope.mode },
  });
  if (!row) throw notFound(`No such generation: '${id}'.`, 'id');
  return row;
}

export interface ListParams {
  limit: number;
  after?: string | undefined;
  type?: GenerationType | undefined;
  status?: GenerationStatus | undefined;
}

/** Most recent first, with a stable cursor (insertion sequence). */
export async function listGenerations(scope: Scope, params: ListParams): Promise<{ data: Generation[]; hasMore: boolean }> {
  let beforeSeq: bigint | undefined;
  if (params.after !== undefined) {
    const cursor = await db().generation.findFirst({
      where: { id: params.after, organizationId: scope.organizationId, mode: scope.mode },
      select: { seq: true },
    });
    if (!cursor) throw invalidParam('after', `'after' must be the id of a generation you listed; '${params.after}' is not.`);
    beforeSeq = cursor.seq;
  }
  const rows = await db().generation.findMany({
    where: {
      organizationId: scope.organizationId,
      mode: scope.mode,
      ...(params.type ? { type: params.type } : {}),
      ...(params.status ? { status: params.status } : {}),
      ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}),
    },
    orderBy: { seq: 'desc' },
    take: params.limit + 1,
  });
  return { data: rows.slice(0, params.limit), hasMore: rows.length > params.limit };
}

/**
 * Cancel a generation whose processing has not started. One conditional UPDATE decides against
 * a worker starting it at the same moment; the refund is one compensating ledger row in the
 * same transaction.
 */
export async function cancelGeneration(scope: Scope, id: string, permissions: ReadonlySet<Permission>): Promise<Generation> {
  const existing = await getGeneration(scope, id);
  const needed = PERMISSION_FOR_TYPE[existing.type];
  if (!permissions.has(needed)) {
    throw new ApiError(403, 'permission_denied', `Canceling a ${existing.type} needs the '${needed}' permission.`);
  }
  return db().$transaction(async (tx) => {
    const now = clock.now();
    const updated = await tx.generation.updateMany({
      where: { id, organizationId: scope.organizationId, mode: scope.mode, status: 'in_progress', startedAt: null },
      data: {
        status: 'canceled',
        completedAt: now,
        expiresAt: new Date(now.getTime() + IMAGE_RETENTION_MS),
        amountRefunded: existing.costAmount,
      },
    });
    if (updated.count === 0) {
      throw new ApiError(409, 'generation_not_cancelable', `Generation ${id} has already started or ended and can no longer be canceled.`);
    }
    await refundIfCharged(tx, existing);
    await recordGenerationEvent(tx, existing, 'generation.canceled');
    return tx.generation.findUniqueOrThrow({ where: { id } });
  });
}

/** Live generations were charged at acceptance; test ones never were. */
export async function refundIfCharged(tx: DbTx, generation: Pick<Generation, 'id' | 'mode' | 'organizationId' | 'costAmount'>): Promise<void> {
  if (generation.mode !== 'live' || generation.costAmount === 0) return;
  await appendLedgerEntry(tx, {
    organizationId: generation.organizationId,
    type: 'refund',
    amount: generation.costAmount,
    generationId: generation.id,
    description: `Refund for ${generation.id}`,
  });
}
