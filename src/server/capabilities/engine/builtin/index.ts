/**
 * Built-in CPU engine: pure functions on raw pixels (plus one worker thread for the neural
 * upscaler). See each module for what it does and what it honestly cannot do.
 */
export type { RawImage, Mask, Finish } from './types';
export { FINISHES, toRGB, cloneImage } from './types';

export { upscaleLanczos3, upscaleNeural, upscaleNeuralWithStats, upscaleAuto, chooseUpscaler, estimateNeuralMs, estimateLanczosMs, closeNeuralWorker, NEURAL_BUDGET_MS } from './upscale';
export type { UpscaleScale, UpscalerChoice, NeuralOptions, NeuralStats } from './upscale';
export { resampleLanczos3, downscaleArea } from './resample';

export { recolorArea, featherRadiusFor } from './recolor';
export { applyMaterial } from './material';
export type { MaterialOptions } from './material';
export { removeArea, removeAreaWithInfo } from './remove';
export type { RemoveOptions, RemoveInfo } from './remove';
export { addElement, replaceElement, cutoutElement } from './add';
export type { AddOptions, ElementCutout } from './add';
export { deterministicPreview } from './preview';
export type { PreviewTarget } from './preview';
export { encodeOutput, outputSizeForQuality, outputSizeForScale, webpEffortFor, WEBP_MAX_SIDE } from './encode';
export type { EncodedOutput, OutputQuality } from './encode';
export { layerAlpha, dilate, erode, feather, featherInside, maskBBox, maskCount, threshold } from './masks';
export type { BBox } from './masks';
export { parseHex, srgbBytesToLab, deltaE2000, deltaE76, meanLabInMask } from './color';
export { runOffThread, closeEngineWorkers, warmEngineWorkers } from './offthread';
export type { OpRequest } from './offthread';
export { psnr, ssim } from './metrics';
