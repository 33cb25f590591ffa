// @node-lines same: MCP tasks' rules; the transport runs under both lines in test/mcp.test.ts
import { describe, expect, it } from 'vitest';
import type { GenerationView } from '@/server/capabilities/generation-object/serialize';
import { taskOf } from './tasks';

const HOUR = 3600_000;
const created = new Date('2026-12-01T10:00:00.000Z');

function row(over: Partial<GenerationView>): GenerationView {
  return {
    id: 'gen_x', organizationId: 'org_x', mode: 'test', type: 'upscale', status: 'in_progress', input: {}, metadata: {}, outputs: [], costAmount: 10,
    discountPercent: 0, amountRefunded: 0, errorCode: null, errorMessage: null, createdAt: created, startedAt: null, completedAt: null, expiresAt: null,
    imagesDeletedAt: null, progress: null, progressStage: 'queued', ...over,
  };
}

describe('the task of a generation', () => {
  it('queued: working, says it can still be canceled; ttl is the lifetime so far plus 24 hours', () => {
    const task = taskOf(row({}), created.getTime() + 60_000);
    expect(task).toMatchObject({ taskId: 'gen_x', status: 'working', createdAt: created.toISOString(), lastUpdatedAt: created.toISOString(), ttl: 24 * HOUR + 60_000, pollInterval: 3000 });
    expect(task.statusMessage).toMatch(/^Queued/);
  });

  it('started: the progress and stage as status message, updated at the start', () => {
    const startedAt = new Date(created.getTime() + 5_000);
    const task = taskOf(row({ startedAt, progress: 0.423, progressStage: 'generating' }), created.getTime() + 10_000);
    expect(task.statusMessage).toBe('In progress (42 % done), generating; it has started and can no longer be canceled.');
    expect(task.lastUpdatedAt).toBe(startedAt.toISOString());
    expect(taskOf(row({ startedAt, progress: null, progressStage: 'preparing' })).statusMessage).toMatch(/^In progress, preparing/);
  });

  it('ended: completed / failed / cancelled; ttl runs to 24 hours after the end', () => {
    const completedAt = new Date(created.getTime() + 90_000);
    expect(taskOf(row({ status: 'succeeded', startedAt: created, completedAt }))).toMatchObject({ status: 'completed', lastUpdatedAt: completedAt.toISOString(), ttl: 24 * HOUR + 90_000 });
    const failed = taskOf(row({ status: 'failed', completedAt, errorCode: 'content_policy_violation', errorMessage: 'Refused by moderation.' }));
    expect(failed).toMatchObject({ status: 'failed', statusMessage: 'The generation failed (content_policy_violation) and was refunded: Refused by moderation.' });
    expect(taskOf(row({ status: 'canceled', completedAt }))).toMatchObject({ status: 'cancelled', statusMessage: 'The generation was canceled and refunded.' });
  });
});
