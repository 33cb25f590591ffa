import sharp from 'sharp';
import { straighten } from '@/server/capabilities/images/intake';
import { analyzeMask, MASK_PALETTE } from '@/server/capabilities/images/mask';
import { renderSwatch } from '@/server/capabilities/engine/builtin/swatches';
import type { MaterialTexture } from '@/server/capabilities/reference/texture-schema';
import { config } from '@/server/platform/config';
import { encodeOutput, runOffThread, upscaleAuto, upscaleNeural, type RawImage } from './builtin';
import { layerAlpha } from './builtin/masks';
import { outputSizeForQuality, type OutputQuality } from './builtin/encode';
import { backendFor } from './backends/selection';
import { runBackend } from './backends/run-backend';
import { ignoreProgress, reportStage, type ProgressSink } from './progress';
import { qualityOf, type StoredInput, type StoredLayer } from '@/server/capabilities/generation-object/stored-json';
import type { GenerationType, Mode } from '@/generated/prisma/enums';
import type { CostClass } from './cost-class';

/**
 * The engine port: everything a worker needs to turn a generation's stored inputs into an
 * output image. Pixel work runs on worker threads (runOffThread, the neural upscaler's own
 * worker) so the process that also serves HTTP keeps answering. This is the built-in CPU engine (sharp + our own kernels); an
 * operation configured with ENGINE_<OPERATION> goes to a generative backend instead (./backends).
 */
export interface EngineJob {
  generationId: string;
  organizationId: string;
  type: GenerationType;
  mode: Mode;
  /** The generation's API `input` (settings), parsed from its column. */
  input: StoredInput;
  /** Input images by param (image, mask, layers[0].element). */
  images: Map<string, Buffer>;
  /** Deterministic seed for previews: same request → same bytes. */
  seed: string;
  /** The texture recipe of each material its layers name (the job reads them; the engine reads no database). */
  materials: ReadonlyMap<string, MaterialTexture>;
  /** What the run costs (generations/schedule.ts), fixed when the generation was queued. */
  costClass: CostClass;
  /** Where the engine says how far it is (stored, throttled, for the API's `progress`). */
  progress?: ProgressSink;
}

/** The engine port: a generation's inputs in, its output image out. */
export type Engine = (job: EngineJob) => Promise<EngineOutput>;

export interface EngineOutput {
  bytes: Buffer;
  contentType: 'image/webp' | 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  /** What ran, for logs and the gallery (e.g. upscale:lanczos3, edit:recolor). */
  method: string;
}

async function decode(bytes: Buffer): Promise<RawImage> {
  const s = await straighten(bytes);
  return { data: s.data, width: s.info.width, height: s.info.height, channels: s.info.channels };
}

async function resizeTo(img: RawImage, width: number, height: number): Promise<RawImage> {
  if (img.width === width && img.height === height) return img;
  const { data, info } = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), {
    raw: { width: img.width, height: img.height, channels: img.channels },
  })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}

function toRgbImage(img: RawImage): RawImage {
  if (img.channels === 3) return img;
  const out = Buffer.alloc(img.width * img.height * 3);
  for (let i = 0, j = 0; i < img.width * img.height; i++, j += 4) {
    out[i * 3] = img.data[j]!;
    out[i * 3 + 1] = img.data[j + 1]!;
    out[i * 3 + 2] = img.data[j + 2]!;
  }
  return { data: out, width: img.width, height: img.height, channels: 3 };
}

function swatchFor(job: EngineJob, materialId: string): RawImage {
  const texture = job.materials.get(materialId);
  if (!texture) throw new Error(`no texture for material ${materialId}`);
  const swatch = renderSwatch(texture, 512, 512, 1);
  return { data: swatch.data, width: swatch.width, height: swatch.height, channels: 3 };
}

async function runMaskEdit(quality: OutputQuality, layers: StoredLayer[], job: EngineJob, progress: ProgressSink): Promise<{ img: RawImage; method: string }> {
  const source = toRgbImage(await decode(job.images.get('image')!));
  const target = outputSizeForQuality(source.width, source.height, quality);
  let img = await resizeTo(source, target.width, target.height);
  // Admission checked the mask against the received image; at the output size the same rule
  // would refuse a small image's own-size mask (spec: allowed), so compare with the source.
  const mask = await analyzeMask(job.images.get('mask')!, { width: img.width, height: img.height }, 'mask', source);
  const methods: string[] = [];
  // Progress: layers done out of all (the pixel work is per layer).
  for (const [i, layer] of layers.entries()) {
    reportStage(progress, 'generating', i / layers.length);
    const alpha = layerAlpha(mask.labels, MASK_PALETTE.indexOf(layer.mask_color as (typeof MASK_PALETTE)[number]));
    switch (layer.action) {
      case 'modify':
        if (layer.color !== undefined) {
          img = await runOffThread({ op: 'recolor', img, alpha, hex: layer.color, finish: layer.finish ?? 'default' });
          methods.push('recolor');
        } else {
          img = await runOffThread({ op: 'material', img, alpha, swatch: swatchFor(job, layer.material!) });
          methods.push('material');
        }
        break;
      case 'remove':
        img = await runOffThread({ op: 'remove', img, alpha });
        methods.push('remove');
        break;
      case 'add':
      case 'replace': {
        const element = await decode(job.images.get(`layers[${i}].element`)!);
        img = await runOffThread({ op: layer.action, img, alpha, element });
        methods.push(layer.action);
        break;
      }
    }
  }
  return { img, method: `edit:${methods.join('+')}` };
}

export async function runEngine(job: EngineJob): Promise<EngineOutput> {
  const progress = job.progress ?? ignoreProgress;
  // A generative backend configured for this operation (and mode) does it; else the CPU engine.
  const backend = backendFor(job.type, job.input, job.mode);
  if (backend) return runBackend({ ...backend, generationId: job.generationId, input: job.input, images: job.images, seed: job.seed, progress });
  // The built-in engine's stages: decode, the pixel work (by layer or by tile), encode.
  reportStage(progress, 'preparing', 0);
  let result: { img: RawImage; method: string };
  if (job.type === 'upscale') {
    const source = toRgbImage(await decode(job.images.get('image')!));
    const scale = job.input.scale === 'x4' ? 4 : 2;
    const method = config().UPSCALE_METHOD;
    reportStage(progress, 'generating', 0);
    const onProgress = (done: number, total: number) => reportStage(progress, 'generating', done / total);
    if (method === 'lanczos3') result = { img: await runOffThread({ op: 'upscaleLanczos3', img: source, scale }), method: 'upscale:lanczos3' };
    else if (method === 'neural') result = { img: await upscaleNeural(source, scale, { onProgress }), method: 'upscale:neural' };
    else {
      const up = await upscaleAuto(source, scale, { onProgress });
      result = { img: up.img, method: `upscale:${up.method}` };
    }
  } else if (job.type === 'edit' && job.input.mode === 'mask') {
    result = await runMaskEdit(qualityOf(job.input), job.input.layers ?? [], job, progress);
  } else {
    // Test mode only (live mode refused these at admission): a deterministic preview of the
    // right size, without any text drawn on it.
    const source = toRgbImage(await decode(job.images.get('image')!));
    const target = outputSizeForQuality(source.width, source.height, qualityOf(job.input));
    reportStage(progress, 'generating', 0);
    result = { img: await runOffThread({ op: 'preview', img: source, target, seed: job.seed }), method: `${job.type}:preview` };
  }
  reportStage(progress, 'finishing', 0);
  const encoded = await encodeOutput(result.img);
  return { ...encoded, method: result.method };
}
