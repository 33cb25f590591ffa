// @node-lines same: our scheduling priorities and cost classes
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigCache } from '@/server/platform/config';
import { fairPriority, generationCostClass } from './schedule';

/** pg-boss claims by priority (highest first), then age: the order workers would take these jobs. */
function claimOrder(jobs: { org: string; tier: number; ahead: number; at: number }[]): string[] {
  return jobs
    .map((j) => ({ ...j, priority: fairPriority(j.ahead, j.tier) }))
    .sort((x, y) => y.priority - x.priority || x.at - y.at)
    .map((j) => j.org);
}

describe('weighted round-robin across organizations', () => {
  it('a later organization’s jobs interleave with a flood instead of waiting behind it', () => {
    // A queued 40 at once (0–39 waiting ahead of each); the first 2 run, 38 wait. Then B queues 5.
    const a = Array.from({ length: 38 }, (_, i) => ({ org: 'A', tier: 1, ahead: i + 2, at: i }));
    const b = Array.from({ length: 5 }, (_, i) => ({ org: 'B', tier: 1, ahead: i, at: 100 + i }));
    const order = claimOrder([...a, ...b]);
    expect(order.slice(0, 10).join('')).toBe('BBABABABAA');
    expect(order.lastIndexOf('B')).toBe(7); // B's 5th job, not its 43rd place in FIFO order
  });

  it('keeps each organization’s own jobs in arrival order', () => {
    const a = Array.from({ length: 20 }, (_, i) => ({ org: `A${String(i).padStart(2, '0')}`, tier: 2, ahead: i, at: i }));
    expect(claimOrder(a)).toEqual(a.map((j) => j.org));
  });

  it('weighs by tier: a tier-4 organization gets 8 jobs per round to a tier-1 organization’s one', () => {
    const big = Array.from({ length: 32 }, (_, i) => ({ org: 'E', tier: 4, ahead: i, at: i }));
    const small = Array.from({ length: 4 }, (_, i) => ({ org: 's', tier: 1, ahead: i, at: 50 + i }));
    expect(claimOrder([...big, ...small]).join('')).toBe(['EEEEEEEEs', 'EEEEEEEEs', 'EEEEEEEEs', 'EEEEEEEEs'].join(''));
  });

  it('never goes below priority 0, whatever the backlog', () => {
    expect(fairPriority(0, 1)).toBeGreaterThan(fairPriority(1, 1));
    expect(fairPriority(1_000_000, 1)).toBe(0);
  });
});

describe('cost classes', () => {
  afterEach(() => {
    for (const name of ['UPSCALE_METHOD', 'ENGINE_RENDER', 'ENGINE_EDIT_PROMPT', 'ENGINE_UPSCALE', 'ENGINE_TEST_MODE', 'REPLICATE_API_TOKEN', 'OPENAI_API_KEY']) delete process.env[name];
    resetConfigCache();
  });
  const image = (width: number, height: number) => [{ param: 'image', key: 'k', digest: 'd', width, height }];
  const maskEdit = (...actions: string[]) => ({ type: 'edit' as const, mode: 'live' as const, input: { quality: '1k', scale: null, mode: 'mask', layers: actions.map((action) => ({ mask_color: '#FF0000', action })) }, inputImages: image(1024, 768) });

  it('PatchMatch edits (remove, replace) are heavy; recolour, material and add are light', () => {
    expect(generationCostClass(maskEdit('remove'))).toBe('heavy');
    expect(generationCostClass(maskEdit('modify', 'replace'))).toBe('heavy');
    expect(generationCostClass(maskEdit('modify', 'add', 'modify'))).toBe('light');
  });

  it('previews (renders, decorations, prompt-mode edits in test mode) are light', () => {
    expect(generationCostClass({ type: 'render', mode: 'test', input: { quality: '2k', scale: null }, inputImages: image(1024, 768) })).toBe('light');
    expect(generationCostClass({ type: 'decoration', mode: 'test', input: { quality: '2k', scale: null, style: null, categories: null }, inputImages: image(1024, 768) })).toBe('light');
    expect(generationCostClass({ type: 'edit', mode: 'test', input: { quality: '1k', scale: null, mode: 'prompt', prompt: 'x' }, inputImages: image(1024, 768) })).toBe('light');
  });

  it('upscales follow the method that will run: Lanczos3 light, neural heavy, auto (Lanczos3, the most faithful) light', () => {
    const up = (w: number, h: number) => ({ type: 'upscale' as const, mode: 'live' as const, input: { quality: null, scale: 'x2' }, inputImages: image(w, h) });
    for (const [method, small, large] of [['lanczos3', 'light', 'light'], ['neural', 'heavy', 'heavy'], ['auto', 'light', 'light']] as const) {
      process.env.UPSCALE_METHOD = method;
      resetConfigCache();
      expect(generationCostClass(up(512, 512)), `${method} 512x512`).toBe(small);
      expect(generationCostClass(up(2048, 1536)), `${method} 2048x1536`).toBe(large);
    }
  });

  it('generations a backend serves are remote, in live mode, and in test mode only with ENGINE_TEST_MODE=backend', () => {
    Object.assign(process.env, { ENGINE_RENDER: 'replicate:acme/render', ENGINE_EDIT_PROMPT: 'openai:gpt-image-1', ENGINE_UPSCALE: 'replicate:acme/up', REPLICATE_API_TOKEN: 'r8_x', OPENAI_API_KEY: 'sk-x' });
    resetConfigCache();
    const render = (mode: 'live' | 'test') => ({ type: 'render' as const, mode, input: { quality: '2k', scale: null }, inputImages: image(1024, 768) });
    const promptEdit = { type: 'edit' as const, mode: 'live' as const, input: { quality: '1k', scale: null, mode: 'prompt', prompt: 'x' }, inputImages: image(1024, 768) };
    const upscale = { type: 'upscale' as const, mode: 'live' as const, input: { quality: null, scale: 'x2' }, inputImages: image(1024, 768) };
    const decoration = { type: 'decoration' as const, mode: 'test' as const, input: { quality: '2k', scale: null, style: null, categories: null }, inputImages: image(1024, 768) };
    expect(generationCostClass(render('live'))).toBe('remote');
    expect(generationCostClass(promptEdit)).toBe('remote');
    expect(generationCostClass(upscale)).toBe('remote');
    expect(generationCostClass(render('test'))).toBe('light'); // ENGINE_TEST_MODE=preview (the default)
    expect(generationCostClass(decoration)).toBe('light'); // no backend for decorations
    expect(generationCostClass(maskEdit('remove'))).toBe('heavy'); // mask edits stay on the CPU engine
    process.env.ENGINE_TEST_MODE = 'backend';
    resetConfigCache();
    expect(generationCostClass(render('test'))).toBe('remote');
  });
});
