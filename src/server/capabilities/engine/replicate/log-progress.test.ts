// @node-lines same: our reading of progress from log text
import { describe, expect, it } from 'vitest';
import { progressFromLogs } from './log-progress';

describe('progress from Replicate prediction logs', () => {
  it('reads the last tqdm bar', () => {
    const logs = 'Using seed: 1234\n  0%|          | 0/30 [00:00<?, ?it/s]\n 10%|█         | 3/30 [00:01<00:09, 2.9it/s]\r 47%|████▋     | 14/30 [00:04<00:05, 3.0it/s]';
    expect(progressFromLogs(logs)).toBeCloseTo(14 / 30);
  });

  it('reads a plain percentage when there is no bar', () => {
    expect(progressFromLogs('step done\nprogress: 62%\n')).toBeCloseTo(0.62);
  });

  it('is null when the model prints no progress', () => {
    expect(progressFromLogs('Loading model\nRunning inference')).toBeNull();
    expect(progressFromLogs('')).toBeNull();
    expect(progressFromLogs(null)).toBeNull();
  });
});
