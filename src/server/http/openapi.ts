import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { v1Router } from '@/server/trpc/v1-router';

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

let cached: OpenAPIObject | null = null;

/**
 * The OpenAPI 3 document, generated from the tRPC procedures and then corrected where the
 * generator cannot know better: the real error envelope, 202 on creations, request-id and
 * rate-limit headers, bearer security.
 */
export function openApiDocument(baseUrl: string): OpenAPIObject {
  if (cached) return { ...cached, servers: [{ url: `${baseUrl}/v1` }] };
  const doc = generateOpenApiDocument(v1Router, {
    title: 'Roomtone API',
    version: '1.0.0',
    description:
      'Image transformations for interior images. Authenticate with `Authorization: Bearer rt_test_…` (test mode) or `rt_live_…` (live mode). Every error answers `{"error":{"code","message","param"}}`.',
    baseUrl: `${baseUrl}/v1`,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (rt_test_… or rt_live_…)' } },
  });
  doc.components ??= {};
  doc.components.schemas = { ...doc.components.schemas, Error: errorSchema as never };
  doc.components.headers = {
    'request-id': { description: 'Unique id of this request (req_…).', schema: { type: 'string' } },
  };
  const errorRef = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, { responses?: Record<string, unknown> }>)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const responses = operation.responses;
      for (const status of Object.keys(responses)) {
        if (status === 'default' || status.startsWith('4') || status.startsWith('5')) delete responses[status];
      }
      for (const status of ['400', '401', '403', '404', '429']) responses[status] = errorRef;
      responses.default = errorRef;
      if (CREATION_PATHS.includes(path) && responses['200']) responses['202'] = { ...(responses['200'] as object), description: 'Accepted: the generation is in progress.' };
    }
  }
  cached = doc;
  return doc;
}
