import { z } from 'zod';
import { ACCESSORY_CATEGORIES, decorationInput, editInput, FINISHES, QUALITIES, renderInput, SCALES, upscaleInput } from '@/shared/creations/schemas';
import { CREATION_KINDS, type CreationKind } from '@/shared/playground/playground-inputs';
import { paramFromPath } from '@/shared/param-path';
import type { FieldErrors } from './field-error';
import type { FileRef } from '@/shared/playground/copy-as-code';
import type { LayerDraft } from './layers-editor';
import type { MaskColor } from './mask-raster';

/**
 * The playground form (react-hook-form + zod, zod-only: bundled in the browser) and how it
 * becomes the /v1 body. The body is checked in the browser by the route's own schema
 * (creations/schemas.ts) before anything is uploaded, so both sides refuse alike and name the
 * same `param`.
 */
export const playgroundForm = z.object({
  kind: z.enum(CREATION_KINDS),
  quality: z.enum(QUALITIES),
  scale: z.enum(SCALES),
  /** '' = none */
  style: z.string().max(64),
  categories: z.array(z.enum(ACCESSORY_CATEGORIES)),
  mode: z.enum(['prompt', 'mask']),
  prompt: z.string(),
  background: z.boolean(),
  metadata: z.array(z.object({ key: z.string(), value: z.string() })).max(16, 'metadata has at most 16 pairs'),
});
export type PlaygroundForm = z.infer<typeof playgroundForm>;

export const DEFAULT_FORM: PlaygroundForm = { kind: 'render', quality: '2k', scale: 'x2', style: '', categories: [], mode: 'prompt', prompt: '', background: false, metadata: [] };

/** The input image: a local file (uploaded as create_upload does), an https URL, or a previous output. */
export type ImageSource = { type: 'file'; file: File } | { type: 'url'; url: string } | { type: 'output'; url: string; generationId: string };

/** What a request holds beyond the form: images, the painted mask, layers. */
export interface RequestParts {
  image: ImageSource | null;
  /** mask mode (and prompt mode with a painted mask): the painter's PNG, uploaded as mask.png */
  withMask: boolean;
  layers: LayerDraft[];
}

export const MASK_FILE_NAME = 'mask.png';

function imageValue(source: ImageSource | null): string | FileRef | undefined {
  if (!source) return undefined;
  if (source.type === 'file') return { file: source.file.name };
  return source.url;
}

function layerBody(layer: LayerDraft): Record<string, unknown> {
  const base = { mask_color: layer.mask_color, action: layer.action };
  switch (layer.action) {
    case 'remove':
      return base;
    case 'modify':
      if (layer.by === 'material') return { ...base, ...(layer.material ? { material: layer.material } : {}) };
      return { ...base, color: layer.color, ...(layer.finish !== 'default' ? { finish: layer.finish } : {}) };
    case 'add':
    case 'replace':
      return { ...base, ...(layer.elementFile ? { element: { file: layer.elementFile.name } } : layer.elementUrl ? { element: layer.elementUrl } : {}) };
  }
}

/** The /v1 body of the form as filled; files appear as FileRef (copy as code names them). */
export function requestBody(form: PlaygroundForm, parts: RequestParts): Record<string, unknown> {
  const body: Record<string, unknown> = { image: imageValue(parts.image) };
  if (form.kind === 'upscale') body.scale = form.scale;
  else body.quality = form.quality;
  if ((form.kind === 'render' || form.kind === 'decoration') && form.style) body.style = form.style;
  if (form.kind === 'decoration' && form.categories.length > 0) body.categories = form.categories;
  if (form.kind === 'edit') {
    body.mode = form.mode;
    if (form.mode === 'prompt') body.prompt = form.prompt;
    if (parts.withMask) body.mask = { file: MASK_FILE_NAME } satisfies FileRef;
    if (form.mode === 'mask') body.layers = parts.layers.map(layerBody);
  }
  const metadata = form.metadata.filter((m) => m.key !== '' || m.value !== '');
  if (metadata.length > 0) body.metadata = Object.fromEntries(metadata.map((m) => [m.key, m.value]));
  if (form.background) body.background = true;
  return body;
}

const SCHEMAS = { render: renderInput, edit: editInput, decoration: decorationInput, upscale: upscaleInput } as const;

/** The route's own schema on the body (files stand in as a URL): the refusals the server would give, by param. */
export function checkBody(kind: CreationKind, body: Record<string, unknown>): FieldErrors {
  const withUrls = JSON.parse(JSON.stringify(body, (_k, v: unknown) => (v && typeof v === 'object' && 'file' in v ? 'https://file.invalid/' : v))) as unknown;
  const parsed = SCHEMAS[kind].safeParse(withUrls);
  if (parsed.success) return {};
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.code === 'unrecognized_keys' && issue.keys[0] ? [...issue.path, issue.keys[0]] : issue.path;
    const param = paramFromPath(path) || 'request';
    errors[param] ??= { code: 'parameter_invalid', message: issue.message };
  }
  return errors;
}

/** A generation's `input` and metadata back into the form and layers (replay from the log). */
export function formFromGeneration(generation: { type: CreationKind; input: Record<string, unknown>; metadata: Record<string, string> }): { form: PlaygroundForm; layers: LayerDraft[] } {
  const input = generation.input;
  const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
  const form: PlaygroundForm = {
    ...DEFAULT_FORM,
    kind: generation.type,
    quality: str(input.quality, DEFAULT_FORM.quality) as PlaygroundForm['quality'],
    scale: str(input.scale, DEFAULT_FORM.scale) as PlaygroundForm['scale'],
    style: str(input.style, ''),
    categories: Array.isArray(input.categories) ? (input.categories as PlaygroundForm['categories']) : [],
    mode: input.mode === 'mask' ? 'mask' : 'prompt',
    prompt: str(input.prompt, ''),
    metadata: Object.entries(generation.metadata).map(([key, value]) => ({ key, value })),
  };
  const layers = (Array.isArray(input.layers) ? (input.layers as Record<string, unknown>[]) : []).map(
    (l): LayerDraft => ({
      mask_color: str(l.mask_color, '#FF0000') as MaskColor,
      action: str(l.action, 'modify') as LayerDraft['action'],
      by: typeof l.material === 'string' ? 'material' : 'color',
      color: str(l.color, '#B0B7A4'),
      finish: str(l.finish, 'default') as (typeof FINISHES)[number],
      material: typeof l.material === 'string' ? l.material : null,
      // The generation keeps the id only; the editor shows the id alone then.
      materialName: null,
      elementFile: null,
      elementUrl: '',
    }),
  );
  return { form, layers };
}
