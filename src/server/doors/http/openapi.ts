import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { v1Router } from '@/server/doors/trpc/v1-router';
import type { ProcedureMeta } from '@/server/doors/trpc/init';
import { BALANCE_EVENT_TYPES, GENERATION_EVENT_TYPES } from '@/shared/webhooks/event-types';
import { EVENT_STREAM_PATH } from '@/server/capabilities/webhooks/event-stream';
import { routeErrors } from './openapi-errors';
import { ACCEPTED_EXAMPLE, codeSamples, REQUEST_EXAMPLES, RESPONSE_EXAMPLES } from './openapi-examples';

/** Routes that answer 202 with the in-progress generation (background or heavy load). */
const CREATION_PATHS = ['/renders', '/edits', '/decorations', '/upscales'];

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable error code, e.g. parameter_invalid.' },
        message: { type: 'string', description: 'Human-readable explanation.' },
        param: { type: 'string', description: 'The refused parameter, when one is to blame (e.g. layers[0].element).' },
      },
    },
  },
} as const;

const DESCRIPTION = `Image transformations for interior images: renders, edits by instruction or colour mask, decorations and upscales.

**Authentication.** \`Authorization: Bearer rt_test_…\` (test mode: no charge) or \`rt_live_…\` (live mode). Each route names the key permission it needs. Keys belong on a server: browser (CORS) requests are refused.

**Errors** answer \`{"error":{"code","message","param"}}\` with a stable \`code\`; \`param\` names the refused field. Every answer carries a \`request-id\` header. Each route lists the codes it can answer; besides them, the HTTP edge answers any URL with \`405 method_not_allowed\` (an unsupported method, with \`Allow\`), \`415 content_type_unsupported\` (a \`multipart/form-data\` body where no route takes one) and \`417 expectation_unsupported\` (an \`Expect\` header other than \`100-continue\`).

**Idempotency.** Creations accept an \`Idempotency-Key\` header (1–255 characters): resending the same request with the same key returns the same generation, with no second charge. The SDK sends one on every creation.

**Pagination.** Lists answer \`{"object":"list","data":[…],"has_more":…}\`; while \`has_more\` is true, ask for the next page with \`after\` = the id of the last object received.

**Webhooks** (Standard Webhooks) carry the generation as the retrieve route returns it. \`GET /v1/events/stream\` (an extension to the specification) streams the test-mode events to a developer's machine: \`npx @roomtone/sdk listen --forward-to http://localhost:4000/hooks\`.

Clients must ignore unknown fields: fields can be added to responses and events.`;

const TAGS = [
  { name: 'Creations', description: 'Each accepted creation produces a generation. It answers when the generation ends (200), or at once with `background: true` (202).' },
  { name: 'Generations', description: 'Read, list and cancel generations. A generation is visible only to keys of its organization and mode.' },
  { name: 'Reference', description: 'Decoration styles, edit materials and their categories.' },
  { name: 'Balance', description: 'The organization’s balance and monthly limit (an extension).' },
  { name: 'Events', description: 'Extensions for developing webhook receivers.' },
];

/** What the request fields mean (the zod schemas carry the rules; this carries the words). */
const FIELD_DESCRIPTIONS: Record<string, string> = {
  image: 'The image: an https URL (port 443, at most 2048 characters), or a file sent as multipart/form-data in a part named `image`. JPEG, PNG or WebP, at most 10 MB, 8192 pixels a side and 36 million pixels.',
  quality: 'Output size: long side 1024 (1k), 2048 (2k), 4096 (4k) or 8192 (8k) pixels, proportions kept.',
  scale: 'Upscaling factor.',
  style: 'A style id from GET /v1/styles.',
  categories: 'Accessories to add (decorations); default: those that suit the style.',
  mode: '`prompt`: edit by written instruction; `mask`: edit the areas painted in a colour mask, one layer per colour.',
  prompt: 'Prompt mode: the instruction, 1 to 1000 characters, any language. Line breaks and tabs allowed; other control and invisible characters refused.',
  mask: 'PNG mask (URL or file part `mask`) at the image’s proportions, long side at least 512 pixels. Palette: #FF0000, #CCFF00, #00FF66, #0066FF, #CC00FF.',
  layers: 'Mask mode: 1 to 3 layers, one per painted colour. A file for `layers[N].element` is the multipart part `layers[N].element`.',
  metadata: 'Up to 16 string pairs; keys 1–40 characters, values at most 500. Returned unchanged in the generation and in webhooks.',
  background: '`true`: answer 202 at acceptance with the in-progress generation; the result comes by webhook or by reading the generation.',
};

