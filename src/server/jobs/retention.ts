import { deleteUnusedUploads } from '@/server/capabilities/uploads/uploads';
import { db } from '@/server/platform/db';
import { blobStore } from '@/server/capabilities/storage/storage';
import { log } from '@/server/platform/logger';
import { monthsBefore } from '@/server/platform/clock';
import { deleteExpiredAuditEvents } from '@/server/capabilities/audit/retention';
import { runLotMaintenance } from '@/server/capabilities/billing/expire-lots';
import { storedInputImages, storedOutputs } from '@/server/capabilities/generation-object/stored-json';
import { BODY_TOUCH_MS } from '@/server/capabilities/requestlog/requestlog';

export const PROMPT_RETENTION_DAYS = 30;
/** Idempotency keys are remembered 24 hours (as Stripe): a retry after that is a new request. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;
/** The console's request log keeps 30 days. */
export const REQUEST_LOG_RETENTION_DAYS = 30;
/** 13 months, counted as calendar months from creation. */
export function generationRetentionCutoff(now: Date): Date {
  return monthsBefore(now, 13);
}

/**
 * Retention, as of `now` (a scheduled job every few minutes; `roomtone maintenance run --now`):
 * - input and output images deleted at expires_at (end + 24 h) → output becomes [];
 * - edit instructions emptied 30 days after creation;
 * - generations deleted 13 months after creation (their ledger rows stay), with the
 *   operator-only records of their generative-backend calls (EngineBackendRun);
 * - idempotency keys forgotten after 24 hours, request-log lines after 30 days (and their
 *   bodies once no line that is kept uses them);
 * - audit events deleted 13 months after they were recorded;
 * - credit lots: balance.expiring notices, and expiry of unspent parts (src/server/capabilities/billing/lots.ts).
 * - uploaded files (create_upload) deleted 1 hour after creation if unused.
 * Each step is idempotent and works in bounded batches. The scheduled job leaves credit lots to
 * their own job (`creditLots: false`, src/server/jobs/definitions/maintenance.ts).
 */
export async function runRetention(now: Date, options: { creditLots?: boolean } = {}): Promise<{
  images_deleted: number;
  prompts_erased: number;
  generations_deleted: number;
  idempotency_keys_deleted: number;
  request_log_deleted: number;
  credit_lots_expired: number;
  expiring_notices: number;
  uploads_deleted: number;
  backend_runs_deleted: number;
  audit_events_deleted: number;
}> {
  let imagesDeleted = 0;
  for (;;) {
    const batch = await db().generation.findMany({
      where: { expiresAt: { lte: now }, imagesDeletedAt: null },
      select: { id: true, outputs: true, inputImages: true },
      take: 200,
    });
    if (batch.length === 0) break;
    for (const g of batch) {
      const keys = [
        ...storedOutputs(g.outputs).map((o) => o.key),
        ...storedInputImages(g.inputImages).map((i) => i.key),
      ];
      for (const key of keys) await blobStore().delete(key).catch((error: unknown) => log.warn('blob delete failed', { key, error: String(error) }));
      await db().generation.update({ where: { id: g.id }, data: { imagesDeletedAt: now, outputs: [], inputImages: [] } });
      imagesDeleted += 1;
    }
  }

  const promptCutoff = new Date(now.getTime() - PROMPT_RETENTION_DAYS * 24 * 3600 * 1000);
  const promptsErased = await db().$executeRaw`
    update "Generation" set input = jsonb_set(input, '{prompt}', '""'::jsonb), "promptErasedAt" = ${now}
    where type = 'edit' and "promptErasedAt" is null and "createdAt" <= ${promptCutoff}
      and input ? 'prompt' and input->>'prompt' <> ''`;

  const generationsDeleted = (await db().generation.deleteMany({ where: { createdAt: { lte: generationRetentionCutoff(now) } } })).count;
  // No foreign key ties a backend run to its generation, so the cascade does not reach them.
  const backendRunsDeleted = (await db().engineBackendRun.deleteMany({ where: { createdAt: { lte: generationRetentionCutoff(now) } } })).count;
  const idempotencyKeysDeleted = (await db().idempotencyRecord.deleteMany({ where: { createdAt: { lte: new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS) } } })).count;
  const requestLogCutoff = new Date(now.getTime() - REQUEST_LOG_RETENTION_DAYS * 24 * 3600 * 1000);
  const requestLogDeleted = (await db().requestLog.deleteMany({ where: { createdAt: { lte: requestLogCutoff } } })).count;
  // A body's lastUsedAt is at most BODY_TOUCH_MS behind the newest line that uses it, so a body
  // further behind the cutoff than that is used by no line that is kept.
  await db().requestLogBody.deleteMany({ where: { lastUsedAt: { lt: new Date(requestLogCutoff.getTime() - BODY_TOUCH_MS) } } });
  return {
    images_deleted: imagesDeleted,
    prompts_erased: promptsErased,
    generations_deleted: generationsDeleted,
    idempotency_keys_deleted: idempotencyKeysDeleted,
    request_log_deleted: requestLogDeleted,
    ...(options.creditLots === false ? { credit_lots_expired: 0, expiring_notices: 0 } : await runLotMaintenance(now)),
    uploads_deleted: await deleteUnusedUploads(now),
    backend_runs_deleted: backendRunsDeleted,
    audit_events_deleted: await deleteExpiredAuditEvents(now),
  };
}
