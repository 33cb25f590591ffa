// @node-lines same: our configuration checks
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/server/platform/config';
import { addServiceConfigChecks } from './config-checks';

/** The capabilities' cross-checks run with config() once an entry point has added them. */
describe('service configuration checks', () => {
  it('without them, config() knows nothing of engine backends', () => {
    expect(loadConfig({ NODE_ENV: 'test', ENGINE_RENDER: 'midjourney' }).ENGINE_RENDER).toBe('midjourney');
  });

  it('config() stops at start with the variable named', () => {
    addServiceConfigChecks();
    // The whole message: one line per bad variable, naming it and saying what it expects.
    const startError = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'test', ...env });
    expect(startError({ ENGINE_DECORATION: 'replicate:acme/deco' })).toThrow(new Error('Invalid configuration:\n  REPLICATE_API_TOKEN: required by ENGINE_DECORATION=replicate:acme/deco'));
    expect(startError({ ENGINE_RENDER: 'midjourney' })).toThrow(
      new Error('Invalid configuration:\n  ENGINE_RENDER: expected builtin, replicate:<owner>/<model>[:<version>], comfyui:<workflow> or openai:<model>, got "midjourney"'),
    );
    expect(startError({ REPLICATE_WAIT_SECONDS: '90' })).toThrow(new Error("Invalid configuration:\n  REPLICATE_WAIT_SECONDS: expected 1 to 60 (Replicate's Prefer: wait range)"));
    expect(startError({ ENGINE_RENDER: 'comfyui:img2img', ENGINE_UPSCALE: 'openai:gpt-image-1' })).toThrow(
      new Error('Invalid configuration:\n  COMFYUI_URL: required by ENGINE_RENDER=comfyui:img2img\n  ENGINE_UPSCALE: openai cannot serve upscale'),
    );
    const ok = loadConfig({ NODE_ENV: 'test', ENGINE_RENDER: 'replicate:acme/r', REPLICATE_API_TOKEN: 'r8_x' });
    expect(ok.ENGINE_TEST_MODE).toBe('preview');
    expect(ok.REPLICATE_BASE_URL).toBe('https://api.replicate.com/v1');
  });
});
