import { db, transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { blobStore } from '@/server/capabilities/storage/storage';
import { refundIfCharged } from '@/server/capabilities/generations/generations';
import { progressWriter } from '@/server/capabilities/generations/progress';
import { IMAGE_RETENTION_MS, type StoredOutput } from '@/server/capabilities/generation-object/serialize';
import { recordGenerationEvent } from '@/server/capabilities/webhooks/events';
import { engine } from '@/server/capabilities/engine/engine';
import type { MaterialTexture } from '@/server/capabilities/reference/texture-schema';
import { getEditMaterial } from '@/server/capabilities/reference/catalog';
import { observeGenerationEnd } from '@/server/capabilities/observability/metrics';
import { failureFor, isInterruption } from '@/server/capabilities/engine/backends/failure';
import { storedInput, storedInputImages, type StoredInput } from '@/server/capabilities/generation-object/stored-json';
import type { Generation } from '@/generated/prisma/client';
import { notifyGenerationDone } from '@/server/capabilities/generations/notify';
import { JOB_EVENTS, type JobIo } from '@/server/platform/jobs/job';
import { generationCostClass } from '@/server/capabilities/generations/schedule';
import { failsByTrigger, TRIGGERED_FAILURE_MESSAGE } from '@/server/capabilities/creations/test-triggers';

/**
 * The generation job: start (one conditional UPDATE, so cancel and start cannot both win),
 * generate, store, finish. A failure ends the generation as failed with a full refund; a
 * worker that dies mid-way leaves the job to expire and be retried (steps are idempotent).
 */
export async function markStarted(generationId: string): Promise<Generation | null> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    update "Generation" set "startedAt" = coalesce("startedAt", ${clock.now()}), attempts = attempts + 1
    where id = ${generationId} and status = 'in_progress'
    returning id`;
  if (rows.length === 0) return null; // canceled (or already ended): nothing to do
  return db().generation.findUniqueOrThrow({ where: { id: generationId } });
}

export async function finishSucceeded(generation: Generation, outputs: StoredOutput[]): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const now = clock.now();
    const updated = await tx.generation.updateMany({
      where: { id: generation.id, status: 'in_progress' },
      data: { status: 'succeeded', completedAt: now, expiresAt: new Date(now.getTime() + IMAGE_RETENTION_MS), outputs: outputs as unknown as object },
    });
    if (updated.count === 0) return false;
    await recordGenerationEvent(tx, generation, 'generation.succeeded');
    await notifyGenerationDone(tx, generation.id);
    return true;
  });
}

export async function finishFailed(generationId: string, code: 'generation_failed' | 'content_policy_violation', message: string): Promise<boolean> {
  return transaction(async (tx) => {
    const generation = await tx.generation.findUnique({ where: { id: generationId } });
    if (!generation) return false;
    const now = clock.now();
    const updated = await tx.generation.updateMany({
      where: { id: generationId, status: 'in_progress' },
      data: {
        status: 'failed',
        completedAt: now,
        expiresAt: new Date(now.getTime() + IMAGE_RETENTION_MS),
        amountRefunded: generation.costAmount,
        errorCode: code,
        errorMessage: message,
      },
    });
    if (updated.count === 0) return false;
    await refundIfCharged(tx, generation);
    await recordGenerationEvent(tx, generation, 'generation.failed');
    await notifyGenerationDone(tx, generationId);
    return true;
  });
}

async function loadInputs(generation: Generation): Promise<Map<string, Buffer>> {
  const images = new Map<string, Buffer>();
  for (const stored of storedInputImages(generation.inputImages)) {
    const bytes = await blobStore().get(stored.key);
    if (!bytes) throw new Error(`input image ${stored.param} is missing from storage`);
    images.set(stored.param, bytes);
  }
  return images;
}

/** The texture recipes of the materials the generation's layers name (withdrawn ones included: it was admitted). */
function materialsOf(input: StoredInput): Map<string, MaterialTexture> {
  const materials = new Map<string, MaterialTexture>();
  for (const layer of input.layers ?? []) {
    if (layer.action !== 'modify' || layer.material === undefined) continue;
    const material = getEditMaterial(layer.material);
    if (!material) throw new Error(`material ${layer.material} is not in the catalogue`);
    materials.set(material.id, material.texture);
  }
  return materials;
}

type Generated = { ok: true; stored: StoredOutput[]; method: string } | { ok: false; code: 'generation_failed' | 'content_policy_violation'; message: string };

/**
 * The generation run, in named steps (memoized by the provider: a retried run skips the steps
 * that finished). Step results are JSON: `start` answers whether this run may proceed (the
 * generation is then read again, outside any step), `generate` engine-runs and stores the
 * output under a deterministic key and answers the stored outputs, or the failure (an engine
 * error is an outcome, not a step error, so both providers end it the same way: failed, with a
 * full refund); only an interruption (shutdown) throws, so the run is retried.
 */
export async function runGenerationJob(generationId: string, io: JobIo): Promise<'succeeded' | 'failed' | 'not_started'> {
  const started = await io.run('start', async () => (await markStarted(generationId)) !== null);
  if (!started) return 'not_started';
  const generation = await db().generation.findUniqueOrThrow({ where: { id: generationId } });
  const startedAt = Date.now();
  const generated = await io.run('generate', async (): Promise<Generated> => {
    if (failsByTrigger(generation)) {
      return { ok: false, code: 'generation_failed', message: TRIGGERED_FAILURE_MESSAGE };
    }
    try {
      const images = await loadInputs(generation);
      const seed = storedInputImages(generation.inputImages).map((i) => i.digest).join(':') + JSON.stringify(generation.input);
      const input = storedInput(generation.input);
      const progress = progressWriter(generationId);
      const output = await engine()({
        generationId,
        organizationId: generation.organizationId,
        type: generation.type,
        mode: generation.mode,
        input,
        images,
        seed,
        materials: materialsOf(input),
        costClass: generationCostClass(generation),
        progress: progress.report,
      }).finally(() => progress.close());
      const ext = output.contentType === 'image/webp' ? 'webp' : output.contentType === 'image/png' ? 'png' : 'jpg';
      const key = `outputs/${generationId}/0.${ext}`;
      await blobStore().put(key, output.bytes, output.contentType);
      return { ok: true, stored: [{ key, contentType: output.contentType, width: output.width, height: output.height, bytes: output.bytes.length }], method: output.method };
    } catch (error) {
      if (isInterruption(error)) throw error; // shutting down: the job's retry runs it again
      log.error('generation failed', { generationId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      const failure = failureFor(error);
      return { ok: false, code: failure.code, message: failure.message };
    }
  });
  if (!generated.ok) {
    await io.run('fail', () => finishFailed(generationId, generated.code, generated.message));
    observeGenerationEnd(generation.type, 'failed');
    await io.sendEvent('ended', { name: JOB_EVENTS.generationEnded, data: { generationId, organizationId: generation.organizationId, status: 'failed' } });
    return 'failed';
  }
  await io.run('finish', () => finishSucceeded(generation, generated.stored));
  log.info('generation succeeded', { generationId, method: generated.method, ms: Date.now() - startedAt });
  observeGenerationEnd(generation.type, 'succeeded', { method: generated.method, seconds: (Date.now() - startedAt) / 1000 });
  await io.sendEvent('ended', { name: JOB_EVENTS.generationEnded, data: { generationId, organizationId: generation.organizationId, status: 'succeeded' } });
  return 'succeeded';
}
