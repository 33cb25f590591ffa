import { config } from '@/server/platform/config';
import type { GenerationType } from '@/generated/prisma/enums';
import type { StoredInput } from '@/server/generations/stored-json';
import { chooseUpscaler } from './builtin/upscale-choice';
import { HEAVY_OPS } from './builtin/ops-protocol';
import { engineSupport } from './capabilities';

/**
 * What a generation costs the engine, decided before it is queued: `heavy` takes tens of
 * seconds of CPU (neural upscales, PatchMatch remove/replace; a hosted model would be heavy
 * too), `light` takes well under a few seconds (recolour, material, add, previews, Lanczos3
 * upscales). The two classes have their own queues and worker slots (jobs/queue.ts), so light
 * work never waits behind heavy work.
 */
export type CostClass = 'light' | 'heavy';

export function costClassOf(type: GenerationType, input: StoredInput, image: { width: number; height: number } | null): CostClass {
  if (type === 'upscale') {
    const method = config().UPSCALE_METHOD;
    if (method === 'lanczos3') return 'light';
    if (method === 'neural' || !image) return 'heavy';
    return chooseUpscaler(image.width, image.height, input.scale === 'x4' ? 4 : 2).method === 'neural' ? 'heavy' : 'light';
  }
  if (type === 'edit' && engineSupport(type, input) === 'real') {
    return (input.layers ?? []).some((layer) => HEAVY_OPS.has(layer.action)) ? 'heavy' : 'light';
  }
  // Everything else is a deterministic preview in test mode (live mode refuses it without a model).
  return 'light';
}
