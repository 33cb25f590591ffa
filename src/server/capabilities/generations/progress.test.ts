// @node-lines same: our progress writer's rules under vitest's fake timers
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressWriter, type Value } from './progress';

describe('progress writer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function recording() {
    const writes: Array<Value & { at: number }> = [];
    const store = (value: Value) => {
      writes.push({ ...value, at: Date.now() });
      return Promise.resolve();
    };
    return { writes, store };
  }

  it('writes a stage at once, then at most once a second, never a change under 1 %, the latest value last', async () => {
    const { writes, store } = recording();
    const writer = progressWriter('gen_x', { store });
    const start = Date.now();
    writer.report('preparing', 0);
    await vi.advanceTimersByTimeAsync(0);
    // 40 reports over 2 s, as a fast sampler sends them.
    for (let i = 1; i <= 40; i++) {
      writer.report('generating', 0.05 + (0.85 * i) / 40);
      await vi.advanceTimersByTimeAsync(50);
    }
    writer.report('generating', 0.9 + 0.001); // under 1 % from the last: no write for it
    await vi.advanceTimersByTimeAsync(2_000);
    await writer.close();
    expect(writes[0]).toMatchObject({ stage: 'preparing', fraction: 0, at: start });
    expect(writes[1]).toMatchObject({ stage: 'generating' });
    // 2 s of reports: the stage change, then one write a second at most.
    expect(writes.length).toBeLessThanOrEqual(5);
    for (let i = 2; i < writes.length; i++) expect(writes[i]!.at - writes[i - 1]!.at).toBeGreaterThanOrEqual(1_000);
    expect(writes.at(-1)).toMatchObject({ stage: 'generating', fraction: 0.9 });
  });

  it('writes an unknown amount (null) as a change, and nothing after close', async () => {
    const { writes, store } = recording();
    const writer = progressWriter('gen_x', { store });
    writer.report('generating', 0.3);
    await vi.advanceTimersByTimeAsync(0);
    writer.report('generating', null);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(writes.map((w) => w.fraction)).toEqual([0.3, null]);
    await writer.close();
    writer.report('finishing', 0.95);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(writes).toHaveLength(2);
  });
});
