import type { GenerationType } from '@/server/capabilities/billing/pricing';
import type { ApiGeneration } from '@/server/capabilities/generation-object/serialize';
import type { TrpcContext } from '@/server/doors/trpc/context';
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';

/** What a tool answers: the /v1 object, and for a generation the sentence that gives the next step. */
export interface ToolOutcome {
  /** The /v1 object, returned as JSON text. */
  body: unknown;
  /** A generation: the sentence that gives the next step. */
  generation?: ApiGeneration;
  /** A generation: one resource link per output image. */
  links?: ResourceLink[];
}

/** One MCP tool: its name, description and JSON Schema, and what it runs. */
export interface ToolDefinition {
  /** MCP tasks: 'optional' lets a client run the call as a task (tasks/get, tasks/result, tasks/cancel). */
  taskSupport?: 'optional';
  name: string;
  title: string;
  description: string;
  /** A creation tool: the type whose prices its description lists for the caller (mcp/prices.ts). */
  priceType?: GenerationType;
  inputSchema: Record<string, unknown>;
  /** The JSON Schema of `body`, returned as the result's `structuredContent` too. */
  outputSchema: Record<string, unknown>;
  /** MCP tool annotations: hints for clients (read-only, idempotent, open world). */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  run(args: Record<string, unknown>, ctx: TrpcContext): Promise<ToolOutcome>;
}
