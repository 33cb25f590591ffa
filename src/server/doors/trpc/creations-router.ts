import { router, permittedProcedure } from './init';
import type { TrpcContext } from './context';
import { apiGenerationSchema } from '@/server/capabilities/generations/schemas';
import { createGeneration, type CreationContext, type CreationInput } from '@/server/capabilities/creations/create';
import { generationQuotaHeaders } from '@/server/doors/rate-headers';
import { decorationInput, editInput, renderInput, upscaleInput } from '@/shared/creations/schemas';

const TAG = 'Creations';
const SYNC_NOTE =
  'Answers 200 with the ended generation (usually 1 to 3 minutes; set a client timeout of at least 5 minutes), or 202 with the in-progress generation when `background` is true, under heavy load, after 4 min 30 s, or if the server restarts. Accepts JSON (image URLs) or multipart/form-data (files named as their field). Header `Idempotency-Key` (1–255 characters) makes retries safe.';

type PermittedContext = TrpcContext & { caller: NonNullable<TrpcContext['caller']> };

/**
 * The service answers a plain result; this door renders it: 200 when ended, 202 in progress,
 * and the generation quota headers. `background` is a /v1 parameter (MCP tools always wait).
 */
async function run(ctx: PermittedContext, creation: CreationInput) {
  const context: CreationContext = {
    caller: ctx.caller,
    channel: ctx.channel,
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey,
    parts: ctx.parts,
    receivedAt: ctx.receivedAt,
  };
  const background = 'background' in creation.input && creation.input.background === true;
  const result = await createGeneration(context, creation, { waitMs: background ? 0 : ctx.creationWaitMs });
  ctx.response.status = result.ended ? 200 : 202;
  Object.assign(ctx.response.headers, generationQuotaHeaders(result.quota));
  return result.generation;
}

export const creationsRouter = router({
  render: permittedProcedure('renders')
    .meta({ openapi: { method: 'POST', path: '/renders', tags: [TAG], summary: 'Render a draft photorealistically', description: SYNC_NOTE, protect: true, contentTypes: ['application/json', 'multipart/form-data'] } })
    .input(renderInput)
    .output(apiGenerationSchema)
    .mutation(({ ctx, input }) => run(ctx, { type: 'render', input })),

  edit: permittedProcedure('edits')
    .meta({ openapi: { method: 'POST', path: '/edits', tags: [TAG], summary: 'Edit an image by instruction or by colour mask', description: SYNC_NOTE, protect: true, contentTypes: ['application/json', 'multipart/form-data'] } })
    .input(editInput)
    .output(apiGenerationSchema)
    .mutation(({ ctx, input }) => run(ctx, { type: 'edit', input })),

  decoration: permittedProcedure('decorations')
    .meta({ openapi: { method: 'POST', path: '/decorations', tags: [TAG], summary: 'Decorate a furnished room', description: SYNC_NOTE, protect: true, contentTypes: ['application/json', 'multipart/form-data'] } })
    .input(decorationInput)
    .output(apiGenerationSchema)
    .mutation(({ ctx, input }) => run(ctx, { type: 'decoration', input })),

  upscale: permittedProcedure('upscales')
    .meta({ openapi: { method: 'POST', path: '/upscales', tags: [TAG], summary: 'Upscale x2 or x4 without changing the content', description: SYNC_NOTE, protect: true, contentTypes: ['application/json', 'multipart/form-data'] } })
    .input(upscaleInput)
    .output(apiGenerationSchema)
    .mutation(({ ctx, input }) => run(ctx, { type: 'upscale', input })),
});