const QUERY_DESCRIPTIONS: Record<string, { description: string; schema?: object }> = {
  limit: { description: 'Page size, 1 to 100.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
  after: { description: 'The id of the last object of the previous page.' },
  type: { description: 'Only generations of this type.' },
  status: { description: 'Only generations in this status.' },
  category: { description: 'Only materials of this category (an id from GET /v1/edit-material-categories).' },
  search: { description: 'Filter by category or by name (case-insensitive).' },
  id: { description: 'The generation id (gen_…).' },
};

type Operation = Record<string, unknown> & {
  description?: string;
  parameters?: { name: string; in: string; description?: string; schema?: object }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, Record<string, unknown>> }; examples?: unknown }> };
  responses: Record<string, unknown>;
};

/** The permissions of each route, read from its procedure (permittedProcedure records them). */
function routePermissions(): Map<string, { needed: readonly string[]; rule: 'all' | 'any' }> {
  const byRoute = new Map<string, { needed: readonly string[]; rule: 'all' | 'any' }>();
  for (const procedure of Object.values(v1Router._def.procedures) as unknown as { _def: { meta?: ProcedureMeta } }[]) {
    const meta = procedure._def.meta;
    if (meta?.openapi) byRoute.set(`${meta.openapi.method} ${meta.openapi.path}`, { needed: meta.permissions ?? [], rule: meta.permissionsRule ?? 'all' });
  }
  return byRoute;
}

