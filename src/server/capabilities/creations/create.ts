import { DomainError, invalidParam } from '@/server/platform/errors';
import { db, type DbTx, transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { priceFor, type Price } from '@/server/capabilities/billing/pricing';
import { blobStore } from '@/server/capabilities/storage/storage';
import { analyzeMask, matchLayersToMask } from '@/server/capabilities/images/mask';
import { validatePrompt } from '@/server/capabilities/images/prompt';
import { moderateInstruction } from '@/server/capabilities/moderation/moderation';
import { requireUsableMaterial } from '@/server/capabilities/reference/reference';
import { engineSupport } from '@/server/capabilities/engine/capabilities';
import { jobs } from '@/server/platform/jobs/client';
import { generationAdmitted } from '@/server/capabilities/generations/generation-run-job';
import { waitForGenerationEnd } from '@/server/capabilities/generations/notify';
import { toApiGeneration, type ApiGeneration } from '@/server/capabilities/generation-object/serialize';
import type { Caller, Channel } from '@/server/capabilities/access/caller';
import type { GenerationType } from '@/generated/prisma/enums';
import type { Generation } from '@/generated/prisma/client';
import { consumeUploads, deleteUploadBytes, UPLOAD_ID_PATTERN } from '@/server/capabilities/uploads/uploads';
import { receiveImages, sha256, type FileParts, type ImageSource, type ReceivedImage } from './images';
import { testTriggerOf, triggeredRefusal } from './test-triggers';
import { checkGenerationQuota, checkLoad, chargeForGeneration, currentQuotaUsage, generationQuota, lockAdmission, type GenerationQuota } from './admission';
import type { DecorationInput, EditInput, RenderInput, UpscaleInput } from '@/shared/creations/schemas';

/** Largest upscale output: WebP's 16383 px cap is not the limit (JPEG takes over), memory is. */
export const UPSCALE_MAX_OUTPUT_SIDE = 16384;
export const UPSCALE_MAX_OUTPUT_PIXELS = 64_000_000;

export type CreationInput =
  | { type: 'render'; input: RenderInput }
  | { type: 'decoration'; input: DecorationInput }
  | { type: 'upscale'; input: UpscaleInput }
  | { type: 'edit'; input: EditInput };

/** What is stored of each received image (never returned to clients). */
import type { StoredInputImage } from '@/server/capabilities/generation-object/stored-json';
export type { StoredInputImage };

export interface CreationContext {
  caller: Caller;
  channel: Channel;
  requestId: string;
  idempotencyKey: string | null;
  parts: FileParts;
  /** When the request arrived (ms): the wait counts from it, downloads included. */
  receivedAt: number;
}

/** What a door renders: /v1 as 200/202 with x-ratelimit-* headers, MCP as a tool result. */
export interface CreationResult {
  generation: ApiGeneration;
  /** false: still in progress when the wait ran out (or no wait was asked). */
  ended: boolean;
  quota: GenerationQuota;
}

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

export function validateIdempotencyKey(value: string | null, param = 'Idempotency-Key'): string | null {
  if (value === null) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) throw invalidParam(param, `${param} must be 1 to 255 printable ASCII characters.`);
  return value;
}

/** The image fields of a request, in a stable order. */
function imageSources(creation: CreationInput): ImageSource[] {
  const sources: ImageSource[] = [{ param: 'image', value: creation.input.image }];
  if (creation.type === 'edit') {
    if (creation.input.mask !== undefined) sources.push({ param: 'mask', value: creation.input.mask });
    creation.input.layers?.forEach((layer, i) => {
      if (layer.action === 'add' || layer.action === 'replace') sources.push({ param: `layers[${i}].element`, value: layer.element });
    });
  }
  return sources;
}

/** The generation's `input`: settings without images (colours uppercase, finish defaulted). */
function apiInput(creation: CreationInput): Record<string, unknown> {
  switch (creation.type) {
    case 'render':
      return { quality: creation.input.quality, scale: null, ...(creation.input.style ? { style: creation.input.style } : {}) };
    case 'decoration':
      return { quality: creation.input.quality, scale: null, style: creation.input.style ?? null, categories: creation.input.categories ?? null };
    case 'upscale':
      return { quality: null, scale: creation.input.scale };
    case 'edit': {
      const { input } = creation;
      if (input.mode === 'prompt') return { quality: input.quality, scale: null, mode: 'prompt', prompt: input.prompt ?? '' };
      return {
        quality: input.quality,
        scale: null,
        mode: 'mask',
        layers: (input.layers ?? []).map((layer) => {
          if (layer.action !== 'modify') return { mask_color: layer.mask_color, action: layer.action };
          if (layer.material !== undefined) return { mask_color: layer.mask_color, action: 'modify', material: layer.material };
          return { mask_color: layer.mask_color, action: 'modify', color: layer.color, finish: layer.finish ?? 'default' };
        }),
      };
    }
  }
}

