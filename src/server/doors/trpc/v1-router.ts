import { z } from 'zod';
import type { Caller } from '@/server/capabilities/access/caller';
import { router, permittedAnyProcedure, permittedProcedure } from './init';
import { PERMISSIONS, REFERENCE_READERS } from '@/shared/keys/permissions';
import { readBalance } from '@/server/capabilities/billing/balance-read';
import { triggerTestEvent } from '@/server/capabilities/webhooks/trigger-test-event';
import { GENERATION_EVENT_TYPES } from '@/shared/webhooks/event-types';
import { creationsRouter } from './creations-router';
import { pageLimitParam, prefixedIdParam, resourceIdParam, textQueryParam } from '@/server/doors/params';
import { apiGenerationSchema, generationStatusSchema, generationTypeSchema, listSchema } from '@/server/capabilities/generations/schemas';
import { cancelGeneration, readGeneration, readGenerationPage } from '@/server/capabilities/generations/generations';
import { toApiGeneration } from '@/server/capabilities/generation-object/serialize';
import { listEditMaterialCategories, listEditMaterials, listStyles } from '@/server/capabilities/reference/reference';
import { priceList } from '@/server/capabilities/billing/pricing';

const TAG_GENERATIONS = 'Generations';
const TAG_REFERENCE = 'Reference';

const styleSchema = z.object({ object: z.literal('style'), id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'Style' });
const categorySchema = z
  .object({ object: z.literal('edit_material_category'), id: z.string(), name: z.string(), description: z.string() })
  .meta({ id: 'EditMaterialCategory' });
const materialSchema = z
  .object({ object: z.literal('edit_material'), id: z.string(), name: z.string(), description: z.string(), category: z.string() })
  .meta({ id: 'EditMaterial' });

/** Inputs shared by /v1 and the MCP tools (which generate their JSON Schemas from them). */
const priceSchema = z
  .object({
    object: z.literal('price'),
    type: generationTypeSchema,
    quality: z.enum(['1k', '2k', '4k', '8k']).nullable(),
    scale: z.enum(['x2', 'x4']).nullable(),
    amount: z.int().meta({ description: 'What `cost.amount` of a generation accepted now will be: the list price less the tier discount, in cents.' }),
    list_amount: z.int(),
    discount_percent: z.number(),
    currency: z.literal('eur'),
    unit: z.literal('cents'),
  })
  .meta({ id: 'Price' });

/** The calling key's organization's prices, each line from the one pricing function (billing/pricing.ts). */
export function apiPriceList(tier: number) {
  return {
    object: 'list' as const,
    data: priceList(tier).map((line) => ({
      object: 'price' as const,
      type: line.type,
      quality: line.quality,
      scale: line.scale,
      amount: line.amount,
      list_amount: line.listAmount,
      discount_percent: line.discountPercent,
      currency: 'eur' as const,
      unit: 'cents' as const,
    })),
    has_more: false,
  };
}

export const generationIdInput = z.strictObject({ id: resourceIdParam() });
export const noInput = z.strictObject({});
export const editMaterialsInput = z.strictObject({
  limit: pageLimitParam(),
  after: prefixedIdParam('mat').optional(),
  category: textQueryParam(64).optional(),
  search: textQueryParam(100).optional(),
});

export const generationListInput = z.strictObject({
  limit: pageLimitParam(),
  after: prefixedIdParam('gen').optional(),
  type: generationTypeSchema.optional(),
  status: generationStatusSchema.optional(),
});

/** The reads' scope: the caller's organization and mode, and the key to prove unrevoked if the door asks (TrpcContext.unrevokedKeyId). */
const readScope = (ctx: { caller: Caller; unrevokedKeyId?: string; unrevokedKeySecretHash?: string }) => ({
  organizationId: ctx.caller.organizationId,
  mode: ctx.caller.mode,
  unrevokedKeyId: ctx.unrevokedKeyId,
  unrevokedKeySecretHash: ctx.unrevokedKeySecretHash,
});

export const generationsRouter = router({
  get: permittedProcedure('generations_read')
    .meta({ openapi: { method: 'GET', path: '/generations/{id}', tags: [TAG_GENERATIONS], summary: 'Retrieve a generation', protect: true }, provesKey: true, outputSerialized: true })
    .input(generationIdInput)
    .output(apiGenerationSchema)
    .query(({ ctx, input }) => readGeneration(readScope(ctx), input.id)),

  list: permittedProcedure('generations_read')
    .meta({ openapi: { method: 'GET', path: '/generations', tags: [TAG_GENERATIONS], summary: 'List generations, most recent first', protect: true }, provesKey: true, outputSerialized: true })
    .input(generationListInput)
    .output(listSchema(apiGenerationSchema, 'GenerationList'))
    .query(({ ctx, input }) => readGenerationPage(readScope(ctx), input)),

  cancel: permittedProcedure('generations_read')
    .meta({
      openapi: {
        method: 'POST',
        path: '/generations/{id}/cancel',
        tags: [TAG_GENERATIONS],
        summary: 'Cancel a generation that has not started',
        description: 'Also needs the permission of the generation type (renders, edits, decorations or upscales).',
        protect: true,
      },
    })
    .input(generationIdInput)
    .output(apiGenerationSchema)
    .mutation(async ({ ctx, input }) => toApiGeneration(await cancelGeneration(ctx.caller, input.id, ctx.caller.permissions))),
});