function errorResponses(method: string, path: string): Record<string, unknown> {
  const byStatus = new Map<number, ReturnType<typeof routeErrors>>();
  for (const error of routeErrors(method, path)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const responses: Record<string, unknown> = {};
  for (const [status, errors] of byStatus) {
    responses[String(status)] = {
      description: errors.map((e) => `\`${e.code}\`: ${e.description}`).join('\n\n'),
      headers: { 'request-id': { $ref: '#/components/headers/request-id' } },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(errors.map((e) => [e.code, { summary: e.code, value: { error: { code: e.code, message: e.description.replace(/`/g, '') } } }])),
        },
      },
    };
  }
  return responses;
}

function describeCreationBody(operation: Operation, path: string, key: string): void {
  for (const [contentType, media] of Object.entries(operation.requestBody?.content ?? {})) {
    for (const [name, property] of Object.entries(media.schema?.properties ?? {})) {
      if (FIELD_DESCRIPTIONS[name]) property.description = FIELD_DESCRIPTIONS[name];
      // A multipart image field is a file part or an https URL in a text part.
      if (contentType === 'multipart/form-data' && (name === 'image' || name === 'mask')) {
        media.schema!.properties![name] = { description: FIELD_DESCRIPTIONS[name], anyOf: [{ type: 'string', format: 'binary' }, { type: 'string', format: 'uri' }] };
      }
    }
    if (contentType === 'application/json' && REQUEST_EXAMPLES[key]) media.examples = REQUEST_EXAMPLES[key];
  }
  if (CREATION_PATHS.includes(path)) {
    operation.parameters = [
      ...(operation.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        description: '1–255 printable ASCII characters. The same key and request return the same generation, with no second charge (remembered 24 hours).',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ];
  }
}

/** Routes the specification does not have (marked `x-roomtone-extension`). */
const EXTENSION_PATHS: ReadonlySet<string> = new Set(['/balance', '/events/trigger']);

/** GET /v1/events/stream: not a tRPC procedure (it streams), so described here. */
function eventStreamPath(baseUrl: string): Record<string, unknown> {
  const operation = {
    operationId: 'events-stream',
    summary: 'Stream test-mode events (extension)',
    description: `**Permission:** \`generations_read\`, test keys only.\n\n**An extension to the specification** for developing webhook receivers on a machine that webhooks cannot reach (e.g. \`localhost\`): Server-Sent Events carrying the organization's test-mode events, each \`data\` being the body a webhook endpoint would receive. While a stream is open its events are produced even if no endpoint follows them. A reconnection with \`Last-Event-ID\` resumes after that event. The first message is \`event: ready\`; a comment every 15 seconds keeps the connection open. \`npx @roomtone/sdk listen --forward-to <url>\` forwards each event to a local URL, signed with a secret it prints. At most 10 streams per organization.`,
    tags: ['Events'],
    security: [{ bearer: [] }],
    'x-permissions': ['generations_read'],
    'x-roomtone-extension': true,
    parameters: [
      {
        name: 'events',
        in: 'query',
        description: `Comma-separated event types to receive; default: every test-mode type (${GENERATION_EVENT_TYPES.join(', ')}).`,
        schema: { type: 'string', example: 'generation.succeeded,generation.failed' },
      },
      { name: 'Last-Event-ID', in: 'header', description: 'Resume after this event (evt_…), as EventSource does on reconnection.', schema: { type: 'string' } },
    ],
    responses: {
      '200': {
        description: 'A stream of `text/event-stream` messages: `id: evt_…`, `event: <type>`, `data: <event body as JSON>`.',
        headers: { 'request-id': { $ref: '#/components/headers/request-id' } },
        content: {
          'text/event-stream': {
            schema: { type: 'string' },
            example: `event: ready\ndata: {"object":"event_stream","livemode":false,"events":["generation.succeeded"]}\n\nid: evt_9Qm2xR7tLpW4nZ8kB3vC6dYs\nevent: generation.succeeded\ndata: {"id":"evt_9Qm2xR7tLpW4nZ8kB3vC6dYs","type":"generation.succeeded","created_at":1764000094,"livemode":false,"data":{"object":{"object":"generation","id":"gen_3kTq9ZbX2mPw7LrV1sNc8YdA","status":"succeeded"}}}\n\n`,
          },
        },
      },
      ...errorResponses('GET', EVENT_STREAM_PATH.slice('/v1'.length)),
    },
    'x-codeSamples': codeSamples(baseUrl, 'GET', EVENT_STREAM_PATH.slice('/v1'.length)),
  };
  return { get: operation };
}

/** The events webhooks carry (Standard Webhooks: headers webhook-id, webhook-timestamp, webhook-signature). */
const EVENT_SCHEMAS = {
  Balance: {
    type: 'object',
    description: 'The balance, in euro cents excluding tax, with the fields of its event.',
    required: ['object', 'amount', 'currency', 'unit'],
    properties: {
      object: { type: 'string', const: 'balance' },
      amount: { type: 'integer' },
      currency: { type: 'string', const: 'eur' },
      unit: { type: 'string', const: 'cents' },
      low_balance_threshold: { type: 'integer', description: 'balance.low: the threshold crossed.' },
      failed_recharge: {
        type: 'object',
        description: 'balance.recharge_failed.',
        required: ['amount', 'auto_recharge_enabled'],
        properties: { amount: { type: 'integer' }, auto_recharge_enabled: { type: 'boolean' } },
      },
      expiring: {
        type: 'object',
        description: 'balance.expiring.',
        required: ['amount', 'expires_at'],
        properties: { amount: { type: 'integer' }, expires_at: { type: 'integer' } },
      },
    },
  },
  GenerationEvent: {
    type: 'object',
    required: ['id', 'type', 'created_at', 'livemode', 'data'],
    properties: {
      id: { type: 'string', description: 'evt_…, equal to the webhook-id header.' },
      type: { type: 'string', enum: [...GENERATION_EVENT_TYPES] },
      created_at: { type: 'integer' },
      livemode: { type: 'boolean' },
      data: { type: 'object', required: ['object'], properties: { object: { $ref: '#/components/schemas/Generation' } } },
    },
  },
  BalanceEvent: {
    type: 'object',
    required: ['id', 'type', 'created_at', 'livemode', 'data'],
    properties: {
      id: { type: 'string', description: 'evt_…, equal to the webhook-id header.' },
      type: { type: 'string', enum: [...BALANCE_EVENT_TYPES] },
      created_at: { type: 'integer' },
      livemode: { type: 'boolean', description: 'Always true: balance events are live mode.' },
      data: { type: 'object', required: ['object'], properties: { object: { $ref: '#/components/schemas/Balance' } } },
    },
  },
};

function webhookOperations(): Record<string, unknown> {
  const operation = (type: string, schema: string) => ({
    post: {
      operationId: `webhook-${type}`,
      summary: type,
      description: 'Sent to the webhook endpoints that follow this type, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Verify with `Roomtone.webhooks.unwrap(body, headers, secret)` of the SDK, or any Standard Webhooks library.',
      requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
      responses: { '200': { description: 'Any 2xx within 10 seconds acknowledges the event.' } },
    },
  });
  return Object.fromEntries([
    ...GENERATION_EVENT_TYPES.map((type) => [type, operation(type, 'GenerationEvent')]),
    ...BALANCE_EVENT_TYPES.map((type) => [type, operation(type, 'BalanceEvent')]),
  ]);
}

const cached = new Map<string, OpenAPIObject>();

/**
 * The OpenAPI 3 document, generated from the tRPC procedures and then completed where the
 * generator cannot know better: the real error envelope and every code each route answers,
 * 202 on creations, the permission each route needs, descriptions, examples and code samples
 * (curl, SDK, Python), request-id and bearer security. The API reference (/docs) renders it;
 * the SDK's types are generated from it (`npm run sdk:types`).
 */
export function openApiDocument(baseUrl: string): OpenAPIObject {
  const hit = cached.get(baseUrl);
  if (hit) return hit;
  const doc = generateOpenApiDocument(v1Router, {
    title: 'Roomtone API',
    version: '1.0.0',
    description: DESCRIPTION,
    baseUrl: `${baseUrl}/v1`,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (rt_test_… or rt_live_…)' } },
  });
  doc.tags = TAGS;
  doc.components ??= {};
  const schemas = Object.fromEntries(Object.entries(doc.components.schemas ?? {}).filter(([name]) => !name.startsWith('error.')));
  doc.components.schemas = { ...schemas, Error: errorSchema as never, ...(EVENT_SCHEMAS as unknown as Record<string, never>) };
  (doc as { webhooks?: unknown }).webhooks = webhookOperations();
  doc.components.headers = {
    'request-id': { description: 'Unique id of this request (req_…).', schema: { type: 'string' } },
  };
  const permissions = routePermissions();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      if (!value || typeof value !== 'object' || !value.responses) continue;
      const operation = value;
      const key = `${method.toUpperCase()} ${path}`;
      const { needed, rule } = permissions.get(key) ?? { needed: [], rule: 'all' };
      operation['x-permissions'] = needed;
      // One of them suffices (`x-permissions-rule: any`): a list that several creation kinds read.
      if (rule === 'any') operation['x-permissions-rule'] = 'any';
      const permissionLine = `**Permission:** ${needed.map((p) => `\`${p}\``).join(rule === 'any' ? ' or ' : ' and ')}${path.endsWith('/cancel') ? ', and the permission of the generation’s type (`renders`, `edits`, `decorations` or `upscales`)' : ''}.`;
      operation.description = [permissionLine, operation.description].filter(Boolean).join('\n\n');
      for (const parameter of operation.parameters ?? []) {
        const words = QUERY_DESCRIPTIONS[parameter.name];
        if (!words) continue;
        parameter.description = words.description;
        if (words.schema) parameter.schema = words.schema;
      }
      describeCreationBody(operation, path, key);
      const responses = operation.responses;
      for (const status of Object.keys(responses)) {
        if (status === 'default' || status.startsWith('4') || status.startsWith('5')) delete responses[status];
      }
      const ok = responses['200'] as { description?: string; headers?: unknown; content?: Record<string, { example?: unknown }> } | undefined;
      if (ok) {
        ok.headers = { 'request-id': { $ref: '#/components/headers/request-id' } };
        const media = ok.content?.['application/json'];
        if (media && RESPONSE_EXAMPLES[key]) media.example = RESPONSE_EXAMPLES[key];
        if (CREATION_PATHS.includes(path)) {
          ok.description = 'The generation has ended (succeeded or failed: a failure is not an HTTP error).';
          responses['202'] = { ...ok, description: 'Accepted: the generation is in progress (background, heavy load, 4 min 30 s passed, or a server restart).', content: { 'application/json': { ...(media ?? {}), example: ACCEPTED_EXAMPLE } } };
        }
      }
      Object.assign(responses, errorResponses(method, path));
      responses.default = { description: 'Any other error, in the same envelope.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      operation['x-codeSamples'] = codeSamples(baseUrl, method, path);
      if (EXTENSION_PATHS.has(path)) operation['x-roomtone-extension'] = true;
    }
  }
  doc.paths = { ...doc.paths, [EVENT_STREAM_PATH.slice('/v1'.length)]: eventStreamPath(baseUrl) };
  cached.set(baseUrl, doc);
  return doc;
}
