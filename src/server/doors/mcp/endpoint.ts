import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CreateTaskResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError, apiErrorFromUnknown, httpStatusOf } from '@/server/doors/errors';
import { config } from '@/server/platform/config';
import { randomBase62 } from '@/server/platform/ids';
import { FileParts } from '@/server/capabilities/creations/images';
import { callerFromKey, type Caller } from '@/server/capabilities/access/caller';
import { readBodyText } from '@/server/doors/body';
import { clientIp } from '@/server/doors/client-ip';
import { authenticate, beginRequest, errorReply, finishReply, limitIp, logRequest, refuseBrowsers, replyOfResponse, type DoorReply, type DoorRequest } from '@/server/doors/door';
import type { TrpcContext } from '@/server/doors/trpc/context';
import { TOOLS, TOOLS_BY_NAME } from './tools';
import { priceSentence } from './prices';
import { mcpInstructions } from './instructions';
import { errorResult, toolResult } from './tool-result';
import type { ToolOutcome } from './tool';
import { TASKS_CAPABILITY, cancelTask, getTask, getTaskResult, taskRefusal, taskStartedSentence } from './tasks';

/**
 * The /mcp door: MCP Streamable HTTP without sessions (a fresh server and transport per POST,
 * JSON responses). Around it, the same pieces as /v1 (doors/door.ts): request-id, browser
 * refusal, per-IP and per-organization request rates (each MCP message counts as one
 * request), Bearer key authentication, the 64 KB body limit and the request log, where a tool
 * call is written as /mcp/<tool> with the status and code its /v1 route would answer.
 */

const SERVER_INFO = { name: 'roomtone', version: '1.0.0' };
// One validator for every per-request server: the SDK builds a new Ajv per Server otherwise,
// measured as about two thirds of the SDK's CPU per stateless request.
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

interface ToolLogLine {
  tool: string;
  status: number;
  errorCode: string | null;
}

type JsonRpcMessage = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown } };

function mcpServer(door: DoorRequest, caller: Caller, toolLog: Map<unknown, ToolLogLine>): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, tasks: TASKS_CAPABILITY }, instructions: mcpInstructions(), jsonSchemaValidator: SCHEMA_VALIDATOR });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.priceType ? `${t.description} ${priceSentence(t.priceType, caller)}` : t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      outputSchema: t.outputSchema as { type: 'object' },
      annotations: { title: t.title, ...t.annotations },
      ...(t.taskSupport ? { execution: { taskSupport: t.taskSupport } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    // An unknown tool is a protocol error (JSON-RPC), not a refused request.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const asTask = request.params.task !== undefined;
    // MCP tasks: a tool without taskSupport is -32601 when asked to run as a task.
    if (asTask && !tool.taskSupport) throw new McpError(ErrorCode.MethodNotFound, `Tool ${tool.name} does not run as a task; call it without task.`);
    const ctx: TrpcContext = {
      caller,
      channel: 'mcp',
      requestId: door.requestId,
      response: { headers: {} },
      parts: new FileParts(new Map(), randomBase62(16)),
      idempotencyKey: null,
      receivedAt: door.receivedAt,
      // As a task the call answers once the generation is accepted, as /v1's background: true.
      creationWaitMs: asTask ? 0 : config().MCP_CREATION_WAIT_MS,
    };
    let outcome: ToolOutcome;
    try {
      outcome = await tool.run(request.params.arguments ?? {}, ctx);
    } catch (error) {
      const apiError = apiErrorFromUnknown(error);
      toolLog.set(extra.requestId, { tool: tool.name, status: apiError.status, errorCode: apiError.code });
      // No task is created for a refused request: no generation exists to follow.
      if (asTask) throw taskRefusal(apiError);
      return errorResult(apiError);
    }
    if (asTask && outcome.generation) {
      const generation = outcome.generation;
      toolLog.set(extra.requestId, { tool: tool.name, status: generation.status === 'in_progress' ? 202 : 200, errorCode: null });
      const created: CreateTaskResult = {
        task: await getTask(caller, generation.id),
        _meta: { 'io.modelcontextprotocol/model-immediate-response': taskStartedSentence(generation) },
      };
      return created;
    }
    toolLog.set(extra.requestId, { tool: tool.name, status: 200, errorCode: null });
    return toolResult(outcome);
  });
  server.setRequestHandler(GetTaskRequestSchema, async (request) => ({ ...(await getTask(caller, request.params.taskId)) }));
  server.setRequestHandler(GetTaskPayloadRequestSchema, (request) => getTaskResult(caller, request.params.taskId, door.receivedAt));
  server.setRequestHandler(CancelTaskRequestSchema, async (request) => ({ ...(await cancelTask(caller, request.params.taskId)) }));
  return server;
}

/** A body that is not JSON: JSON-RPC's parse error, with the status of parameter_invalid. */
function parseError(): DoorReply {
  return {
    status: httpStatusOf('parameter_invalid'),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: 'Parse error: the body is not valid JSON.' } }),
    errorCode: null,
  };
}

/** The /mcp route (http/routes.ts). */
export async function serveMcp(req: Request, requestId?: string): Promise<DoorReply> {
  const door = beginRequest(clientIp(req), requestId);
  let messages: JsonRpcMessage[] = [];
  const toolLog = new Map<unknown, ToolLogLine>();
  let reply: DoorReply;
  try {
    refuseBrowsers(req);
    if (req.method !== 'POST') {
      await limitIp(door);
      // A sessionless server offers no SSE stream (GET) and no session to end (DELETE).
      throw new ApiError('method_not_allowed', 'The MCP endpoint accepts POST only (Streamable HTTP without sessions).', { headers: { allow: 'POST' } });
    }
    const text = await readBodyText(req);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    messages = (Array.isArray(parsed) ? parsed : [parsed]).filter((m): m is JsonRpcMessage => typeof m === 'object' && m !== null);
    const hits = Math.max(1, messages.length);
    await limitIp(door, hits);
    const key = await authenticate(req, door, hits);
    if (parsed === undefined) {
      reply = parseError();
    } else {
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = mcpServer(door, callerFromKey(key), toolLog);
      await server.connect(transport);
      try {
        reply = await replyOfResponse(await transport.handleRequest(req, { parsedBody: parsed }));
      } finally {
        await server.close();
      }
    }
  } catch (error) {
    const apiError = apiErrorFromUnknown(error, { requestId: door.requestId, route: `${req.method} /mcp` });
    reply = errorReply(apiError);
    if (apiError.status === 401) reply.headers['www-authenticate'] = 'Bearer realm="roomtone", error="invalid_token"';
  }
  finishReply(door, reply);
  logMessages(req, door, reply, messages, toolLog);
  return reply;
}

/** One request-log line per message: a tool call as /mcp/<tool> with its /v1 status and code. */
function logMessages(req: Request, door: DoorRequest, reply: DoorReply, messages: JsonRpcMessage[], toolLog: Map<unknown, ToolLogLine>): void {
  const lines = messages.length > 0 ? messages : [{}];
  lines.forEach((message, i) => {
    const call = message.method === 'tools/call' && message.id !== undefined ? toolLog.get(message.id) : undefined;
    logRequest(door, {
      id: i === 0 ? door.requestId : `${door.requestId}_${i}`,
      method: req.method,
      path: call ? `/mcp/${call.tool}` : '/mcp',
      status: call ? call.status : reply.status,
      errorCode: call ? call.errorCode : (reply.errorCode ?? null),
    });
  });
}
