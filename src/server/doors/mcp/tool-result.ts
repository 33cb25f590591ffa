import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiError } from '@/server/doors/errors';
import { nextStep } from './next-step';
import type { ToolOutcome } from './tool';

/**
 * What a tool call answers, and what tasks/result answers for a task: the /v1 object as JSON
 * text, for a generation the next-step sentence, then one resource link per output image.
 */
export function toolResult(outcome: ToolOutcome): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(outcome.body) }];
  if (outcome.generation) content.push({ type: 'text', text: nextStep(outcome.generation) });
  if (outcome.links) content.push(...outcome.links);
  // The same object as the first text, for clients that read the declared outputSchema.
  return { content, structuredContent: outcome.body as Record<string, unknown> };
}

/** A refused request: the /v1 error body, marked as a tool error. */
export function errorResult(error: ApiError): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(error.toBody()) }], isError: true };
}