export const styleListSchema = listSchema(styleSchema, 'StyleList');
export const categoryListSchema = listSchema(categorySchema, 'EditMaterialCategoryList');
export const materialListSchema = listSchema(materialSchema, 'EditMaterialList');

export const referenceRouter = router({
  styles: permittedProcedure(...REFERENCE_READERS.styles)
    .meta({
      openapi: {
        method: 'GET',
        path: '/styles',
        tags: [TAG_REFERENCE],
        summary: 'List decoration styles',
        description: 'Styles for decorations and renders (optional `style`). Permission: decorations (an unknown `style` in a render names the valid ids).',
        protect: true,
      },
    })
    .input(noInput)
    .output(styleListSchema)
    .query(async () => ({ object: 'list' as const, data: await listStyles(), has_more: false })),

  editMaterialCategories: permittedAnyProcedure(REFERENCE_READERS.editMaterialCategories)
    .meta({ openapi: { method: 'GET', path: '/edit-material-categories', tags: [TAG_REFERENCE], summary: 'List edit material categories', protect: true } })
    .input(noInput)
    .output(categoryListSchema)
    .query(async () => ({ object: 'list' as const, data: await listEditMaterialCategories(), has_more: false })),

  editMaterials: permittedAnyProcedure(REFERENCE_READERS.editMaterials)
    .meta({ openapi: { method: 'GET', path: '/edit-materials', tags: [TAG_REFERENCE], summary: 'List edit materials', protect: true } })
    .input(editMaterialsInput)
    .output(materialListSchema)
    .query(async ({ input }) => {
      const page = await listEditMaterials(input);
      return { object: 'list' as const, data: page.data, has_more: page.hasMore };
    }),
});

export const pricesRouter = router({
  list: permittedAnyProcedure(REFERENCE_READERS.prices)
    .meta({
      openapi: {
        method: 'GET',
        path: '/prices',
        tags: [TAG_REFERENCE],
        summary: 'List prices',
        description:
          'The price of one generation of each type at each quality (renders, edits, decorations) or scale (upscales) for the key’s organization, its tier discount applied: the `cost.amount` a creation accepted now gets. Test mode charges nothing; the prices are those live mode charges. An extension to the specification.',
        protect: true,
      },
    })
    .input(noInput)
    .output(listSchema(priceSchema, 'PriceList'))
    .query(({ ctx }) => apiPriceList(ctx.caller.tier)),
});

const balanceSchema = z
  .object({
    object: z.literal('balance'),
    amount: z.number().int().meta({ description: 'The balance, in euro cents excluding tax.' }),
    currency: z.literal('eur'),
    unit: z.literal('cents'),
    monthly_limit: z.number().int().meta({ description: 'The monthly spending limit, in cents: live charges net of refunds in a calendar month (UTC) may not pass it.' }),
    monthly_spend: z.number().int().meta({ description: 'Live charges net of refunds so far this calendar month (UTC), in cents.' }),
  })
  .meta({ id: 'AccountBalance' });

export const balanceRouter = router({
  retrieve: permittedAnyProcedure(PERMISSIONS)
    .meta({
      openapi: {
        method: 'GET',
        path: '/balance',
        tags: ['Balance'],
        summary: 'Retrieve the balance (extension)',
        description:
          '**An addition to the specification**, which shows the balance object only inside balance events: the same object (`object`, `amount`, `currency`, `unit`) plus `monthly_limit` and `monthly_spend`, so an integration can check what a batch may spend before it starts. Money exists in live mode only (test generations are never charged): a test key reads the same figures.',
        protect: true,
      },
    })
    .input(noInput)
    .output(balanceSchema)
    .query(({ ctx }) => readBalance(ctx.caller)),
});

const triggeredEventSchema = z
  .object({
    object: z.literal('triggered_event'),
    type: z.string(),
    event_id: z.string().nullable().meta({ description: 'The event produced (evt_…), or null when no active test endpoint and no open event stream follows the type.' }),
    endpoints: z.number().int().meta({ description: 'Active test endpoints following the type: each gets one signed delivery.' }),
    event_stream: z.boolean().meta({ description: 'Whether an open event stream (`listen`) follows the type.' }),
  })
  .meta({ id: 'TriggeredEvent' });

export const testEventsRouter = router({
  trigger: permittedProcedure('generations_read')
    .meta({
      openapi: {
        method: 'POST',
        path: '/events/trigger',
        tags: ['Events'],
        summary: 'Trigger a sample test-mode event (extension)',
        description:
          '**An extension to the specification**, as `stripe trigger`: a sample event of the type (fictitious ids, no image) is produced in test mode as a real one is: one signed delivery to each active test endpoint that follows the type, and the open event streams (`listen`). Test keys only. From a terminal: `npx @roomtone/sdk trigger generation.succeeded`.',
        protect: true,
      },
    })
    .input(z.strictObject({ type: z.enum(GENERATION_EVENT_TYPES) }))
    .output(triggeredEventSchema)
    .mutation(({ ctx, input }) => triggerTestEvent(ctx.caller, input.type)),
});

/** Every procedure /v1 serves; the console's router reuses the same sub-routers. */
export const v1Router = router({
  creations: creationsRouter,
  generations: generationsRouter,
  reference: referenceRouter,
  prices: pricesRouter,
  balance: balanceRouter,
  events: testEventsRouter,
});

export type V1Router = typeof v1Router;
