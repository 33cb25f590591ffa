import type { GenerationType } from '@/generated/prisma/enums';
import type { EditInput } from '@/server/creations/schemas';

/**
 * What the configured engine can really do, per operation. `real`: it performs the operation.
 * `preview`: only a deterministic preview of the right size (no generative model here):
 * test mode answers with it, live mode refuses with 503 mode_unavailable before any charge.
 */
export type Support = 'real' | 'preview';

export function engineSupport(type: GenerationType, input: unknown): Support {
  switch (type) {
    case 'upscale':
      return 'real';
    case 'edit':
      // Mask-mode layers (modify by colour or material, remove, add, replace) run on the CPU;
      // instructions in prompt mode need a generative model.
      return (input as EditInput).mode === 'mask' ? 'real' : 'preview';
    case 'render':
    case 'decoration':
      return 'preview';
  }
}
