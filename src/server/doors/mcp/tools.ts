import { z } from 'zod';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import { generationOutcome } from './resource-links';
import { waitForGenerationEnd } from '@/server/capabilities/generations/notify';
import { validateIdempotencyKey } from '@/server/capabilities/creations/create';
import { decorationInput, editInput, renderInput, upscaleInput } from '@/shared/creations/schemas';
import { MASK_PALETTE } from '@/server/capabilities/images/mask';
import { IMAGE_RETENTION_MS, type ApiGeneration } from '@/server/capabilities/generation-object/serialize';
import { createCallerFactory } from '@/server/doors/trpc/init';
import { categoryListSchema, editMaterialsInput, generationIdInput, materialListSchema, noInput, styleListSchema, v1Router } from '@/server/doors/trpc/v1-router';
import { apiGenerationSchema } from '@/server/capabilities/generations/schemas';
import { createUploadArguments, createUploadTool, uploadOutput } from './upload-tool';
import type { ToolDefinition } from './tool';
import type { GenerationType } from '@/server/capabilities/billing/pricing';

/**
 * The nine MCP tools. Each calls the same tRPC procedure as its /v1 route through a
 * server-side caller, so validation, prices, quota, idempotency, moderation and test mode are
 * /v1's own. What is MCP-only lives here: no `background` (tools always wait),
 * `idempotency_key` as an argument, `wait_seconds` on get_generation, and the JSON Schemas
 * (generated from the procedures' zod schemas, with descriptions for a model).
 */
const createV1Caller = createCallerFactory(v1Router);
type V1Caller = ReturnType<typeof createV1Caller>;

export type { ToolDefinition, ToolOutcome } from './tool';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; oneOf?: JsonSchema[] };

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** What a tool returns: the /v1 object's schema, open to fields added later (clients ignore unknown fields). */
function outputSchemaOf(schema: z.ZodType): JsonSchema {
  let json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  // A schema with an id comes out as a $ref to its definition: MCP wants the object at the top.
  const ref = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (ref && defs?.[ref]) {
    const { [ref]: top, ...rest } = defs;
    json = { ...top, ...(Object.keys(rest).length > 0 ? { $defs: rest } : {}) };
  }
  const open = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(open);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.additionalProperties === false) delete record.additionalProperties;
      Object.values(record).forEach(open);
    }
  };
  open(json);
  return json;
}

const GENERATION_OUTPUT = outputSchemaOf(apiGenerationSchema);

/** Reads change nothing; a creation is not idempotent (without idempotency_key each call is a new, charged generation) and fetches URLs. */
const READ: ToolDefinition['annotations'] = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const CREATION: ToolDefinition['annotations'] = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** Add descriptions (by property name, at every depth) and drop properties MCP does not have. */
function describe(schema: JsonSchema, descriptions: Record<string, string>, drop: string[] = []): JsonSchema {
  const walk = (node: JsonSchema): void => {
    if (node.properties) {
      for (const name of drop) {
        delete node.properties[name];
        if (node.required) node.required = node.required.filter((r) => r !== name);
      }
      for (const [name, child] of Object.entries(node.properties)) {
        if (descriptions[name] !== undefined) child.description = descriptions[name];
        walk(child);
      }
    }
    if (node.items) walk(node.items);
    node.oneOf?.forEach(walk);
  };
  walk(schema);
  return schema;
}

const IMAGE_NOTE =
  'An https URL (port 443, public host, at most 2048 characters; JPEG, PNG or WebP, at most 10 MB, 8192 px a side, 36 Mpx), a previous output[0].url, or the id (file_…) of a file uploaded with create_upload. Never base64.';
