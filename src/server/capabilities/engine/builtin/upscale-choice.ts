/**
 * Which upscaler runs by default (UPSCALE_METHOD=auto): pure functions, without the worker code
 * of upscale.ts, so the web process can classify a job's cost before queueing it.
 */
import { checkScale, type UpscaleScale } from './upscale-lanczos';

export type UpscalerChoice = {
  method: 'neural' | 'lanczos3';
  /** Estimated wall time of the upscaling step alone, ms. */
  estimatedMs: number;
  reason: string;
};

/**
 * Default choice, from measurements on this machine (2 cores shared with other sessions,
 * tfjs-wasm SIMD, one thread, balanced tiles ~170 px + 12 px margin; CPU time of the worker,
 * which is what a quiet machine's wall time would be):
 *   neural x2: ~58 input px/ms -> 512x512 4.5-5.8 s, 1024x768 13 s, 2048x1536 51-56 s
 *   neural x4: ~44 input px/ms -> 512x512 6 s, 1024x768 17 s, 2048x1536 ~75 s (estimated)
 *   lanczos3 : 2048x1536 x2 -> 4096x3072 0.9 s + WebP 0.3 s; x4 -> 8192x6144 2.6 s + 0.6 s
 * Quality (area-average /2 then x2, fixture scenes and the model package's photo):
 *   lanczos3 35.3 dB / SSIM 0.966, centred bicubic 35.1 dB, sharp resize 33.0 dB (displaced
 *   by half a pixel); esrgan-slim trails lanczos3 by 0.5-2 dB PSNR (photo 96 px: 25.5 vs
 *   27.8 dB) and has no more gradient energy. It does draw hard edges without Lanczos ringing
 *   (see gallery/engine/upscale.png), but it is not more faithful, and "upscale without
 *   changing the content" favours fidelity.
 * So the default (UPSCALE_METHOD=auto) is the most faithful method whose estimated time fits
 * the budget (the spec asks for unchanged content): methods are ranked by the
 * PSNR measured above, Lanczos3 first, and Lanczos3 always fits, so auto runs Lanczos3. The
 * neural path stays available on request (UPSCALE_METHOD=neural).
 */
export const NEURAL_BUDGET_MS = 20_000;
const NEURAL_INPUT_PX_PER_MS: Record<UpscaleScale, number> = { 2: 55, 4: 42 };
const NEURAL_FIXED_MS = 1500; // worker start + wasm init + model load
const LANCZOS_OUTPUT_PX_PER_MS = 12_000;

export function estimateNeuralMs(width: number, height: number, scale: UpscaleScale): number {
  return NEURAL_FIXED_MS + (width * height) / NEURAL_INPUT_PX_PER_MS[scale];
}

export function estimateLanczosMs(width: number, height: number, scale: UpscaleScale): number {
  return (width * height * scale * scale) / LANCZOS_OUTPUT_PX_PER_MS;
}

/** Upscalers, most faithful first (PSNR against the original, measurements above). */
export const UPSCALERS_BY_FIDELITY: readonly { method: UpscalerChoice['method']; psnrDb: number; estimateMs: typeof estimateNeuralMs }[] = [
  { method: 'lanczos3', psnrDb: 35.3, estimateMs: estimateLanczosMs },
  { method: 'neural', psnrDb: 34.0, estimateMs: estimateNeuralMs },
];

/**
 * Which upscaler runs by default for an input of width x height: the most faithful one whose
 * estimated time fits NEURAL_BUDGET_MS (Lanczos3 — it is both the most faithful and the
 * fastest); the fastest if none fits.
 */
export function chooseUpscaler(width: number, height: number, scale: UpscaleScale): UpscalerChoice {
  checkScale(scale);
  const estimates = UPSCALERS_BY_FIDELITY.map((u) => ({ ...u, ms: u.estimateMs(width, height, scale) }));
  const fitting = estimates.find((u) => u.ms <= NEURAL_BUDGET_MS);
  const chosen = fitting ?? estimates.reduce((a, b) => (b.ms < a.ms ? b : a));
  const reason = fitting
    ? `${chosen.method}: the most faithful (${chosen.psnrDb} dB) within the ${NEURAL_BUDGET_MS / 1000} s budget (estimated ${Math.round(chosen.ms / 1000)} s)`
    : `${chosen.method}: none fits the ${NEURAL_BUDGET_MS / 1000} s budget; the fastest`;
  return { method: chosen.method, estimatedMs: Math.round(chosen.ms), reason };
}
