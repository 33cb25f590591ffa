import { z } from 'zod';

/**
 * The JSON columns of a generation, parsed on read (never cast): a row written by an older
 * version or by hand that does not match fails loudly here instead of deep in a caller.
 */
export const storedOutputSchema = z.object({ key: z.string(), contentType: z.string(), width: z.int(), height: z.int() });
export const storedInputImageSchema = z.object({ param: z.string(), key: z.string(), digest: z.string(), width: z.int().nullable(), height: z.int().nullable() });

export type StoredOutput = z.infer<typeof storedOutputSchema>;
export type StoredInputImage = z.infer<typeof storedInputImageSchema>;

const outputsSchema = z.array(storedOutputSchema);
const inputImagesSchema = z.array(storedInputImageSchema);

/** `outputs` column (null before the generation ends). */
export function storedOutputs(value: unknown): StoredOutput[] {
  return value == null ? [] : outputsSchema.parse(value);
}

/** `inputImages` column (null once the images are deleted). */
export function storedInputImages(value: unknown): StoredInputImage[] {
  return value == null ? [] : inputImagesSchema.parse(value);
}
