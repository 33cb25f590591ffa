// @node-lines same: our zod messages for missing fields
import { describe, expect, it } from 'vitest';
import { editInput, upscaleInput } from '@/shared/creations/schemas';
import { apiErrorFromZodIssues } from '@/server/doors/errors';

function refusal(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } }, input: unknown) {
  const parsed = schema.safeParse(input);
  expect(parsed.success).toBe(false);
  const error = apiErrorFromZodIssues(parsed.error!.issues as never);
  return { status: error.status, ...error.toBody().error };
}

describe('a missing required field', () => {
  it('is parameter_invalid naming it, "<field> is required." (strings, enums, nested fields)', () => {
    expect(refusal(upscaleInput, { scale: 'x2' })).toEqual({ status: 400, code: 'parameter_invalid', param: 'image', message: 'image is required.' });
    expect(refusal(editInput, { image: 'https://a.example/i.jpg', mode: 'prompt', prompt: 'x' })).toEqual({ status: 400, code: 'parameter_invalid', param: 'quality', message: 'quality is required.' });
    expect(refusal(editInput, { image: 'https://a.example/i.jpg', quality: '1k' })).toMatchObject({ param: 'mode', message: 'mode is required.' });
    expect(refusal(editInput, { image: 'https://a.example/i.jpg', mode: 'mask', quality: '1k', mask: 'https://a.example/m.png', layers: [{ action: 'remove' }] })).toMatchObject({
      param: 'layers[0].mask_color',
      message: 'layers[0].mask_color is required.',
    });
  });

  it('a present value of the wrong kind keeps its own message', () => {
    expect(refusal(upscaleInput, { image: 3 })).toMatchObject({ param: 'image', message: "Invalid type for 'image': expected string." });
    expect(refusal(editInput, { image: 'https://a.example/i.jpg', mode: 'prompt', prompt: 'x', quality: '3k' })).toMatchObject({ param: 'quality', message: expect.stringContaining('expected one of 1k, 2k, 4k, 8k') });
  });
});
