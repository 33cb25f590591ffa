import type { GenerationType } from '@/generated/prisma/enums';
import { backendFor } from '@/server/capabilities/engine/backends/selection';

/** The generations that are only a deterministic preview in test mode unless a model serves them. */
const GENERATIVE: ReadonlyArray<{ tool: string; type: GenerationType; input: unknown }> = [
  { tool: 'create_render', type: 'render', input: {} },
  { tool: 'create_decoration', type: 'decoration', input: {} },
  { tool: 'create_edit in prompt mode', type: 'edit', input: { mode: 'prompt' } },
];

function list(items: string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * What a test key gets, from the engine settings: a generative operation answers the preview
 * in test mode unless ENGINE_TEST_MODE=backend and a backend serves it (the same choice as
 * runEngine's, through backendFor).
 */
export function testModeSentence(): string {
  const previews = GENERATIVE.filter((g) => !backendFor(g.type, g.input, 'test')).map((g) => g.tool);
  if (previews.length === 0) return 'Test keys cost nothing and make the same images as live keys; live keys are charged.';
  return `Test keys cost nothing (mask edits and upscales are real; ${list(previews)} ${previews.length === 1 ? 'gives' : 'give'} a deterministic preview, not a generated image); live keys are charged.`;
}

/** The MCP server's instructions (sent at initialize). */
export function mcpInstructions(): string {
  return `Roomtone transforms interior images: create_render (photorealistic render of a draft), create_edit (by written instruction or colour mask), create_decoration (accessories in a style from list_styles), create_upscale (x2, x4).
Authentication: the same API key as the REST API (Authorization: Bearer rt_test_… or rt_live_…); OAuth is not supported. ${testModeSentence()}
Images go by https URL (or a previous output[0].url); for a local image call create_upload, PUT the bytes to upload_url, then pass its file_… id. No image is ever attached to a message.
Creation tools wait up to 50 s; if the generation is still in_progress, call get_generation with its id (it waits up to 50 s) until it ends; after 5 minutes give the user the id.
A refused request comes back as a tool error holding {"error":{"code","message","param"}}; nothing is charged.`;
}