const FIELD_DESCRIPTIONS: Record<string, string> = {
  image: `The image to transform. ${IMAGE_NOTE}`,
  quality: 'Output resolution: long side 1k = 1024, 2k = 2048, 4k = 4096, 8k = 8192 pixels (price grows with it).',
  scale: 'Upscale factor: x2 or x4 (at most 16384 px a side and 64 Mpx out).',
  style: 'Decoration style id from list_styles.',
  categories: 'Accessory categories to add (default: all that suit the style).',
  mode: 'prompt: edit by written instruction (prompt). mask: edit the areas painted in mask, one layer per painted colour.',
  prompt: 'prompt mode only (required there): the instruction, 1 to 1000 characters, any language. Architecture changes only if explicitly asked; framing and light are kept; no text is added.',
  mask: `A PNG at the image's proportions (long side at least 512 px), painted in palette colours ${MASK_PALETTE.join(', ')} on transparency. Required in mask mode; optional in prompt mode (then exactly one colour, and only that area changes). ${IMAGE_NOTE}`,
  layers: 'mask mode only (required there): 1 to 3 layers, one per painted colour, each with only the fields of its action.',
  mask_color: `The painted colour this layer applies to: one of ${MASK_PALETTE.join(', ')}; two layers cannot share one.`,
  action: 'modify (material or color), remove (the designated object), add (element into the area), replace (the object by element).',
  material: 'modify only, instead of color: an edit material id (mat_…) from list_edit_materials.',
  color: 'modify only, instead of material: #RRGGBB.',
  finish: 'With color only: default (keeps the surface finish), solid_glossy, solid_matte, wood, stone, metal, fabric, concrete.',
  element: `add and replace only (required there): the object to place. ${IMAGE_NOTE}`,
  metadata: 'Up to 16 string pairs (keys 1–40 characters, values at most 500) returned unchanged with the generation. No sensitive data.',
  idempotency_key: 'Optional, 1 to 255 printable ASCII characters: resending the same request with the same key returns the same generation with no second charge. A key already used elsewhere (the REST API /v1, or the console playground) is refused (409 idempotency_key_reused).',
  id: 'The generation id (gen_…) a creation tool returned.',
  wait_seconds: 'Seconds to wait for the end while in progress: 0 to 50, default 50 (0 answers at once).',
  limit: 'Page size, 1 to 100 (default 20).',
  after: 'For the next page while has_more is true: the id of the last object received.',
  search: 'Filter by category or by name.',
};

const idempotencyKeyArg = { type: 'string', minLength: 1, maxLength: 255 };

/** A creation tool: the route's body without `background`, plus `idempotency_key`. */
function creationTool(
  name: string,
  priceType: GenerationType,
  title: string,
  description: string,
  schema: z.ZodType,
  call: (c: V1Caller, input: never) => Promise<ApiGeneration>,
): ToolDefinition {
  const inputSchema = describe(jsonSchemaOf(schema), FIELD_DESCRIPTIONS, ['background']);
  inputSchema.properties = { ...inputSchema.properties, idempotency_key: { ...idempotencyKeyArg, description: FIELD_DESCRIPTIONS.idempotency_key } };
  return {
    taskSupport: 'optional',
    name,
    title,
    priceType,
    description: `${description} Waits for the end up to 50 seconds (image downloads included), then returns the generation as JSON and the next step; if still in progress, call get_generation. Prices, quotas and test mode are those of the REST API.`,
    inputSchema,
    outputSchema: GENERATION_OUTPUT,
    annotations: CREATION,
    async run(args, ctx) {
      const { idempotency_key: idempotencyKey, ...input } = args;
      // `background` is a /v1 parameter: here it is an unknown argument like any other.
      if ('background' in input) throw invalidParam('background', "Unknown parameter 'background': MCP tools always wait (up to 50 s), then get_generation waits.");
      if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string') throw invalidParam('idempotency_key', 'idempotency_key must be a string of 1 to 255 characters.');
      ctx.idempotencyKey = validateIdempotencyKey(idempotencyKey ?? null, 'idempotency_key');
      const generation = await call(createV1Caller(ctx), input as never);
      return ctx.caller ? generationOutcome(ctx.caller, generation) : { body: generation, generation };
    },
  };
}

/** List tools take JSON numbers where /v1 reads query strings: the only translation. */
function asQuery(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
}