/** Canonical request fingerprint: settings plus image identities (URL text or file digest). */
function requestHash(creation: CreationInput, parts: FileParts): string {
  const canonical = JSON.stringify(creation, (_key, value: unknown) => {
    if (typeof value === 'string') {
      const field = parts.fieldOf(value);
      if (field !== null) {
        const bytes = parts.resolve(value);
        return bytes ? `file:${sha256(bytes)}` : value;
      }
    }
    return value;
  });
  return sha256(canonical);
}

function settingsForPrice(creation: CreationInput): { quality?: RenderInput['quality']; scale?: UpscaleInput['scale'] } {
  return creation.type === 'upscale' ? { scale: creation.input.scale } : { quality: creation.input.quality };
}

/** Checks that need the database but no image: style and materials exist, prompt rules. */
async function validateReferences(creation: CreationInput): Promise<void> {
  const style = creation.type === 'decoration' || creation.type === 'render' ? creation.input.style : undefined;
  if (style !== undefined) {
    const found = await db().style.findUnique({ where: { id: style } });
    if (!found) {
      // A renders-only key cannot list styles (the spec gives /v1/styles to decorations): the ids are here.
      const ids = (await db().style.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);
      throw invalidParam('style', `Unknown style '${style}'; valid ids: ${ids.join(', ')}.`);
    }
  }
  if (creation.type === 'edit') {
    if (creation.input.mode === 'prompt') validatePrompt(creation.input.prompt, 'prompt');
    for (const [i, layer] of (creation.input.layers ?? []).entries()) {
      if (layer.action === 'modify' && layer.material !== undefined) await requireUsableMaterial(layer.material, `layers[${i}].material`);
    }
  }
}

/** Image rules that depend on the received images: mask analysis, upscale size. */
async function validateImages(creation: CreationInput, images: Map<string, ReceivedImage>): Promise<void> {
  const image = images.get('image');
  if (!image?.info) throw new Error('image missing after intake');
  if (creation.type === 'upscale') {
    const factor = creation.input.scale === 'x2' ? 2 : 4;
    const width = image.info.width * factor;
    const height = image.info.height * factor;
    if (Math.max(width, height) > UPSCALE_MAX_OUTPUT_SIDE || width * height > UPSCALE_MAX_OUTPUT_PIXELS) {
      throw new DomainError(
        'image_dimensions_invalid',
        `An ${creation.input.scale} upscale of ${image.info.width}×${image.info.height} would be ${width}×${height}; upscales produce at most ${UPSCALE_MAX_OUTPUT_SIDE} pixels a side and ${UPSCALE_MAX_OUTPUT_PIXELS / 1e6} million pixels.`,
        { param: 'image' },
      );
    }
  }
  if (creation.type === 'edit') {
    const mask = images.get('mask');
    if (mask) {
      const analysis = await analyzeMask(mask.bytes, { width: image.info.width, height: image.info.height }, 'mask');
      matchLayersToMask(analysis, (creation.input.layers ?? []).map((l) => l.mask_color), creation.input.mode);
    }
  }
}

function extensionFor(image: ReceivedImage): string {
  if (image.param === 'mask') return 'png';
  return image.info?.format === 'jpeg' ? 'jpg' : (image.info?.format ?? 'bin');
}

async function storeInputs(generationId: string, images: Map<string, ReceivedImage>): Promise<StoredInputImage[]> {
  const stored: StoredInputImage[] = [];
  for (const image of images.values()) {
    const name = image.param.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '');
    const key = `inputs/${generationId}/${name}.${extensionFor(image)}`;
    try {
      await blobStore().put(key, image.bytes, 'application/octet-stream');
    } catch (error) {
      await deleteInputs(stored); // a store that fails midway keeps none of this request's inputs
      throw error;
    }
    stored.push({ param: image.param, key, digest: image.digest, width: image.info?.width ?? null, height: image.info?.height ?? null });
  }
  return stored;
}

async function deleteInputs(stored: StoredInputImage[]): Promise<void> {
  await Promise.all(stored.map((s) => blobStore().delete(s.key).catch(() => undefined)));
}

type Admission = { kind: 'created'; generation: Generation; used: { minute: number; hour: number } } | { kind: 'replay'; generationId: string };

/** Each channel is its own door for idempotency keys: a key is bound to the door that first used it. */
const DOOR_NAMES: Record<Channel, string> = { v1: '/v1', mcp: 'MCP', console: 'the console playground' };

/** Same key again: same generation (no second charge), if it is the same request on the same channel. */
async function replayFor(ctx: CreationContext, hash: string, tx: DbTx = db()): Promise<string | null> {
  if (!ctx.idempotencyKey) return null;
  const record = await tx.idempotencyRecord.findUnique({
    where: { organizationId_mode_key: { organizationId: ctx.caller.organizationId, mode: ctx.caller.mode, key: ctx.idempotencyKey } },
  });
  if (!record) return null;
  if (record.channel !== ctx.channel) {
    throw new DomainError('idempotency_key_reused', `This idempotency key was already used on ${DOOR_NAMES[record.channel]}; use a new key.`);
  }
  if (record.requestHash !== hash) {
    throw new DomainError('idempotency_key_mismatch', 'This idempotency key was already used with different parameters; use a new key for a new request.');
  }
  return record.generationId;
}

