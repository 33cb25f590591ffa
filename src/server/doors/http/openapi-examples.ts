import type { ApiGeneration } from '@/server/capabilities/generation-object/serialize';
import type { ApiEditMaterial, ApiEditMaterialCategory, ApiStyle } from '@/server/capabilities/reference/reference';
import { toCurl, toPythonSdk, toSdk, type CodeRequest } from '@/shared/playground/copy-as-code';

/**
 * Examples of the OpenAPI document: request bodies, answers, and code samples (curl, the
 * TypeScript SDK, the Python client) per route, rendered by the API reference at /docs. Creation samples use the
 * playground's "copy as code" renderers, so both show the same calls. Typed against the
 * objects the API returns: a field added to the generation fails the type check here.
 */
const T0 = 1_764_000_000;

export const GENERATION_EXAMPLE = {
  object: 'generation',
  id: 'gen_3kTq9ZbX2mPw7LrV1sNc8YdA',
  type: 'render',
  status: 'succeeded',
  progress: 1,
  cancelable: false,
  livemode: false,
  created_at: T0,
  completed_at: T0 + 94,
  input: { quality: '2k', scale: null, style: 'scandinavian' },
  output: [
    {
      url: 'https://roomtone.example/files/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/0.webp?expires=1764001000&signature=Xk2…',
      url_expires_at: T0 + 94 + 900,
      content_type: 'image/webp',
      width: 2048,
      height: 1536,
    },
  ],
  error: null,
  cost: { amount: 30, currency: 'eur', unit: 'cents', discount_percent: 0, amount_refunded: 0 },
  metadata: { project: 'loft-12' },
  expires_at: T0 + 94 + 86_400,
} satisfies ApiGeneration;

const IN_PROGRESS_EXAMPLE = {
  ...GENERATION_EXAMPLE,
  status: 'in_progress',
  progress: 0.42,
  cancelable: true,
  completed_at: null,
  output: [],
  expires_at: T0 + 86_400,
} satisfies ApiGeneration;

const STYLE_EXAMPLE = { object: 'style', id: 'scandinavian', name: 'Scandinavian', description: 'Light woods, soft whites, wool and linen.' } satisfies ApiStyle;
const CATEGORY_EXAMPLE = {
  object: 'edit_material_category',
  id: 'flooring',
  name: 'Flooring',
  description: 'Wood, parquet, concrete, terracotta and natural-fibre floor finishes.',
} satisfies ApiEditMaterialCategory;
const MATERIAL_EXAMPLE = {
  object: 'edit_material',
  id: 'mat_oak_herringbone',
  name: 'Natural Oak Herringbone',
  description: 'Honey-toned European oak blocks laid in a classic herringbone at 45°.',
  category: 'flooring',
} satisfies ApiEditMaterial;

const list = (data: unknown[], hasMore = false) => ({ object: 'list', data, has_more: hasMore });

/** The 200 answer of each route, keyed by `METHOD /path`. */
export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  'POST /renders': GENERATION_EXAMPLE,
  'POST /edits': { ...GENERATION_EXAMPLE, type: 'edit', input: { quality: '2k', scale: null, mode: 'prompt', prompt: 'Replace the sofa with a green velvet one' } },
  'POST /decorations': { ...GENERATION_EXAMPLE, type: 'decoration', input: { quality: '2k', scale: null, style: 'scandinavian', categories: ['plants', 'lighting'] } },
  'POST /upscales': { ...GENERATION_EXAMPLE, type: 'upscale', input: { quality: null, scale: 'x2' }, output: [{ ...GENERATION_EXAMPLE.output[0]!, width: 4096, height: 3072 }] },
  'GET /generations/{id}': GENERATION_EXAMPLE,
  'GET /generations': list([GENERATION_EXAMPLE], true),
  'POST /generations/{id}/cancel': { ...IN_PROGRESS_EXAMPLE, status: 'canceled', cancelable: false, completed_at: T0 + 2, cost: { ...GENERATION_EXAMPLE.cost, amount_refunded: 30 } },
  'GET /styles': list([STYLE_EXAMPLE]),
  'GET /prices': list([
    { object: 'price', type: 'render', quality: '2k', scale: null, amount: 27, list_amount: 30, discount_percent: 10, currency: 'eur', unit: 'cents' },
    { object: 'price', type: 'upscale', quality: null, scale: 'x2', amount: 9, list_amount: 10, discount_percent: 10, currency: 'eur', unit: 'cents' },
  ]),
  'POST /events/trigger': { object: 'triggered_event', type: 'generation.succeeded', event_id: 'evt_9Qm2xR7tLpW4nZ8kB3vC6dYs', endpoints: 1, event_stream: true },
  'GET /balance': { object: 'balance', amount: 12_450, currency: 'eur', unit: 'cents', monthly_limit: 50_000, monthly_spend: 3_120 },
  'GET /edit-material-categories': list([CATEGORY_EXAMPLE]),
  'GET /edit-materials': list([MATERIAL_EXAMPLE], true),
};

