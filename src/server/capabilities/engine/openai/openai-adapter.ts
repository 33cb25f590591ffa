import OpenAI, { APIError, toFile } from 'openai';
import sharp from 'sharp';
import { config } from '@/server/platform/config';
import { safeRequest } from '@/server/capabilities/net/safe-http';
import type { BackendAdapter, BackendRequest } from '../backends/adapter';
import { BackendError, kindForStatus, looksLikeRefusal } from '../backends/errors';
import { retryAfterMs } from '@/server/capabilities/net/retry-after';

/**
 * OpenAI images (images.edit with an optional mask). GPT image models only make 1024×1024,
 * 1536×1024 or 1024×1536 images, DALL·E 2 only squares (256, 512, 1024), so the input is
 * letterboxed (never stretched) into the closest allowed size, and the answer is cropped back to
 * the same region: the framing is the input's. The
 * call is synchronous: aborting it at the deadline is the cancel; OpenAI keeps no job to delete.
 */
interface Canvas {
  width: number;
  height: number;
  name: string;
}

/** GPT image models: a square, a landscape and a portrait size. */
const GPT_IMAGE_SIZES: readonly Canvas[] = [
  { width: 1024, height: 1024, name: '1024x1024' },
  { width: 1536, height: 1024, name: '1536x1024' },
  { width: 1024, height: 1536, name: '1024x1536' },
];

/** DALL·E 2 edits only squares, of these sizes (and a square PNG under 4 MB). */
const DALL_E_2_SIZES: readonly Canvas[] = [
  { width: 256, height: 256, name: '256x256' },
  { width: 512, height: 512, name: '512x512' },
  { width: 1024, height: 1024, name: '1024x1024' },
];
const DALL_E_MAX_BYTES = 4 * 1024 * 1024;

/** Refusals come as 400 with code moderation_blocked (gpt-image) or content_policy_violation (dall-e). */
const REFUSAL_CODES = new Set(['moderation_blocked', 'content_policy_violation']);

function client(): OpenAI {
  const c = config();
  return new OpenAI({ apiKey: c.OPENAI_API_KEY, ...(c.OPENAI_BASE_URL ? { baseURL: c.OPENAI_BASE_URL } : {}), maxRetries: 0 });
}

export interface Letterbox {
  canvas: Canvas;
  /** Where the input sits in the canvas. */
  left: number;
  top: number;
  width: number;
  height: number;
}

function isDallE2(model: string): boolean {
  return model === 'dall-e-2' || model.startsWith('dall-e-2-');
}

/**
 * Where the input goes: for GPT image models the size of the closest aspect; for DALL·E 2 the
 * smallest allowed square that holds the input's long side (1024 at most): a 1k input is not
 * shrunk, and a small one is enlarged less than 2×.
 */
export function letterboxFor(size: { width: number; height: number }, model = 'gpt-image-1'): Letterbox {
  const aspect = size.width / size.height;
  const long = Math.max(size.width, size.height);
  const canvas = isDallE2(model)
    ? (DALL_E_2_SIZES.find((s) => s.width >= long) ?? DALL_E_2_SIZES[DALL_E_2_SIZES.length - 1]!)
    : GPT_IMAGE_SIZES.reduce((best, s) => (Math.abs(Math.log(s.width / s.height / aspect)) < Math.abs(Math.log(best.width / best.height / aspect)) ? s : best));
  const scale = Math.min(canvas.width / size.width, canvas.height / size.height);
  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);
  return { canvas, left: Math.floor((canvas.width - width) / 2), top: Math.floor((canvas.height - height) / 2), width, height };
}

/**
 * The input letterboxed into the canvas, in one pipeline. GPT image models take a JPEG (q95:
 * the answer is composited and re-encoded anyway), a third of the CPU of the PNG that DALL·E
 * models require (measured at 1536×1024: ~80 ms against ~240 ms with the PNG written twice).
 */
async function place(bytes: Buffer, box: Letterbox, as: 'jpeg' | 'png'): Promise<Buffer> {
  const framed = sharp(bytes)
    .resize(box.width, box.height, { fit: 'fill' })
    .extend({ left: box.left, top: box.top, right: box.canvas.width - box.width - box.left, bottom: box.canvas.height - box.height - box.top, background: '#7f7f7f' });
  if (as === 'jpeg') return framed.jpeg({ quality: 95 }).toBuffer();
  const png = await framed.png().toBuffer();
  // DALL·E refuses a PNG of 4 MB or more (a noisy 1024² photo can be): a 256-colour palette is far under.
  return png.length < DALL_E_MAX_BYTES ? png : sharp(png).png({ palette: true, colours: 256, dither: 0.5 }).toBuffer();
}

/**
 * OpenAI's mask: transparent where the image may change, opaque elsewhere (the letterbox
 * included). Without a mask of the request (null), the whole placed image may change: DALL·E 2
 * needs that mask (or an image with transparency) to edit at all.
 */
