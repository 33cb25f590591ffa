import { z } from 'zod';
import { ACCESSORY_CATEGORIES, FINISHES, QUALITIES, SCALES } from '@/shared/creations/schemas';

/**
 * The JSON columns of a generation, parsed on read (never cast): a row written by an older
 * version or by hand that does not match fails loudly here instead of deep in a caller.
 */
/** `bytes`: the stored file's size (absent on rows written before it was recorded). */
export const storedOutputSchema = z.object({ key: z.string(), contentType: z.string(), width: z.int(), height: z.int(), bytes: z.int().optional() });
export const storedInputImageSchema = z.object({ param: z.string(), key: z.string(), digest: z.string(), width: z.int().nullable(), height: z.int().nullable() });

/** A mask-mode edit's layer as stored: colours uppercase, finish defaulted, element images in `inputImages`. */
const storedLayerSchema = z.union([
  z.object({ mask_color: z.string(), action: z.literal('modify'), material: z.string().optional(), color: z.string().optional(), finish: z.enum(FINISHES).optional() }),
  z.object({ mask_color: z.string(), action: z.enum(['remove', 'add', 'replace']) }),
]);

/** The generation's `input` (settings without images), as admission writes it for every type. */
export const storedInputSchema = z.object({
  quality: z.enum(QUALITIES).nullable(),
  scale: z.enum(SCALES).nullable(),
  style: z.string().nullable().optional(),
  categories: z.array(z.enum(ACCESSORY_CATEGORIES)).nullable().optional(),
  mode: z.enum(['prompt', 'mask']).optional(),
  prompt: z.string().optional(),
  layers: z.array(storedLayerSchema).optional(),
});

export type StoredOutput = z.infer<typeof storedOutputSchema>;
export type StoredInput = z.infer<typeof storedInputSchema>;
export type StoredLayer = z.infer<typeof storedLayerSchema>;
export type StoredInputImage = z.infer<typeof storedInputImageSchema>;

const outputsSchema = z.array(storedOutputSchema);
const inputImagesSchema = z.array(storedInputImageSchema);

/** `outputs` column (null before the generation ends). */
export function storedOutputs(value: unknown): StoredOutput[] {
  return value == null ? [] : outputsSchema.parse(value);
}

/** `input` column. */
export function storedInput(value: unknown): StoredInput {
  return storedInputSchema.parse(value);
}

/** Every type but upscale has a quality (admission defaults it). */
export function qualityOf(input: StoredInput): NonNullable<StoredInput['quality']> {
  if (!input.quality) throw new Error('the stored input has no quality');
  return input.quality;
}

/** `inputImages` column (null once the images are deleted). */
export function storedInputImages(value: unknown): StoredInputImage[] {
  return value == null ? [] : inputImagesSchema.parse(value);
}
