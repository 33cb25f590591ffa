import { db } from '@/server/platform/db';
import { priceFor } from '@/server/capabilities/billing/pricing';
import { MEMBER_PERMISSIONS, type Member } from '@/server/capabilities/access/roles';
import type { Caller } from '@/server/capabilities/access/caller';
import { createGeneration, validateIdempotencyKey, type CreationInput } from '@/server/capabilities/creations/create';
import { FileParts } from '@/server/capabilities/creations/images';
import { currentQuotaUsage, generationQuota, type GenerationQuota } from '@/server/capabilities/creations/admission';
import { DEFAULT_QUALITY, DEFAULT_SCALE } from '@/shared/creations/schemas';
import type { CreationKind } from '@/shared/playground/playground-inputs';
import type { ApiGeneration } from '@/server/capabilities/generation-object/serialize';

/**
 * The console playground's door to the creation service: the member's organization and mode,
 * all creation permissions (every role may create), channel `console` (shown as playground
 * calls). The door (trpc/playground-router.ts) parses the /v1 body with the route's own schema
 * and writes the request-log line.
 */
export function callerFromMember(member: Member): Caller {
  return { organizationId: member.organizationId, mode: member.mode, permissions: MEMBER_PERMISSIONS, tier: member.tier, apiKeyId: null };
}

export interface PlaygroundRun {
  generation: ApiGeneration;
  quota: GenerationQuota;
}

/** One creation from the playground, answered at acceptance (the door then waits for the end, or the page follows it). */
export async function runPlaygroundCreation(member: Member, creation: CreationInput, request: { requestId: string; idempotencyKey?: string | undefined }): Promise<PlaygroundRun> {
  const result = await createGeneration(
    {
      caller: callerFromMember(member),
      channel: 'console',
      requestId: request.requestId,
      idempotencyKey: validateIdempotencyKey(request.idempotencyKey ?? null),
      parts: new FileParts(new Map(), request.requestId),
      receivedAt: Date.now(),
    },
    creation,
    { waitMs: 0 },
  );
  return { generation: result.generation, quota: result.quota };
}

export interface PlaygroundQuote {
  /** cost.amount of a generation accepted now: tier discount applied, euro cents. */
  amount: number;
  listAmount: number;
  discountPercent: number;
  currency: 'eur';
  /** Test mode: the live price is shown, nothing is charged. */
  charged: boolean;
  quota: GenerationQuota;
}

export async function quotePlayground(member: Member, input: { kind: CreationKind; quality?: '1k' | '2k' | '4k' | '8k' | undefined; scale?: 'x2' | 'x4' | undefined }): Promise<PlaygroundQuote> {
  const caller = callerFromMember(member);
  const price =
    input.kind === 'upscale' ? priceFor('upscale', { scale: input.scale ?? DEFAULT_SCALE }, caller.tier) : priceFor(input.kind, { quality: input.quality ?? DEFAULT_QUALITY }, caller.tier);
  const used = await currentQuotaUsage(db(), caller);
  return { amount: price.amount, listAmount: price.listAmount, discountPercent: price.discountPercent, currency: 'eur', charged: caller.mode === 'live', quota: generationQuota(caller, used) };
}
