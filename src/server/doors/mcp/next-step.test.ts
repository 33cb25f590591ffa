// @node-lines same: the next-step sentence: our text
import { describe, expect, it } from 'vitest';
import type { ApiGeneration } from '@/server/capabilities/generation-object/serialize';
import { nextStep } from './next-step';

const inProgress = (progress: number | null) => ({ id: 'gen_x', status: 'in_progress', progress, output: [], error: null }) as unknown as ApiGeneration;

describe('the next-step sentence of an in-progress generation', () => {
  it('says how far it is when the progress is known', () => {
    expect(nextStep(inProgress(0.423))).toMatch(/^The generation is still in progress \(42 % done\): call get_generation with id "gen_x" now/);
  });

  it('says nothing of it when unknown', () => {
    expect(nextStep(inProgress(null))).toMatch(/^The generation is still in progress: call get_generation/);
  });
});
