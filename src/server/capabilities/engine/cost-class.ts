import { config } from '@/server/platform/config';
import type { GenerationType, Mode } from '@/generated/prisma/enums';
import type { StoredInput } from '@/server/capabilities/generation-object/stored-json';
import { chooseUpscaler } from './builtin/upscale-choice';
import { HEAVY_OPS } from './builtin/ops-protocol';
import { engineSupport } from './capabilities';
import { backendFor } from './backends/selection';

/**
 * What a generation costs the engine, decided before it is queued: `heavy` takes tens of
 * seconds of CPU (neural upscales, PatchMatch remove/replace), `light` takes well under a few
 * seconds (recolour, material, add, previews, Lanczos3 upscales), `remote` goes to a generative
 * backend (ENGINE_<OPERATION>): up to ENGINE_TIMEOUT_MS of waiting on the network and a fraction
 * of a second of CPU. The classes have their own queues and worker slots (generations/schedule.ts), so
 * light work never waits behind heavy work, and a slow hosted model holds neither.
 */
export type CostClass = 'light' | 'heavy' | 'remote';

export function costClassOf(type: GenerationType, input: StoredInput, mode: Mode, image: { width: number; height: number } | null): CostClass {
  if (backendFor(type, input, mode)) return 'remote';
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
