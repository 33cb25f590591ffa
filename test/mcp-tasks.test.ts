// @node-lines same: MCP tasks' rules over the transport test/mcp.test.ts runs under both lines
/**
 * MCP tasks (specification 2025-11-25) through the official SDK client against the real
 * server: a creation run as a task and polled to completion, a cancelled task (queued: canceled
 * and refunded; started: refused, it goes on), scoping to the key's organization and mode, and
 * what is not a task.
 */
import { describe, it, expect, beforeAll, beforeEach } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError, RELATED_TASK_META_KEY, type CallToolResult, type CreateTaskResult, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { db } from '@/server/platform/db';
import { api, baseUrl, createKey, createTestOrg, holdGenerations, testIp, type TestOrg } from './support';
import { restoreServedFiles, serve, solidImage, type ApiGeneration } from './images-support';
import { waitFor } from './server-processes';
import { insertGeneration } from './fixtures';

const ip = testIp();

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'roomtone-tasks-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': ip } } }));
  return client;
}

/** tools/call as a task: the CreateTaskResult, answered once the generation is accepted. */
async function createAsTask(client: Client, name: string, args: Record<string, unknown>): Promise<CreateTaskResult> {
  return client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema, { timeout: 60_000 });
}

/** The JSON-RPC error a call is rejected with (fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(McpError);
  return outcome as McpError;
}

function texts(result: CallToolResult): string[] {
  return result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
}

async function balanceOf(organizationId: string): Promise<number> {
  return (await db().organization.findUniqueOrThrow({ where: { id: organizationId } })).balanceCents;
}

let org: TestOrg;
let image: string;

beforeAll(async () => {
  org = await createTestOrg();
  image = serve(await solidImage(64, 48), 'png');
});
beforeEach(() => restoreServedFiles());

describe('MCP tasks', () => {
  it('declares task support: tasks.requests.tools.call and tasks.cancel, no tasks/list; only the four creation tools are optional tasks', async () => {
    const client = await connect(org.testKey);
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const taskTools = tools.filter((t) => t.execution?.taskSupport === 'optional').map((t) => t.name).sort();
    expect(taskTools).toEqual(['create_decoration', 'create_edit', 'create_render', 'create_upscale']);
    expect(tools.filter((t) => t.execution !== undefined).map((t) => t.name).sort()).toEqual(taskTools);
    // A tool that does not run as a task: -32601 (MCP tasks, tool-level negotiation).
    const refused = await rejection(client.request({ method: 'tools/call', params: { name: 'list_styles', arguments: {}, task: {} } }, CreateTaskResultSchema));
    expect(refused.code).toBe(ErrorCode.MethodNotFound);
    expect((await rejection(client.experimental.tasks.listTasks())).code).toBe(ErrorCode.MethodNotFound);
    await client.close();
  });

  it('a creation run as a task: working with the generation as status message, polled to completion; tasks/result is the waiting call\'s result', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    const release = holdGenerations(local.id);
    const created = await createAsTask(client, 'create_upscale', { image, scale: 'x2', metadata: { job: 'task' } });
    const taskId = created.task.taskId;
    expect(taskId).toMatch(/^gen_/); // the task id is the generation id
    expect(created.task).toMatchObject({ status: 'working', pollInterval: 3000 });
    expect(created.task.ttl).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(created._meta?.['io.modelcontextprotocol/model-immediate-response']).toContain(taskId);
    const row = await db().generation.findUniqueOrThrow({ where: { id: taskId } });
    expect(row).toMatchObject({ organizationId: local.id, mode: 'test', channel: 'mcp', status: 'in_progress', metadata: { job: 'task' } });
    expect(new Date(created.task.createdAt).getTime()).toBe(row.createdAt.getTime());

    await waitFor('the generation to start', async () => (await db().generation.findUniqueOrThrow({ where: { id: taskId } })).startedAt);
    const running = await client.experimental.tasks.getTask(taskId);
    expect(running.status).toBe('working');
    expect(running.statusMessage).toMatch(/^In progress/);
    expect(running.statusMessage).toContain('can no longer be canceled');
    release();

    let status = running.status;
    while (status === 'working') {
      await new Promise((r) => setTimeout(r, 200));
      status = (await client.experimental.tasks.getTask(taskId)).status;
    }
    expect(status).toBe('completed');
    const completed = await client.experimental.tasks.getTask(taskId);
    const ended = await db().generation.findUniqueOrThrow({ where: { id: taskId } });
    expect(completed.lastUpdatedAt).toBe(ended.completedAt!.toISOString());
    expect(completed.ttl).toBe(ended.completedAt!.getTime() + 24 * 3600 * 1000 - ended.createdAt.getTime());

    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
    expect(result.isError).toBeFalsy();
    const [json, sentence] = texts(result);
    const generation = JSON.parse(json!) as ApiGeneration;
    expect(generation).toMatchObject({ id: taskId, status: 'succeeded', metadata: { job: 'task' } });
    expect(sentence).toContain('output[0].url');
    const links = result.content.filter((c): c is ResourceLink => c.type === 'resource_link');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ uri: generation.output[0]!.url, mimeType: 'image/webp' });
    expect(links[0]!.size).toBeGreaterThan(0);
    // The same as a waiting call on the same generation (output URLs are signed per read).
    const waiting = (await client.callTool({ name: 'get_generation', arguments: { id: taskId } })) as CallToolResult;
    const unsigned = (g: ApiGeneration) => ({ ...g, output: g.output.map((o) => ({ ...o, url: undefined, url_expires_at: undefined })) });
    expect(unsigned(JSON.parse(texts(waiting)[0]!) as ApiGeneration)).toEqual(unsigned(generation));
    expect(waiting.content.map((c) => c.type)).toEqual(result.content.map((c) => c.type));
    expect(sentence).toMatch(/^The generation succeeded/);

    const log = await waitFor('the request log line', async () => (await db().requestLog.findMany({ where: { organizationId: local.id, path: '/mcp/create_upscale' } }))[0]);
    expect([log.status, log.errorCode]).toEqual([202, null]);
    await client.close();
  }, 180_000);

  it('the SDK\'s callToolStream runs a task-capable tool as a task and ends with its result', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    await client.listTools(); // the client learns which tools are tasks
    const types: string[] = [];
    let result: CallToolResult | undefined;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'create_upscale', arguments: { image, scale: 'x2' } }, CallToolResultSchema, { timeout: 60_000 })) {
      types.push(message.type);
      if (message.type === 'result') result = message.result as CallToolResult;
    }
    expect(types[0]).toBe('taskCreated');
    expect(types.at(-1)).toBe('result');
    expect(JSON.parse(texts(result!)[0]!)).toMatchObject({ object: 'generation', status: 'succeeded' });
    await client.close();
  }, 120_000);

  it('tasks/cancel on a queued generation cancels it as /v1 does (refunded); a cancelled task stays cancelled; cancelling again is -32602', async () => {
    const local = await createTestOrg({ credit: 1_000 });
    const release = holdGenerations(local.id);
    // Both light worker slots busy with held generations: the next one waits unstarted.
    const blockers = await Promise.all([0, 1].map(() => api<ApiGeneration>('/v1/upscales', { key: local.testKey, ip, body: { image, scale: 'x2', background: true } })));
    await waitFor('both blockers to start', async () => (await db().generation.count({ where: { id: { in: blockers.map((b) => b.body.id) }, startedAt: { not: null } } })) === 2);
    const client = await connect(local.liveKey);
    const created = await createAsTask(client, 'create_upscale', { image, scale: 'x2' });
    expect(await balanceOf(local.id)).toBe(1_000 - 10);
    const queued = await client.experimental.tasks.getTask(created.task.taskId);
    expect(queued.statusMessage).toMatch(/^Queued/);

    const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
    release();
    expect(cancelled).toMatchObject({ taskId: created.task.taskId, status: 'cancelled' });
    const row = await db().generation.findUniqueOrThrow({ where: { id: created.task.taskId } });
    expect(row).toMatchObject({ status: 'canceled', startedAt: null, amountRefunded: 10 });
    expect(await balanceOf(local.id)).toBe(1_000);
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe('cancelled');
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(JSON.parse(texts(result)[0]!)).toMatchObject({ status: 'canceled', cost: { amount: 10, amount_refunded: 10 } });
    expect(texts(result)[1]).toContain('canceled and refunded');
    const again = await rejection(client.experimental.tasks.cancelTask(created.task.taskId));
    expect(again.code).toBe(ErrorCode.InvalidParams);
    expect(again.message).toContain("terminal status 'cancelled'");
    await client.close();
  }, 120_000);

  it('tasks/cancel on a started generation is refused with generation_not_cancelable: the task stays working and completes', async () => {
    const local = await createTestOrg();
    const client = await connect(local.testKey);
    const release = holdGenerations(local.id);
    const created = await createAsTask(client, 'create_upscale', { image, scale: 'x2' });
    await waitFor('the generation to start', async () => (await db().generation.findUniqueOrThrow({ where: { id: created.task.taskId } })).startedAt);
    const refused = await rejection(client.experimental.tasks.cancelTask(created.task.taskId));
    release();
    expect(refused.code).toBe(ErrorCode.InvalidParams);
    expect(refused.data).toMatchObject({ status: 409, error: { code: 'generation_not_cancelable' } });
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, { timeout: 120_000 });
    expect(JSON.parse(texts(result)[0]!)).toMatchObject({ status: 'succeeded' });
    expect((await client.experimental.tasks.getTask(created.task.taskId)).status).toBe('completed');
    await client.close();
  }, 180_000);

  it('a task of another organization\'s key, or of the other mode, is not found; a key without the permission is refused; found until 24 hours after the end', async () => {
    const owner = await createTestOrg();
    const ownerClient = await connect(owner.testKey);
    const created = await createAsTask(ownerClient, 'create_upscale', { image, scale: 'x2' });
    const taskId = created.task.taskId;
    const other = await createTestOrg();
    for (const key of [other.testKey, owner.liveKey]) {
      const client = await connect(key);
      for (const attempt of [() => client.experimental.tasks.getTask(taskId), () => client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema), () => client.experimental.tasks.cancelTask(taskId)]) {
        const error = await rejection(attempt());
        expect(error.message).toBe(`MCP error -32602: Failed to retrieve task: Task not found ('${taskId}').`);
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(error.message).toContain('Task not found');
        expect(error.data).toMatchObject({ status: 404, error: { code: 'resource_not_found', param: 'taskId' } });
      }
      await client.close();
    }
    // A generation made on /v1 is a task too (the same object), until 24 hours after its end, as get_generation.
    const recent = await insertGeneration({ organizationId: owner.id, mode: 'test', status: 'failed' });
    expect(await ownerClient.experimental.tasks.getTask(recent.id)).toMatchObject({ taskId: recent.id, status: 'failed', statusMessage: expect.stringContaining('generation_failed') });
    const old = await insertGeneration({ organizationId: owner.id, mode: 'test', status: 'succeeded', createdAt: new Date(Date.now() - 25 * 3600 * 1000) });
    expect((await rejection(ownerClient.experimental.tasks.getTask(old.id))).data).toMatchObject({ status: 404, error: { code: 'resource_not_found' } });
    // Still the owner's, untouched.
    expect((await db().generation.findUniqueOrThrow({ where: { id: taskId } })).status).not.toBe('canceled');
    const editsOnly = await connect(await createKey(owner.id, 'test', ['edits']));
    const denied = await rejection(editsOnly.experimental.tasks.getTask(taskId));
    expect(denied.data).toMatchObject({ status: 403, error: { code: 'permission_denied' } });
    // The creating permission alone is enough to follow one's task (no generations_read needed).
    const upscalesOnly = await connect(await createKey(owner.id, 'test', ['upscales']));
    expect((await upscalesOnly.experimental.tasks.getTask(taskId)).taskId).toBe(taskId);
    await editsOnly.close();
    await upscalesOnly.close();
    await ownerClient.close();
  }, 120_000);

  it('a refused creation creates no task: JSON-RPC error -32602 holding the /v1 error body, nothing created or charged', async () => {
    const local = await createTestOrg({ credit: 1_000 });
    const client = await connect(local.liveKey);
    const refused = await rejection(createAsTask(client, 'create_upscale', { image, scale: 'x3' }));
    expect(refused.code).toBe(ErrorCode.InvalidParams);
    expect(refused.data).toMatchObject({ status: 400, error: { code: 'parameter_invalid', param: 'scale' } });
    expect(await db().generation.count({ where: { organizationId: local.id } })).toBe(0);
    expect(await balanceOf(local.id)).toBe(1_000);
    const log = await waitFor('the request log line', async () => (await db().requestLog.findMany({ where: { organizationId: local.id, path: '/mcp/create_upscale' } }))[0]);
    expect([log.status, log.errorCode]).toEqual([400, 'parameter_invalid']);
    await client.close();
  });
});
