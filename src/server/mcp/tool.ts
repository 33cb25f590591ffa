import type { GenerationType } from '@/server/billing/pricing';
import type { ApiGeneration } from '@/server/generations/serialize';
import type { TrpcContext } from '@/server/trpc/context';

/** What a tool answers: the /v1 object, and for a generation the sentence that gives the next step. */
export interface ToolOutcome {
  /** The /v1 object, returned as JSON text. */
  body: unknown;
  /** A generation: the sentence that gives the next step. */
  generation?: ApiGeneration;
}

/** One MCP tool: its name, description and JSON Schema, and what it runs. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** A creation tool: the type whose prices its description lists for the caller (mcp/prices.ts). */
  priceType?: GenerationType;
  inputSchema: Record<string, unknown>;
  run(args: Record<string, unknown>, ctx: TrpcContext): Promise<ToolOutcome>;
}
