import { db } from '@/server/platform/db';
import type { BackendOperation } from './settings';

/**
 * Prompts for generative backends, built from the request and the spec's behaviour rules, the
 * same for every backend (so changing backend never changes what is asked).
 */
export const BEHAVIOUR_RULES =
  'Keep the architecture (walls, ceiling, floor, openings, beams, stairs) unless the instruction explicitly targets it. ' +
  'Keep the framing, the camera viewpoint and the light; never crop, rotate, mirror or extend the image. ' +
  'Do not add any text, letters, numbers, logos, brands, signatures or watermarks, and keep existing text as it is.';

export const NEGATIVE_PROMPT = 'text, letters, numbers, logo, brand, signature, watermark, cropped, rotated, mirrored, extended borders, distorted architecture, low quality';

export interface PromptInput {
  style?: string | null | undefined;
  categories?: string[] | null | undefined;
  prompt?: string | undefined;
  hasMask?: boolean;
}

async function describeStyle(id: string | null | undefined): Promise<string | null> {
  if (!id) return null;
  const style = await db().style.findUnique({ where: { id } });
  return style ? `${style.name} style (${style.description.replace(/\.$/, '')})` : null;
}

export async function buildPrompt(operation: BackendOperation, input: PromptInput): Promise<string> {
  switch (operation) {
    case 'render': {
      const style = await describeStyle(input.style);
      return (
        'Photorealistic render of this interior draft: the same room as a real photograph, with realistic materials, textures, lighting and shadows' +
        (style ? `, furnished in the ${style}` : '') +
        `. ${BEHAVIOUR_RULES}`
      );
    }
    case 'decoration': {
      const style = await describeStyle(input.style);
      const what = input.categories?.length ? input.categories.map((c) => c.replace(/_/g, ' ')).join(', ') : 'accessories that suit the style';
      return `Decorate this furnished room in the ${style ?? 'requested style'} by adding ${what}. Keep the existing furniture where it is. ${BEHAVIOUR_RULES}`;
    }
    case 'edit_prompt':
      return (
        `${input.prompt ?? ''}\n\n` +
        (input.hasMask ? 'Change only the masked area (its shadows and reflections included); leave everything else exactly as it is. ' : '') +
        'If part of the instruction cannot be done, do the feasible part only. ' +
        BEHAVIOUR_RULES
      );
    case 'upscale':
      return 'Upscale this image without changing its content.';
  }
}
