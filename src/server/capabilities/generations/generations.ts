import type { Tx } from '@/server/platform/db';
import { sql, sqlTimestamp, sqlTimestampOfMs, transaction, type SqlTimestamps } from '@/server/platform/db';
import { DomainError, invalidParam, notFound } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import type { GenerationStatus, GenerationType, Mode } from '@/generated/prisma/enums';
import type { Generation } from '@/generated/prisma/client';
import { appendLedgerEntry } from '@/server/capabilities/billing/ledger';
import { PERMISSION_FOR_TYPE, type Permission } from '@/shared/keys/permissions';
import { recordGenerationEvent } from '@/server/capabilities/webhooks/events';
import { jobs } from '@/server/platform/jobs/client';
import { generationCanceled } from './generation-run-job';
import { log } from '@/server/platform/logger';
import { storedOutputs } from '@/server/capabilities/generation-object/stored-json';
import { API_GENERATION_COLUMNS, GENERATION_VIEW_COLUMNS, IMAGE_RETENTION_MS, toApiGeneration, toApiGenerations, type ApiGeneration, type GenerationView, type GenerationViewMs } from '@/server/capabilities/generation-object/serialize';

/** Who is asking: every query is scoped by organization and mode. */
export interface Scope {
  organizationId: string;
  mode: Mode;
  /**
   * An API key the read must find unrevoked and without an IP allowlist (the cache served it
   * with none): rows come back only while that key has no revokedAt, no allowlist and no expiry
   * passed in the read's own snapshot. The /v1 door sets it for a key the cache served without
   * its revocation barrier (keys/revocation-proof.ts), and confirms the key itself when nothing
   * comes back.
   */
  unrevokedKeyId?: string | undefined;
  /** With unrevokedKeyId: the hash of the secret sent, which must still be one of the key's (a roll may have dropped it). */
  unrevokedKeySecretHash?: string | undefined;
}

/**
 * The condition of Scope.unrevokedKeyId on parameters from `param`: the key id, then (with
 * `withHash`) the secret's hash, then the request's time. The key must also be unexpired then,
 * and a replaced secret within its overlap: the cached copy was judged by the clock, but the
 * row may have changed since (a notice the cache has not handled yet).
 */
const keyUnrevoked = (param: number, withHash: boolean): string => {
  const at = `$${withHash ? param + 2 : param + 1}::timestamp(3)`;
  const hash = `$${param + 1}`;
  const secret = withHash ? ` and ("secretHash" = ${hash} or ("previousSecretHash" = ${hash} and "previousSecretExpiresAt" > ${at}))` : '';
  return `exists (select 1 from "ApiKey" where id = $${param} and "revokedAt" is null and cardinality("allowedIps") = 0 and ("expiresAt" is null or "expiresAt" > ${at})${secret})`;
};
/** Adds the key proof's parameters to `values` (see keyUnrevoked): 0 without a proof, 1 without the secret's hash, 2 with it. */
function pushKeyProofValues(scope: Scope, values: unknown[]): 0 | 1 | 2 {
  if (!scope.unrevokedKeyId) return 0;
  values.push(scope.unrevokedKeyId);
  const withHash = scope.unrevokedKeySecretHash !== undefined;
  if (withHash) values.push(scope.unrevokedKeySecretHash);
  values.push(sqlTimestampOfMs(clock.nowMs()));
  return withHash ? 2 : 1;
}
const keyProof = (scope: Scope, values: unknown[]): string => {
  const first = values.length + 1;
  return keyUnrevoked(first, pushKeyProofValues(scope, values) === 2);
};

/** Reads select only what a read returns (GENERATION_VIEW_COLUMNS), in SQL on the hot path. */
const SELECT_GENERATION = `select ${GENERATION_VIEW_COLUMNS.map((c) => `"${c}"`).join(', ')} from "Generation"`;
/** The /v1 reads: only what the generation object is made of. */
const SELECT_API_GENERATION = `select ${API_GENERATION_COLUMNS.map((c) => `"${c}"`).join(', ')} from "Generation"`;

