import { z } from 'zod';

/**
 * Inputs of the console playground's procedures (zod only: the browser bundles this file).
 * The creation body itself is the /v1 body, validated by the route's own schema
 * (creations/schemas.ts) inside the procedure so refusals name the same `param` as /v1.
 */
export const CREATION_KINDS = ['render', 'edit', 'decoration', 'upscale'] as const;
export type CreationKind = (typeof CREATION_KINDS)[number];

/** The /v1 route of each kind (request log lines and copied code use it). */
export const CREATION_ROUTES: Record<CreationKind, string> = { render: 'renders', edit: 'edits', decoration: 'decorations', upscale: 'upscales' };

export const playgroundCreateInput = z.object({
  kind: z.enum(CREATION_KINDS),
  body: z.record(z.string(), z.unknown()),
  /** Same rule as the Idempotency-Key header (checked by the creation service). */
  idempotencyKey: z.string().max(255).optional(),
  /** How long the answer may wait for the generation's end (as a synchronous /v1 creation); 0 answers at acceptance. */
  waitMs: z.number().int().min(0).max(10_000).optional(),
});

export const playgroundQuoteInput = z.object({
  kind: z.enum(CREATION_KINDS),
  quality: z.enum(['1k', '2k', '4k', '8k']).optional(),
  scale: z.enum(['x2', 'x4']).optional(),
});

export const materialSearchInput = z.object({
  category: z.string().max(64).optional(),
  search: z.string().max(100).optional(),
  after: z.string().max(100).optional(),
});

/** One read of a generation that waits up to waitMs for its end (the playground follows its run this way). */
export const followGenerationInput = z.object({
  id: z.string().regex(/^gen_[0-9A-Za-z]{1,64}$/, 'must be a generation id (gen_…)'),
  waitMs: z.number().int().min(0).max(10_000),
});