/**
 * One creation, whatever the door (/v1, MCP, console playground): validate, receive images,
 * admit in one transaction (quota, load, price, monthly limit, charge, generation,
 * idempotency record), enqueue, then wait up to `waitMs` (counted from ctx.receivedAt) for the end.
 */
export async function createGeneration(ctx: CreationContext, creation: CreationInput, options: { waitMs: number }): Promise<CreationResult> {
  const { caller } = ctx;
  const hash = requestHash(creation, ctx.parts);

  const earlyReplay = await replayFor(ctx, hash);
  if (earlyReplay) return answer(ctx, earlyReplay, options, await currentQuotaUsage(db(), caller));

  await validateReferences(creation);
  const trigger = testTriggerOf(caller, creation.input.metadata);
  // Live instructions are moderated first: a refused one must say so (422, do not resend),
  // never look like a passing outage.
  if (creation.type === 'edit' && creation.input.mode === 'prompt' && caller.mode === 'live') {
    await moderateInstruction(creation.input.prompt ?? '');
  }
  const support = engineSupport(creation.type, creation.input);
  if (support === 'preview' && caller.mode === 'live') {
    throw new DomainError('mode_unavailable', `This ${creation.type === 'edit' ? 'editing mode' : creation.type} is temporarily unavailable: no generative model backend is configured. Nothing was charged.`);
  }

  const sources = imageSources(creation);
  const uploadIds = sources.map((s) => s.value).filter((v) => UPLOAD_ID_PATTERN.test(v));
  const images = await receiveImages(sources, ctx.parts, caller, ctx.receivedAt);
  await validateImages(creation, images);
  // A test-mode trigger refuses where the real refusal would: after validation, before admission.
  const triggered = trigger ? triggeredRefusal(trigger, caller) : null;
  if (triggered) throw triggered;

  const price: Price = priceFor(creation.type, settingsForPrice(creation), caller.tier);
  const generationId = newId('gen');
  const stored = await storeInputs(generationId, images);

  let admission: Admission;
  try {
    admission = await transaction(
      async (tx): Promise<Admission> => {
        await lockAdmission(tx, caller);
        const replay = await replayFor(ctx, hash, tx);
        if (replay) return { kind: 'replay', generationId: replay };
        const used = await checkGenerationQuota(tx, caller);
        await checkLoad(tx, caller, creation.type);
        await chargeForGeneration(tx, caller, price, generationId, creation.type);
        const generation = await tx.generation.create({
          data: {
            id: generationId,
            organizationId: caller.organizationId,
            mode: caller.mode,
            type: creation.type as GenerationType,
            channel: ctx.channel,
            apiKeyId: caller.apiKeyId,
            requestId: ctx.requestId,
            input: apiInput(creation) as object,
            metadata: creation.input.metadata ?? {},
            inputImages: stored as unknown as object,
            costAmount: price.amount,
            discountPercent: price.discountPercent,
            createdAt: clock.now(),
          },
        });
        // Uploaded files are consumed with the generation: a refused request leaves them available.
        await consumeUploads(tx, caller, uploadIds, generationId);
        if (ctx.idempotencyKey) {
          await tx.idempotencyRecord.create({
            data: {
              organizationId: caller.organizationId,
              mode: caller.mode,
              key: ctx.idempotencyKey,
              channel: ctx.channel,
              requestHash: hash,
              generationId,
              createdAt: clock.now(),
            },
          });
        }
        return { kind: 'created', generation, used: { minute: used.minute + 1, hour: used.hour + 1 } };
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (error) {
    await deleteInputs(stored); // images of a refused request are deleted at once
    throw error;
  }

  if (admission.kind === 'replay') {
    await deleteInputs(stored);
    return answer(ctx, admission.generationId, options, await currentQuotaUsage(db(), caller));
  }
  await deleteUploadBytes(uploadIds); // the generation keeps its own copy (inputs/)
  // The generation row is the durable record: if this enqueue is lost (crash), the sweeper
  // enqueues generations that are in progress, not started and not queued.
  log.info('generation accepted', { generationId });
  // A background creation answers 202 with the generation as accepted (spec, "Synchronous and
  // background creation"): it is read before its job can run, or a fast job could end first.
  const accepted = options.waitMs <= 0 ? await answer(ctx, generationId, options, admission.used) : undefined;
  await jobs().trigger(generationAdmitted({ id: generationId, organizationId: caller.organizationId })).catch((error: unknown) => log.error('enqueue failed; the sweeper will retry', { generationId, error: String(error) }));
  return accepted ?? answer(ctx, generationId, options, admission.used);
}

async function answer(ctx: CreationContext, generationId: string, options: { waitMs: number }, used: { minute: number; hour: number }): Promise<CreationResult> {
  const budget = options.waitMs - (Date.now() - ctx.receivedAt);
  if (budget > 0) await waitForGenerationEnd(generationId, budget);
  const row = await db().generation.findUniqueOrThrow({ where: { id: generationId } });
  return { generation: await toApiGeneration(row), ended: row.status !== 'in_progress', quota: generationQuota(ctx.caller, used) };
}
