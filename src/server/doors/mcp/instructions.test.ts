// @node-lines same: the MCP instructions' sentences from our settings
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { mcpInstructions, testModeSentence } from './instructions';

const VARIABLES = ['ENGINE_TEST_MODE', 'ENGINE_RENDER', 'ENGINE_DECORATION', 'ENGINE_EDIT_PROMPT', 'OPENAI_API_KEY'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetConfigCache();
});

function configure(env: Partial<Record<(typeof VARIABLES)[number], string>>): void {
  for (const name of VARIABLES) delete process.env[name];
  for (const [name, value] of Object.entries(env)) setEnv(name as (typeof VARIABLES)[number], value);
  resetConfigCache();
}

const ALL_PREVIEWS = 'Test keys cost nothing (mask edits and upscales are real; create_render, create_decoration and create_edit in prompt mode give a deterministic preview, not a generated image); live keys are charged.';

describe('what the MCP instructions say test keys give', () => {
  it('no backend: the three generative tools give previews', () => {
    configure({});
    expect(testModeSentence()).toBe(ALL_PREVIEWS);
    expect(mcpInstructions()).toContain(`OAuth is not supported. ${ALL_PREVIEWS}\n`);
  });

  it('backends configured but ENGINE_TEST_MODE=preview (the default): still previews in test mode', () => {
    configure({ ENGINE_RENDER: 'openai:gpt-image-1', ENGINE_DECORATION: 'openai:gpt-image-1', ENGINE_EDIT_PROMPT: 'openai:gpt-image-1', OPENAI_API_KEY: 'sk-x' });
    expect(testModeSentence()).toBe(ALL_PREVIEWS);
  });

  it('ENGINE_TEST_MODE=backend: only the operations without a backend give previews', () => {
    configure({ ENGINE_TEST_MODE: 'backend', ENGINE_RENDER: 'openai:gpt-image-1', ENGINE_EDIT_PROMPT: 'openai:gpt-image-1', OPENAI_API_KEY: 'sk-x' });
    expect(testModeSentence()).toBe('Test keys cost nothing (mask edits and upscales are real; create_decoration gives a deterministic preview, not a generated image); live keys are charged.');
  });

  it('ENGINE_TEST_MODE=backend with every generative operation served: no preview is promised', () => {
    configure({ ENGINE_TEST_MODE: 'backend', ENGINE_RENDER: 'openai:gpt-image-1', ENGINE_DECORATION: 'openai:gpt-image-1', ENGINE_EDIT_PROMPT: 'openai:gpt-image-1', OPENAI_API_KEY: 'sk-x' });
    expect(testModeSentence()).toBe('Test keys cost nothing and make the same images as live keys; live keys are charged.');
    expect(mcpInstructions()).not.toContain('preview');
  });
});
