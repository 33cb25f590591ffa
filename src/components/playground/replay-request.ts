import type { CreationKind } from '@/shared/playground/playground-inputs';

const KIND_OF_PATH: Record<string, CreationKind> = { '/v1/renders': 'render', '/v1/edits': 'edit', '/v1/decorations': 'decoration', '/v1/upscales': 'upscale' };

/**
 * A logged creation request (also a refused one) as the generation-like settings the playground
 * replays: its kind from the path, its parameters from the logged body (images were never kept:
 * the log holds notes in their place, which the form ignores). Null for other requests.
 */
export function settingsFromLoggedRequest(line: { path: string; method: string; request_params?: unknown }): { type: CreationKind; input: Record<string, unknown>; metadata: Record<string, string> } | null {
  const type = KIND_OF_PATH[line.path];
  if (!type || line.method !== 'POST') return null;
  const params = line.request_params as { body?: unknown } | null;
  const body = params && typeof params.body === 'object' && params.body !== null && !Array.isArray(params.body) ? (params.body as Record<string, unknown>) : {};
  const metadata = typeof body.metadata === 'object' && body.metadata !== null && !Array.isArray(body.metadata) ? body.metadata : {};
  const strings = Object.fromEntries(Object.entries(metadata as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { type, input: body, metadata: strings };
}

/** Whether a logged request can open in the playground (a creation, whatever its status). */
export function isReplayableRequest(line: { path: string; method: string }): boolean {
  return line.method === 'POST' && line.path in KIND_OF_PATH;
}
