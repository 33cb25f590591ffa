import type { ApiGeneration } from '@/server/generations/serialize';
import type { TrpcContext } from '@/server/trpc/context';
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
  inputSchema: Record<string, unknown>;
  run(args: Record<string, unknown>, ctx: TrpcContext): Promise<ToolOutcome>;
}