/** The 202 answer of the creation routes. */
export const ACCEPTED_EXAMPLE = IN_PROGRESS_EXAMPLE;

const IMAGE = 'https://images.example.com/living-room.jpg';

/** Request bodies shown per creation route (the first is the one the code samples send). */
export const REQUEST_EXAMPLES: Record<string, Record<string, { summary: string; value: Record<string, unknown> }>> = {
  'POST /renders': {
    render: { summary: 'Render a draft', value: { image: 'https://images.example.com/draft.jpg', quality: '2k', style: 'scandinavian', metadata: { project: 'loft-12' } } },
    background: { summary: 'Answer at once (202), result by webhook or polling', value: { image: 'https://images.example.com/draft.jpg', quality: '4k', background: true } },
  },
  'POST /edits': {
    prompt: { summary: 'Prompt mode', value: { image: IMAGE, mode: 'prompt', quality: '2k', prompt: 'Replace the sofa with a green velvet one' } },
    mask: {
      summary: 'Mask mode: one layer per painted colour',
      value: {
        image: IMAGE,
        mode: 'mask',
        quality: '2k',
        mask: 'https://images.example.com/living-room-mask.png',
        layers: [
          { mask_color: '#FF0000', action: 'modify', material: 'mat_oak_herringbone' },
          { mask_color: '#0066FF', action: 'modify', color: '#6B8E7F', finish: 'solid_matte' },
          { mask_color: '#CCFF00', action: 'remove' },
        ],
      },
    },
  },
  'POST /decorations': {
    decoration: { summary: 'Decorate in a style', value: { image: IMAGE, quality: '2k', style: 'scandinavian', categories: ['plants', 'lighting'] } },
  },
  'POST /upscales': {
    upscale: { summary: 'Upscale x2', value: { image: IMAGE, scale: 'x2', metadata: { order: 'A-1042' } } },
  },
};

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

interface ReadCall {
  path: string;
  query?: Record<string, string>;
  method?: 'GET' | 'POST';
  /** A small JSON body (POST). */
  body?: Record<string, string>;
  sdk: string;
  /** The same call with the Python client (after its `client = Roomtone(…)`). */
  python: string;
}

/** SDK and Python client calls of the read routes (the creation routes' come from their request example). */
const READ_CALLS: Record<string, ReadCall> = {
  'GET /generations/{id}': {
    path: '/generations/gen_3kTq9ZbX2mPw7LrV1sNc8YdA',
    sdk: `const generation = await client.generations.retrieve('gen_3kTq9ZbX2mPw7LrV1sNc8YdA');\nconsole.log(generation.status);`,
    python: `generation = client.generations.retrieve("gen_3kTq9ZbX2mPw7LrV1sNc8YdA")\nprint(generation["status"])`,
  },
  'GET /generations': {
    path: '/generations',
    query: { status: 'succeeded', limit: '20' },
    sdk: `// Every page, fetched as the loop goes (after = the last id received).\nfor await (const generation of client.generations.list({ status: 'succeeded' })) {\n  console.log(generation.id, generation.output[0]?.url);\n}`,
    python: `# Every page, fetched as the loop goes (after = the last id received).\nfor generation in client.generations.list(status="succeeded"):\n    print(generation["id"], generation["output"][0]["url"] if generation["output"] else None)`,
  },
  'POST /generations/{id}/cancel': {
    path: '/generations/gen_3kTq9ZbX2mPw7LrV1sNc8YdA/cancel',
    method: 'POST',
    sdk: `const generation = await client.generations.cancel('gen_3kTq9ZbX2mPw7LrV1sNc8YdA');\nconsole.log(generation.status); // canceled`,
    python: `generation = client.generations.cancel("gen_3kTq9ZbX2mPw7LrV1sNc8YdA")\nprint(generation["status"])  # canceled`,
  },
  'GET /styles': {
    path: '/styles',
    sdk: `const styles = await client.styles.list();\nfor (const style of styles.data) console.log(style.id, style.name);`,
    python: `styles = client.styles.list()\nfor style in styles["data"]:\n    print(style["id"], style["name"])`,
  },
  'GET /edit-material-categories': {
    path: '/edit-material-categories',
    sdk: `const categories = await client.editMaterialCategories.list();\nconsole.log(categories.data.map((c) => c.id));`,
    python: `categories = client.edit_material_categories.list()\nprint([category["id"] for category in categories["data"]])`,
  },
  'GET /prices': {
    path: '/prices',
    sdk: `const prices = await client.prices.list();\nconst render2k = prices.data.find((p) => p.type === 'render' && p.quality === '2k');\nconsole.log(render2k?.amount); // cents, tier discount applied`,
    python: `prices = client.prices.list()\nrender_2k = next(p for p in prices["data"] if p["type"] == "render" and p.get("quality") == "2k")\nprint(render_2k["amount"])  # cents, tier discount applied`,
  },
  'POST /events/trigger': {
    path: '/events/trigger',
    method: 'POST',
    body: { type: 'generation.succeeded' },
    sdk: `// Or from a terminal: npx @roomtone/sdk trigger generation.succeeded\nconst triggered = await client.webhooks.trigger('generation.succeeded');\nconsole.log(triggered.event_id, triggered.endpoints);`,
    python: `triggered = client.webhooks.trigger("generation.succeeded")\nprint(triggered["event_id"], triggered["endpoints"])`,
  },
  'GET /balance': {
    path: '/balance',
    sdk: `const balance = await client.balance.retrieve();\nconsole.log(balance.amount, balance.monthly_limit - balance.monthly_spend); // cents`,
    python: `balance = client.balance.retrieve()\nprint(balance["amount"], balance["monthly_limit"] - balance["monthly_spend"])  # cents`,
  },
  'GET /edit-materials': {
    path: '/edit-materials',
    query: { category: 'flooring' },
    sdk: `for await (const material of client.editMaterials.list({ category: 'flooring' })) {\n  console.log(material.id, material.name);\n}`,
    python: `for material in client.edit_materials.list(category="flooring"):\n    print(material["id"], material["name"])`,
  },
  'GET /events/stream': {
    path: '/events/stream',
    query: { events: 'generation.succeeded,generation.failed' },
    sdk: `// Or from a terminal: npx @roomtone/sdk listen --forward-to http://localhost:4000/hooks\nfor await (const event of client.webhooks.listen({ events: ['generation.succeeded', 'generation.failed'] })) {\n  console.log(event.type, event.data.object.id);\n}`,
    python: `for event in client.webhooks.listen(events=["generation.succeeded", "generation.failed"]):\n    print(event["type"], event["data"]["object"]["id"])`,
  },
};

