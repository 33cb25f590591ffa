import { z } from 'zod';

/** Response schema of the generation object (documentation and output check). */
export const generationTypeSchema = z.enum(['render', 'edit', 'decoration', 'upscale']);
export const generationStatusSchema = z.enum(['in_progress', 'succeeded', 'failed', 'canceled']);

export const apiGenerationSchema = z
  .object({
    object: z.literal('generation'),
    id: z.string().meta({ example: 'gen_3kTq9ZbX2mPw7LrV1sNc8YdA' }),
    type: generationTypeSchema,
    status: generationStatusSchema,
    progress: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({
        description:
          'Fraction done, 0 to 1. While in_progress: 0 until processing starts, then as the engine running it reports (null when it cannot tell, e.g. a model that reports no progress). 1 once succeeded; null once failed or canceled.',
        example: 0.42,
      }),
    cancelable: z.boolean(),
    livemode: z.boolean(),
    created_at: z.int(),
    completed_at: z.int().nullable(),
    input: z.record(z.string(), z.unknown()),
    output: z.array(
      z.object({
        url: z.string(),
        url_expires_at: z.int(),
        content_type: z.string(),
        width: z.int(),
        height: z.int(),
      }),
    ),
    error: z.object({ code: z.enum(['generation_failed', 'content_policy_violation']).or(z.string()), message: z.string() }).nullable(),
    cost: z.object({
      amount: z.int(),
      currency: z.literal('eur'),
      unit: z.literal('cents'),
      discount_percent: z.number(),
      amount_refunded: z.int(),
    }),
    metadata: z.record(z.string(), z.string()),
    expires_at: z.int(),
  })
  .meta({ id: 'Generation' });

export function listSchema<T extends z.ZodType>(item: T, id: string) {
  return z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() }).meta({ id });
}
