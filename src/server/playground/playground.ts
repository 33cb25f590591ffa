import { ApiError } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { priceFor } from '@/server/billing/pricing';
import { recordRequest } from '@/server/requestlog/requestlog';
import { MEMBER_PERMISSIONS, type Member } from '@/server/members/roles';
import type { Caller } from '@/server/access/caller';
import { createGeneration, validateIdempotencyKey, type CreationInput } from '@/server/creations/create';
import { FileParts } from '@/server/creations/images';
import { currentQuotaUsage, generationQuota, type GenerationQuota } from '@/server/creations/admission';
import { decorationInput, editInput, renderInput, upscaleInput, DEFAULT_QUALITY, DEFAULT_SCALE } from '@/server/creations/schemas';
import { apiErrorFromUnknown, apiErrorFromZodIssues } from '@/server/trpc/errors';
import type { ApiGeneration } from '@/server/generations/serialize';
import { CREATION_ROUTES, type CreationKind } from './playground-inputs';

/**
 * The console playground's door to the creation service: the member's organization and mode,
 * all creation permissions (every role may create), channel `console`, the /v1 body parsed by
 * the /v1 route's own schema. It answers at acceptance (the page polls the generation for live
 * status) and writes a request-log line `POST /playground/<route>` like MCP's `/mcp/<tool>`.
 */
export function callerFromMember(member: Member): Caller {
  return { organizationId: member.organizationId, mode: member.mode, permissions: MEMBER_PERMISSIONS, tier: member.tier, apiKeyId: null };
}

function parseCreation(kind: CreationKind, body: unknown): CreationInput {
  const schema = { render: renderInput, edit: editInput, decoration: decorationInput, upscale: upscaleInput }[kind];
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw apiErrorFromZodIssues(parsed.error.issues);
  return { type: kind, input: parsed.data } as CreationInput;
}

export interface PlaygroundRun {
  generation: ApiGeneration;
  quota: GenerationQuota;
  requestId: string;
}

export async function runPlaygroundCreation(member: Member, request: { kind: CreationKind; body: unknown; idempotencyKey?: string | undefined }, ip: string | null): Promise<PlaygroundRun> {
  const started = performance.now();
  const requestId = newId('req');
  const line = (status: number, error: ApiError | null) =>
    recordRequest({
      id: requestId,
      organizationId: member.organizationId,
      apiKeyId: null,
      mode: member.mode,
      method: 'POST',
      path: `/playground/${CREATION_ROUTES[request.kind]}`,
      status,
      errorCode: error?.code ?? null,
      errorMessage: error?.message ?? null,
      durationMs: Math.round(performance.now() - started),
      ip,
      createdAt: clock.now(),
    });
  try {
    const creation = parseCreation(request.kind, request.body);
    const result = await createGeneration(
      {
        caller: callerFromMember(member),
        channel: 'console',
        requestId,
        idempotencyKey: validateIdempotencyKey(request.idempotencyKey ?? null),
        parts: new FileParts(new Map(), requestId),
        receivedAt: Date.now(),
      },
      creation,
      { waitMs: 0 },
    );
    line(result.ended ? 200 : 202, null);
    return { generation: result.generation, quota: result.quota, requestId };
  } catch (error) {
    const apiError = apiErrorFromUnknown(error, { requestId, route: `POST /playground/${CREATION_ROUTES[request.kind]}` });
    line(apiError.status, apiError);
    throw apiError;
  }
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