const getGenerationTool: ToolDefinition = {
  name: 'get_generation',
  title: 'Get a generation',
  description:
    'Retrieves a generation (GET /v1/generations/{id}), waiting for its end up to wait_seconds. Call it again at once while status is in_progress; after 5 minutes stop and give the user the id. Readable for 24 hours after its end. Output URLs are valid 15 minutes from this call.',
  inputSchema: (() => {
    const schema = describe(jsonSchemaOf(generationIdInput), FIELD_DESCRIPTIONS);
    schema.properties = { ...schema.properties, wait_seconds: { type: 'integer', minimum: 0, maximum: 50, default: 50, description: FIELD_DESCRIPTIONS.wait_seconds } };
    return schema;
  })(),
  outputSchema: GENERATION_OUTPUT,
  annotations: READ,
  async run(args, ctx) {
    const { wait_seconds: waitArg, ...input } = args;
    const parsed = z.number().int().min(0).max(50).optional().safeParse(waitArg);
    if (!parsed.success) throw invalidParam('wait_seconds', 'wait_seconds must be an integer from 0 to 50.');
    const waitMs = (parsed.data ?? 50) * 1000;
    const v1 = createV1Caller(ctx);
    // The procedure checks permission, id and scope first: nobody waits on a foreign id.
    let generation = await v1.generations.get(input as never);
    if (generation.status === 'in_progress' && waitMs > 0) {
      await waitForGenerationEnd(generation.id, waitMs - (Date.now() - ctx.receivedAt));
      generation = await v1.generations.get(input as never);
    }
    if (generation.completed_at !== null && clock.nowMs() - generation.completed_at * 1000 > IMAGE_RETENTION_MS) {
      throw new DomainError('resource_not_found', `No such generation: '${generation.id}' (get_generation reads a generation for 24 hours after its end; the REST API still lists it).`, { param: 'id' });
    }
    return ctx.caller ? generationOutcome(ctx.caller, generation) : { body: generation, generation };
  },
};

export const TOOLS: readonly ToolDefinition[] = [
  creationTool('create_render', 'render', 'Render a draft', 'Photorealistic render of a draft interior image (POST /v1/renders). Permission: renders.', renderInput, (c, i) => c.creations.render(i)),
  creationTool(
    'create_edit',
    'edit',
    'Edit an image',
    'Edits an interior image (POST /v1/edits) by written instruction (mode prompt) or by colour mask (mode mask, one layer per painted colour). Permission: edits.',
    editInput,
    (c, i) => c.creations.edit(i),
  ),
  creationTool('create_decoration', 'decoration', 'Decorate a room', 'Decorates a furnished room with accessories in a style from list_styles (POST /v1/decorations). Permission: decorations.', decorationInput, (c, i) => c.creations.decoration(i)),
  creationTool('create_upscale', 'upscale', 'Upscale an image', 'Upscales x2 or x4 without changing the content (POST /v1/upscales). Permission: upscales.', upscaleInput, (c, i) => c.creations.upscale(i)),
  {
    name: 'create_upload',
    title: 'Prepare an upload',
    description:
      'Prepares the upload of a local image (JPEG, PNG or WebP, at most max_bytes = 10 MB): PUT the raw bytes to upload_url before upload_url_expires_at, then pass id (file_…) as image, mask or layers[].element to one creation tool call with a key of the same mode. Each file serves one generation; unused files are deleted 1 hour after creation. Free (live mode needs a positive balance). Permission: any creation permission.',
    inputSchema: describe(jsonSchemaOf(createUploadArguments), {}),
    outputSchema: outputSchemaOf(uploadOutput),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: createUploadTool,
  },
  getGenerationTool,
  {
    name: 'list_styles',
    title: 'List decoration styles',
    description: 'All decoration styles (GET /v1/styles), for create_decoration and create_render. Permission: decorations.',
    inputSchema: jsonSchemaOf(noInput),
    outputSchema: outputSchemaOf(styleListSchema),
    annotations: READ,
    run: async (args, ctx) => ({ body: await createV1Caller(ctx).reference.styles(args as never) }),
  },
  {
    name: 'list_edit_material_categories',
    title: 'List edit material categories',
    description: 'All edit material categories (GET /v1/edit-material-categories). Permission: edits.',
    inputSchema: jsonSchemaOf(noInput),
    outputSchema: outputSchemaOf(categoryListSchema),
    annotations: READ,
    run: async (args, ctx) => ({ body: await createV1Caller(ctx).reference.editMaterialCategories(args as never) }),
  },
  {
    name: 'list_edit_materials',
    title: 'List edit materials',
    description: 'Edit materials for create_edit layers (modify + material), paginated (GET /v1/edit-materials). Permission: edits.',
    inputSchema: (() => {
      const schema = describe(jsonSchemaOf(editMaterialsInput), { ...FIELD_DESCRIPTIONS, category: 'Category id from list_edit_material_categories.' });
      if (schema.properties) schema.properties.limit = { type: 'integer', minimum: 1, maximum: 100, default: 20, description: FIELD_DESCRIPTIONS.limit };
      return schema;
    })(),
    outputSchema: outputSchemaOf(materialListSchema),
    annotations: READ,
    run: async (args, ctx) => ({ body: await createV1Caller(ctx).reference.editMaterials(asQuery(args) as never) }),
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));
