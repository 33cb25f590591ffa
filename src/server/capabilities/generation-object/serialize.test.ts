// @node-lines same: our serialisation of the generation object
import { describe, expect, it } from 'vitest';
import { toApiGenerations, type GenerationView } from './serialize';

const base: GenerationView = {
  id: 'gen_a',
  organizationId: 'org_a',
  mode: 'test',
  type: 'render',
  status: 'in_progress',
  input: { quality: '2k', scale: null, style: null },
  metadata: null,
  outputs: null,
  costAmount: 10,
  discountPercent: 0,
  amountRefunded: 0,
  errorCode: null,
  errorMessage: null,
  createdAt: new Date('2026-12-01T10:00:00.750Z'),
  startedAt: null,
  completedAt: null,
  expiresAt: null,
  imagesDeletedAt: null,
  progress: null,
  progressStage: 'queued',
};

describe('the generation object: expires_at', () => {
  it('while in progress: created_at + 24 h (provisional); once ended: the stored end + 24 h, in whole seconds', async () => {
    const ended = { ...base, id: 'gen_b', status: 'failed' as const, completedAt: new Date('2026-12-01T10:05:00.999Z'), expiresAt: new Date('2026-12-02T10:05:00.999Z'), errorCode: 'engine_failed', errorMessage: 'x' };
    const [running, failed] = await toApiGenerations([base, ended]);
    const createdAt = Math.floor(Date.parse('2026-12-01T10:00:00.750Z') / 1000);
    expect(running).toMatchObject({ created_at: createdAt, completed_at: null, expires_at: createdAt + 24 * 3600, output: [] });
    expect(failed).toMatchObject({ completed_at: Math.floor(Date.parse('2026-12-01T10:05:00.999Z') / 1000), expires_at: Math.floor(Date.parse('2026-12-02T10:05:00.999Z') / 1000) });
  });
});