export async function getGeneration(scope: Scope, id: string): Promise<GenerationView> {
  return selectGeneration(scope, id, SELECT_GENERATION);
}

/** Where a generation came from, beside its view (the console's detail). */
export type GenerationWithOrigin = GenerationView & Pick<Generation, 'channel' | 'apiKeyId' | 'requestId'>;
const SELECT_GENERATION_WITH_ORIGIN = `select ${GENERATION_VIEW_COLUMNS.map((c) => `"${c}"`).join(', ')}, channel, "apiKeyId", "requestId" from "Generation"`;

/** getGeneration with its origin, in the same query (a followed generation's end is read with it). */
export async function getGenerationWithOrigin(scope: Scope, id: string): Promise<GenerationWithOrigin> {
  return selectGeneration(scope, id, SELECT_GENERATION_WITH_ORIGIN);
}

/**
 * selectGeneration's statement for `select`: without the key proof, with it, and with it and the
 * secret's hash (parameters from 4, keyUnrevoked). Made once: a text made per call is copied and
 * hashed again to find its prepared statement (platform/db.ts).
 */
const generationStatements = new Map<string, [string, string, string]>();

function generationStatement(select: string, proof: 0 | 1 | 2): string {
  let texts = generationStatements.get(select);
  if (texts === undefined) {
    const where = `${select} where id = $1 and "organizationId" = $2 and mode = $3::"Mode"`;
    texts = [where, `${where} and ${keyUnrevoked(4, false)}`, `${where} and ${keyUnrevoked(4, true)}`];
    generationStatements.set(select, texts);
  }
  return texts[proof];
}

async function selectGeneration<T>(scope: Scope, id: string, select: string, timestamps: SqlTimestamps = 'date'): Promise<T> {
  const values: unknown[] = [id, scope.organizationId, scope.mode];
  const rows = await sql<T>(generationStatement(select, pushKeyProofValues(scope, values)), values, timestamps);
  const row = rows[0];
  if (!row) throw notFound(`No such generation: '${id.slice(0, 100)}'.`, 'id');
  return row;
}

/** A generation as the API returns it (GET /v1/generations/{id}): getGeneration's query for the object's columns, its timestamps read as numbers. */
export async function readGeneration(scope: Scope, id: string): Promise<ApiGeneration> {
  return toApiGeneration(await selectGeneration<GenerationViewMs>(scope, id, SELECT_API_GENERATION, 'epochMs'));
}

/** The byte size of each output image of a generation, in output order (undefined when not recorded or deleted). */
export async function readOutputSizes(scope: Scope, id: string): Promise<(number | undefined)[]> {
  const rows = await sql<{ outputs: unknown; imagesDeletedAt: Date | null }>(
    `select outputs, "imagesDeletedAt" from "Generation" where id = $1 and "organizationId" = $2 and mode = $3::"Mode"`,
    [id, scope.organizationId, scope.mode],
  );
  const row = rows[0];
  if (!row || row.imagesDeletedAt) return [];
  return storedOutputs(row.outputs).map((o) => o.bytes);
}

export interface ListParams {
  limit: number;
  after?: string | undefined;
  type?: GenerationType | undefined;
  status?: GenerationStatus | undefined;
  /** Console filters (not on /v1): created at or after / before. */
  createdFrom?: Date | undefined;
  createdBefore?: Date | undefined;
}

/**
 * Most recent first, with a stable cursor (insertion sequence). One statement per combination
 * of filters, so each is planned for the index that serves it.
 */
export async function listGenerations(scope: Scope, params: ListParams): Promise<{ data: GenerationView[]; hasMore: boolean }> {
  return selectPage<GenerationView>(scope, params, SELECT_GENERATION, 'date');
}

