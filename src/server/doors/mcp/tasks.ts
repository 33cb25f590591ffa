import { ErrorCode, RELATED_TASK_META_KEY, type CallToolResult, type ServerCapabilities, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '@/server/capabilities/access/caller';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import { PERMISSION_FOR_TYPE } from '@/shared/keys/permissions';
import { cancelGeneration, getGeneration } from '@/server/capabilities/generations/generations';
import { IMAGE_RETENTION_MS, toApiGeneration, type ApiGeneration, type GenerationView } from '@/server/capabilities/generation-object/serialize';
import { waitForGenerationEnd } from '@/server/capabilities/generations/notify';
import { ApiError, apiErrorFromUnknown } from '@/server/doors/errors';
import { generationOutcome } from './resource-links';
import { toolResult } from './tool-result';
import { nextStep } from './next-step';

/**
 * MCP tasks (specification 2025-11-25) for the creation tools. The endpoint is stateless (a
 * server per POST), so a task keeps no state of its own: the task id is the generation id, and
 * status, message, times and result are read from the generation, scoped to the key's
 * organization and mode like every read. Nothing to store, expire or keep in step, and a task
 * survives any restart or instance exactly as its generation does.
 */

/** What the server declares: task-augmented tools/call and tasks/cancel; no tasks/list (listing is /v1's). */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = { cancel: {}, requests: { tools: { call: {} } } };

/** Suggested tasks/get interval: each poll is one request in the organization's request rate. */
export const TASK_POLL_INTERVAL_MS = 3_000;

const STATUS: Record<GenerationView['status'], Task['status']> = { in_progress: 'working', succeeded: 'completed', failed: 'failed', canceled: 'cancelled' };

function statusMessage(row: GenerationView): string {
  switch (row.status) {
    case 'in_progress':
      if (row.startedAt === null) return 'Queued: waiting for a worker (tasks/cancel still cancels it, refunded).';
      return `In progress${row.progress !== null ? ` (${Math.round(row.progress * 100)} % done)` : ''}, ${row.progressStage}; it has started and can no longer be canceled.`;
    case 'succeeded':
      return 'The generation succeeded: tasks/result gives it with a link to each output image.';
    case 'failed':
      return `The generation failed (${row.errorCode ?? 'generation_failed'}) and was refunded: ${row.errorMessage ?? ''}`.trim();
    case 'canceled':
      return 'The generation was canceled and refunded.';
  }
}

/**
 * The task of a generation. ttl runs from creation to 24 hours after the end (when the task,
 * like get_generation, stops answering); while in progress the end is not known yet, so it is
 * the lifetime so far plus 24 hours, a lower bound that grows until the end.
 */
export function taskOf(row: GenerationView, nowMs = clock.nowMs()): Task {
  const created = row.createdAt.getTime();
  const ttl = (row.completedAt ? row.completedAt.getTime() : Math.max(nowMs, created)) + IMAGE_RETENTION_MS - created;
  return {
    taskId: row.id,
    status: STATUS[row.status],
    statusMessage: statusMessage(row),
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: (row.completedAt ?? row.startedAt ?? row.createdAt).toISOString(),
    ttl,
    pollInterval: TASK_POLL_INTERVAL_MS,
  };
}

/**
 * A JSON-RPC error of a task path, sent as is (the SDK sends any thrown error's code, message
 * and data; its McpError would prefix the message with "MCP error <code>:").
 */
export class TaskProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'TaskProtocolError';
  }
}

/** A refusal on a task path: JSON-RPC error whose data is the /v1 error body (and its status). */
export function taskRefusal(error: ApiError): TaskProtocolError {
  return new TaskProtocolError(error.status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidParams, error.message, { status: error.status, ...error.toBody() });
}

function taskNotFound(taskId: string): TaskProtocolError {
  const message = `Failed to retrieve task: Task not found ('${taskId.slice(0, 100)}').`;
  return taskRefusal(new ApiError('resource_not_found', message, { param: 'taskId' }));
}

/**
 * The generation behind a task, for this key: same organization and mode (anything else is not
 * found), the permission to read generations or the one of its type (the one its creation tool
 * needed, so the key that created a task can always follow it), and within get_generation's
 * window of 24 hours after the end.
 */
async function taskGeneration(caller: Caller, taskId: string): Promise<GenerationView> {
  let row: GenerationView;
  try {
    row = await getGeneration(caller, taskId);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'resource_not_found') throw taskNotFound(taskId);
    throw taskRefusal(apiErrorFromUnknown(error));
  }
  const needed = PERMISSION_FOR_TYPE[row.type];
  if (!caller.permissions.has('generations_read') && !caller.permissions.has(needed)) {
    throw taskRefusal(apiErrorFromUnknown(new DomainError('permission_denied', `This key lacks the 'generations_read' or '${needed}' permission a ${row.type} task needs.`)));
  }
  if (row.completedAt && clock.nowMs() - row.completedAt.getTime() > IMAGE_RETENTION_MS) throw taskNotFound(taskId);
  return row;
}

/** What the model is told while its creation runs as a task (the CreateTaskResult's immediate response). */
export function taskStartedSentence(generation: ApiGeneration): string {
  if (generation.status !== 'in_progress') return nextStep(generation);
  return `The generation ${generation.id} was accepted and runs as a task; its result (the generation with a link to each output image) comes when it ends. Meanwhile get_generation with id "${generation.id}" tells how far it is.`;
}

/** tasks/get and the CreateTaskResult of a task-augmented creation. */
export async function getTask(caller: Caller, taskId: string): Promise<Task> {
  return taskOf(await taskGeneration(caller, taskId));
}

/**
 * tasks/result: blocks until the generation ends (the same LISTEN/NOTIFY waiter as /v1's
 * synchronous wait), then answers exactly what a waiting creation call answers. The block is
 * bounded like /v1's (SYNC_WAIT_MS from the request's arrival): past it, an error says to poll.
 */
export async function getTaskResult(caller: Caller, taskId: string, receivedAt: number): Promise<CallToolResult> {
  let row = await taskGeneration(caller, taskId);
  if (row.status === 'in_progress') {
    await waitForGenerationEnd(row.id, config().SYNC_WAIT_MS - (Date.now() - receivedAt));
    row = await taskGeneration(caller, taskId);
  }
  if (row.status === 'in_progress') {
    throw new TaskProtocolError(ErrorCode.InternalError, `Task ${row.id} is still working after the longest wait; poll tasks/get and call tasks/result once it is completed.`, {
      task: taskOf(row),
    });
  }
  const result = toolResult(await generationOutcome(caller, await toApiGeneration(row)));
  return { ...result, _meta: { [RELATED_TASK_META_KEY]: { taskId: row.id } } };
}

/**
 * tasks/cancel cancels the generation as POST /v1/generations/{id}/cancel does (refunded, event
 * generation.canceled) while it has not started. A started generation cannot be canceled: the
 * task stays working and the error carries 409 generation_not_cancelable, because the MCP rule
 * that a cancelled task stays cancelled would otherwise hide a generation that goes on, is
 * charged and succeeds. A task in a final status is refused as the MCP specification says.
 */
export async function cancelTask(caller: Caller, taskId: string): Promise<Task> {
  const row = await taskGeneration(caller, taskId);
  if (row.status !== 'in_progress') throw new TaskProtocolError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${STATUS[row.status]}'.`);
  try {
    return taskOf(await cancelGeneration(caller, taskId, caller.permissions));
  } catch (error) {
    throw taskRefusal(apiErrorFromUnknown(error));
  }
}
