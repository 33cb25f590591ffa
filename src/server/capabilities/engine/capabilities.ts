import type { GenerationType } from '@/generated/prisma/enums';
import type { EditInput } from '@/shared/creations/schemas';
import { backendOperationOf, configuredBackend } from './backends/selection';

/**
 * What the configured engine can really do, per operation. `real`: it performs the operation
 * (the built-in CPU engine, or a generative backend configured with ENGINE_<OPERATION>).
 * `preview`: only a deterministic preview of the right size: test mode answers with it, live
 * mode refuses with 503 mode_unavailable before any charge.
 */
export type Support = 'real' | 'preview';

export function engineSupport(type: GenerationType, input: unknown): Support {
  const operation = backendOperationOf(type, input);
  if (operation && configuredBackend(operation)) return 'real';
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