async function placeMask(mask: Buffer | null, box: Letterbox): Promise<Buffer> {
  const white = mask ? await sharp(mask).resize(box.width, box.height, { fit: 'fill', kernel: 'nearest' }).extractChannel(0).raw().toBuffer() : null;
  const rgba = Buffer.alloc(box.canvas.width * box.canvas.height * 4, 255);
  for (let y = 0; y < box.height; y++)
    for (let x = 0; x < box.width; x++) if (!white || white[y * box.width + x]! >= 128) rgba[((y + box.top) * box.canvas.width + x + box.left) * 4 + 3] = 0;
  return sharp(rgba, { raw: { width: box.canvas.width, height: box.canvas.height, channels: 4 } }).png().toBuffer();
}

/** GPT image models (gpt-image-1, -mini…) take JPEG inputs and answer JPEG; DALL·E models do neither. */
function isGptImage(model: string): boolean {
  return model.startsWith('gpt-image');
}

/**
 * GPT image models can answer JPEG instead of PNG: for a photograph, a fraction of the bytes to download
 * (base64 in the JSON) and a faster decode. The answer is cropped, composited and stored as
 * WebP anyway, so q95 costs nothing visible. DALL·E models refuse the parameter.
 */
export function answerFormat(model: string): { output_format: 'jpeg'; output_compression: number } | Record<string, never> {
  return isGptImage(model) ? { output_format: 'jpeg', output_compression: 95 } : {};
}

function fromApiError(error: unknown, signal: AbortSignal): BackendError {
  if (signal.aborted) return new BackendError('timeout', 'OpenAI did not answer in time; the request was aborted', { cause: error });
  if (error instanceof APIError && error.status !== undefined) {
    const refused = (error.code && REFUSAL_CODES.has(error.code)) || looksLikeRefusal(error.message);
    const retryAfter = error.headers instanceof Headers ? error.headers.get('retry-after') : null;
    return new BackendError(refused ? 'refused' : kindForStatus(error.status), `OpenAI images.edit: HTTP ${error.status} ${error.code ?? ''}`.trim(), { cause: error, retryAfterMs: retryAfterMs(retryAfter) });
  }
  return new BackendError('transient', `OpenAI images.edit: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

export const openaiAdapter: BackendAdapter = {
  async generate(req: BackendRequest) {
    if (req.spec.kind !== 'openai') throw new Error('not an OpenAI spec');
    const { signal } = req;
    const box = letterboxFor(req.size, req.spec.model);
    const as = isGptImage(req.spec.model) ? 'jpeg' : 'png';
    const mask = req.mask !== null || isDallE2(req.spec.model) ? await placeMask(req.mask, box) : null;
    const started = Date.now();
    let result: OpenAI.Images.ImagesResponse;
    try {
      result = await client().images.edit(
        {
          model: req.spec.model,
          image: await toFile(await place(req.image, box, as), `image.${as}`, { type: `image/${as}` }),
          ...(mask ? { mask: await toFile(mask, 'mask.png', { type: 'image/png' }) } : {}),
          prompt: req.prompt,
          size: box.canvas.name,
          n: 1,
          ...answerFormat(req.spec.model),
        },
        { signal },
      );
    } catch (error) {
      throw fromApiError(error, signal);
    }
    const first = result.data?.[0];
    let bytes: Buffer;
    if (first?.b64_json) bytes = Buffer.from(first.b64_json, 'base64');
    else if (first?.url) {
      const res = await safeRequest(first.url, { followRedirects: true, maxResponseBytes: 50 * 1024 * 1024, timeoutMs: 60_000, signal });
      if (res.status < 200 || res.status > 299) throw new BackendError(kindForStatus(res.status), `OpenAI image download answered HTTP ${res.status}`);
      bytes = res.body;
    } else throw new BackendError('failed', 'OpenAI answered without an image');
    // Crop the letterbox away, in the answer's own scale. Uncompressed PNG: an in-memory
    // hand-over to finishOutput (decoded there, stored as WebP), so zlib would be pure cost
    // (measured at 1344×1024: ~55 ms to write instead of ~170, and half the decode).
    const meta = await sharp(bytes).metadata();
    const sx = (meta.width ?? box.canvas.width) / box.canvas.width;
    const sy = (meta.height ?? box.canvas.height) / box.canvas.height;
    const cropped = await sharp(bytes)
      .extract({ left: Math.round(box.left * sx), top: Math.round(box.top * sy), width: Math.round(box.width * sx), height: Math.round(box.height * sy) })
      .png({ compressionLevel: 0 })
      .toBuffer();
    return { bytes: cropped, remoteId: null, backendMs: Date.now() - started, costMicroUsd: null };
  },
};
