import { z } from 'zod';
import { MASK_PALETTE } from '@/shared/images/mask-palette';

/**
 * Request bodies of the four creation routes (JSON, or multipart turned into the same shape by
 * the /v1 wrapper). Strict: an unknown field is 400 parameter_invalid naming it. Booleans are
 * literal unions, not z.boolean(): the OpenAPI adapter turns on coercion for z.boolean, and
 * "false" must never become true.
 */
export const QUALITIES = ['1k', '2k', '4k', '8k'] as const;
export const SCALES = ['x2', 'x4'] as const;
export const FINISHES = ['default', 'solid_glossy', 'solid_matte', 'wood', 'stone', 'metal', 'fabric', 'concrete'] as const;
export const ACCESSORY_CATEGORIES = [
  'plants',
  'rugs',
  'cushions',
  'throws',
  'lighting',
  'wall_art',
  'mirrors',
  'books',
  'vases',
  'tableware',
  'curtains',
  'sculptures',
] as const;

const strictBoolean = z.union([z.literal(true), z.literal(false)], { error: 'must be true or false' });

/** An https URL, or (multipart) a file part of the same name. Checked in creations/images.ts. */
const imageField = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an https URL, a file sent as multipart/form-data, or an uploaded file id (file_…)') }).min(1);

/**
 * metadata: at most 16 string pairs, keys 1–40 and values ≤ 500 characters. Every refusal
 * names `metadata` (the spec's "metadata limits exceeded") with the offending key in the message.
 */
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .meta({ description: 'Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged.' })
  .superRefine((metadata, ctx) => {
  const entries = Object.entries(metadata);
  if (entries.length > 16) ctx.addIssue({ code: 'custom', message: `metadata has at most 16 pairs (got ${entries.length})` });
  for (const [key, value] of entries) {
    if (key.length < 1 || key.length > 40) ctx.addIssue({ code: 'custom', message: `metadata keys have 1 to 40 characters ('${key.slice(0, 50)}' has ${key.length})` });
    else if (typeof value !== 'string') ctx.addIssue({ code: 'custom', message: `metadata values must be strings (key '${key}')` });
    else if (value.length > 500) ctx.addIssue({ code: 'custom', message: `metadata values have at most 500 characters (key '${key}')` });
  }
}) as unknown as z.ZodType<Record<string, string>>;

/**
 * Fields the spec leaves "not shown" have defaults, so a request with only the fields the spec
 * shows succeeds: render and decoration `quality` 2k (the output's long side
 * 2048 px), decoration `style` optional (without it the room keeps its current style),
 * upscale `scale` x2. Edits keep `quality` required: the spec says so.
 */
export const DEFAULT_QUALITY = '2k' as const;
export const DEFAULT_SCALE = 'x2' as const;

const common = {
  metadata: metadataSchema.optional(),
  background: strictBoolean.optional(),
};

export const renderInput = z.strictObject({
  image: imageField,
  quality: z.enum(QUALITIES).default(DEFAULT_QUALITY),
  /** Optional decoration style id (GET /v1/styles) to steer the render's furnishing and mood. */
  style: z.string().min(1).max(64).optional(),
  ...common,
});

export const decorationInput = z.strictObject({
  image: imageField,
  quality: z.enum(QUALITIES).default(DEFAULT_QUALITY),
  /** Style id from GET /v1/styles; without it the room keeps its current style. */
  style: z.string().min(1).max(64).optional(),
  /** Accessory categories to add; default: all that suit the style. */
  categories: z.array(z.enum(ACCESSORY_CATEGORIES)).min(1).max(ACCESSORY_CATEGORIES.length).optional(),
  ...common,
});

export const upscaleInput = z.strictObject({
  image: imageField,
  scale: z.enum(SCALES).default(DEFAULT_SCALE),
  ...common,
});

const maskColor = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(MASK_PALETTE, { error: `must be one of ${MASK_PALETTE.join(', ')}` }));
const hexColor = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be #RRGGBB')
  .transform((v) => v.toUpperCase());

const modifyLayer = z.strictObject({
  mask_color: maskColor,
  action: z.literal('modify'),
  material: z.string().min(1).max(80).optional(),
  color: hexColor.optional(),
  finish: z.enum(FINISHES).optional(),
});
const removeLayer = z.strictObject({ mask_color: maskColor, action: z.literal('remove') });
const addLayer = z.strictObject({ mask_color: maskColor, action: z.literal('add'), element: imageField });
const replaceLayer = z.strictObject({ mask_color: maskColor, action: z.literal('replace'), element: imageField });

export const layerSchema = z.discriminatedUnion('action', [modifyLayer, removeLayer, addLayer, replaceLayer], {
  error: 'action must be one of modify, remove, add, replace',
});

export const editInput = z
  .strictObject({
    image: imageField,
    mode: z.enum(['prompt', 'mask']),
    quality: z.enum(QUALITIES),
    /** Checked by validatePrompt (code points, control and invisible characters). */
    prompt: z.string().optional(),
    mask: imageField.optional(),
    layers: z.array(layerSchema).min(1, 'layers holds 1 to 3 layers').max(3, 'layers holds 1 to 3 layers').optional(),
    ...common,
  })
  .superRefine((input, ctx) => {
    if (input.mode === 'prompt') {
      if (input.prompt === undefined) ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'prompt is required in prompt mode' });
      if (input.layers !== undefined) ctx.addIssue({ code: 'custom', path: ['layers'], message: 'layers is refused in prompt mode' });
      return;
    }
    if (input.prompt !== undefined) ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'prompt is refused in mask mode' });
    if (input.mask === undefined) ctx.addIssue({ code: 'custom', path: ['mask'], message: 'mask is required in mask mode' });
    if (input.layers === undefined) {
      ctx.addIssue({ code: 'custom', path: ['layers'], message: 'layers is required in mask mode' });
      return;
    }
    const seen = new Set<string>();
    input.layers.forEach((layer, i) => {
      if (seen.has(layer.mask_color)) ctx.addIssue({ code: 'custom', path: ['layers', i, 'mask_color'], message: 'two layers cannot share a mask color' });
      seen.add(layer.mask_color);
      if (layer.action !== 'modify') return;
      if (layer.material !== undefined && layer.color !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['layers', i, 'color'], message: 'color is incompatible with material' });
      } else if (layer.material === undefined && layer.color === undefined) {
        ctx.addIssue({ code: 'custom', path: ['layers', i, 'material'], message: 'modify needs a material or a color' });
      }
      if (layer.finish !== undefined && layer.color === undefined) {
        ctx.addIssue({ code: 'custom', path: ['layers', i, 'finish'], message: 'finish goes with color only' });
      }
    });
  });

export type RenderInput = z.infer<typeof renderInput>;
export type DecorationInput = z.infer<typeof decorationInput>;
export type UpscaleInput = z.infer<typeof upscaleInput>;
export type EditInput = z.infer<typeof editInput>;
export type EditLayer = z.infer<typeof layerSchema>;

/** Fields that arrive as JSON text in a multipart request. */
export const MULTIPART_JSON_FIELDS = new Set(['layers', 'metadata', 'categories']);
export const MULTIPART_BOOLEAN_FIELDS = new Set(['background']);