const SDK_HEADER = (baseUrl: string) => `import Roomtone from '@roomtone/sdk';\n\nconst client = new Roomtone({ baseUrl: ${JSON.stringify(baseUrl)} }); // key from ROOMTONE_API_KEY\n\n`;

const PYTHON_HEADER = (baseUrl: string) => `from roomtone import Roomtone\n\nclient = Roomtone(base_url=${JSON.stringify(baseUrl)})  # key from ROOMTONE_API_KEY\n\n`;

function readSamples(baseUrl: string, call: ReadCall): CodeSample[] {
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
  const url = `${baseUrl}/v1${call.path}`;
  const method = call.method ?? 'GET';
  const stream = call.path === '/events/stream';
  const curl = [
    `curl${method === 'POST' ? ' -X POST' : ''}${stream ? ' -N' : ''} '${url}${query}'`,
    `  -H "Authorization: Bearer $ROOMTONE_API_KEY"`,
    ...(call.body ? [`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(call.body)}'`] : []),
  ].join(' \\\n');
  return [
    { lang: 'shell', label: 'curl', source: curl },
    { lang: 'javascript', label: 'SDK (TypeScript)', source: `${SDK_HEADER(baseUrl)}${call.sdk}` },
    { lang: 'python', label: 'SDK (Python)', source: `${PYTHON_HEADER(baseUrl)}${call.python}` },
  ];
}

/**
 * Routes whose code samples send a local file (multipart) instead of the example's URL: the
 * other creation samples send URLs, so the reference shows both ways in.
 */
const LOCAL_FILE_SAMPLES: Record<string, Record<string, unknown>> = {
  'POST /upscales': { image: { file: 'living-room.jpg' }, scale: 'x2', metadata: { order: 'A-1042' } },
};

/** curl, the TypeScript SDK and the Python client for one route, or none when the route has no sample. */
export function codeSamples(baseUrl: string, method: string, path: string): CodeSample[] {
  const key = `${method.toUpperCase()} ${path}`;
  const read = READ_CALLS[key];
  if (read) return readSamples(baseUrl, read);
  const example = Object.values(REQUEST_EXAMPLES[key] ?? {})[0];
  if (!example) return [];
  const request: CodeRequest = { baseUrl, route: path.slice(1), body: LOCAL_FILE_SAMPLES[key] ?? example.value };
  return [
    { lang: 'shell', label: 'curl', source: toCurl(request) },
    { lang: 'javascript', label: 'SDK (TypeScript)', source: toSdk(request) },
    { lang: 'python', label: 'SDK (Python)', source: toPythonSdk(request) },
  ];
}
