import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { ApiGeneration } from '@/server/capabilities/generation-object/serialize';
import { readOutputSizes, type Scope } from '@/server/capabilities/generations/generations';
import type { ToolOutcome } from './tool';

/** `_meta` key of a link's expiry (Unix seconds), as the output item's url_expires_at. */
export const URL_EXPIRES_AT_META = 'roomtone/url_expires_at';

const EXTENSIONS: Record<string, string> = { 'image/webp': 'webp', 'image/png': 'png', 'image/jpeg': 'jpg' };

/**
 * One resource link per output image: the signed URL (readable without a key), its content
 * type, its size when recorded, and its expiry (in the description for a model, in `_meta` for
 * a program). The bytes are never inlined: an image would fill a model's context.
 */
export function outputLinks(generation: ApiGeneration, sizes: readonly (number | undefined)[]): ResourceLink[] {
  return generation.output.map((out, i) => {
    const size = sizes[i];
    return {
      type: 'resource_link',
      uri: out.url,
      name: `${generation.id}-${i}.${EXTENSIONS[out.content_type] ?? 'img'}`,
      title: `Output ${i} of ${generation.id} (${out.width}x${out.height})`,
      description: `Full-resolution ${generation.type} output, ${out.width}x${out.height} ${out.content_type}; the signed URL is readable without a key until ${new Date(out.url_expires_at * 1000).toISOString()} (15 minutes; get_generation gives a fresh one).`,
      mimeType: out.content_type,
      ...(size !== undefined ? { size } : {}),
      _meta: { [URL_EXPIRES_AT_META]: out.url_expires_at },
    };
  });
}

/** A generation as a tool answers it: the object, its next step and its output links. */
export async function generationOutcome(scope: Scope, generation: ApiGeneration): Promise<ToolOutcome> {
  const sizes = generation.output.length > 0 ? await readOutputSizes(scope, generation.id) : [];
  return { body: generation, generation, links: outputLinks(generation, sizes) };
}