async function selectPage<T>(scope: Scope, params: ListParams, select: string, timestamps: SqlTimestamps): Promise<{ data: T[]; hasMore: boolean }> {
  let beforeSeq: bigint | undefined;
  if (params.after !== undefined) {
    const cursor = await sql<{ seq: bigint }>(`select seq from "Generation" where id = $1 and "organizationId" = $2 and mode = $3::"Mode"`, [
      params.after,
      scope.organizationId,
      scope.mode,
    ]);
    if (!cursor[0]) throw invalidParam('after', `'after' must be the id of a generation you listed; '${params.after}' is not.`);
    beforeSeq = cursor[0].seq;
  }
  const values: unknown[] = [scope.organizationId, scope.mode];
  const where = ['"organizationId" = $1', 'mode = $2::"Mode"'];
  if (params.type) where.push(`type = $${values.push(params.type)}::"GenerationType"`);
  if (params.status) where.push(`status = $${values.push(params.status)}::"GenerationStatus"`);
  if (params.createdFrom) where.push(`"createdAt" >= $${values.push(sqlTimestamp(params.createdFrom))}`);
  if (params.createdBefore) where.push(`"createdAt" < $${values.push(sqlTimestamp(params.createdBefore))}`);
  if (beforeSeq !== undefined) where.push(`seq < $${values.push(beforeSeq)}`);
  if (scope.unrevokedKeyId) where.push(keyProof(scope, values));
  const limit = values.push(params.limit + 1);
  const rows = await sql<T>(`${select} where ${where.join(' and ')} order by seq desc limit $${limit}`, values, timestamps);
  return { data: rows.slice(0, params.limit), hasMore: rows.length > params.limit };
}

/** A page of generations as the API returns it (GET /v1/generations): listGenerations' query for the object's columns, their timestamps read as numbers. */
export async function readGenerationPage(scope: Scope, params: ListParams): Promise<{ object: 'list'; data: ApiGeneration[]; has_more: boolean }> {
  const page = await selectPage<GenerationViewMs>(scope, params, SELECT_API_GENERATION, 'epochMs');
  return { object: 'list', data: await toApiGenerations(page.data), has_more: page.hasMore };
}

/**
 * Cancel a generation whose processing has not started. One conditional UPDATE decides against
 * a worker starting it at the same moment; the refund is one compensating ledger row in the
 * same transaction.
 */
export async function cancelGeneration(scope: Scope, id: string, permissions: ReadonlySet<Permission>): Promise<GenerationView> {
  const existing = await getGeneration(scope, id);
  const needed = PERMISSION_FOR_TYPE[existing.type];
  if (!permissions.has(needed)) {
    throw new DomainError('permission_denied', `Canceling a ${existing.type} needs the '${needed}' permission.`);
  }
  const canceled = await transaction(async (tx) => {
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
      throw new DomainError('generation_not_cancelable', `Generation ${id} has already started or ended and can no longer be canceled.`);
    }
    await refundIfCharged(tx, existing);
    await recordGenerationEvent(tx, existing, 'generation.canceled');
    return tx.generation.findUniqueOrThrow({ where: { id } });
  });
  // Its waiting run is dropped (Inngest); if that fails, the run finds it canceled and does nothing.
  await jobs().cancel(generationCanceled(canceled)).catch((error: unknown) => log.warn('cancel event not sent', { generationId: id, error: String(error) }));
  return canceled;
}

/** Live generations were charged at acceptance; test ones never were. */
export async function refundIfCharged(tx: Tx, generation: Pick<Generation, 'id' | 'mode' | 'organizationId' | 'costAmount'>): Promise<void> {
  if (generation.mode !== 'live' || generation.costAmount === 0) return;
  await appendLedgerEntry(tx, {
    organizationId: generation.organizationId,
    type: 'refund',
    amount: generation.costAmount,
    generationId: generation.id,
    description: `Refund for ${generation.id}`,
  });
}
