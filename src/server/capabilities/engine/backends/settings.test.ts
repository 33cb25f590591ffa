// @node-lines same: our parsing of the ENGINE_* settings
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkEngineEnv, parseBackendSpec } from './settings';

describe('ENGINE_<OPERATION> settings', () => {
  it('parses each backend form', () => {
    expect(parseBackendSpec('render', undefined)).toBeNull();
    expect(parseBackendSpec('render', 'builtin')).toBeNull();
    expect(parseBackendSpec('render', 'replicate:acme/room-render')).toEqual({ kind: 'replicate', owner: 'acme', name: 'room-render', version: null });
    const version = 'a'.repeat(64);
    expect(parseBackendSpec('decoration', `replicate:acme/deco:${version}`)).toEqual({ kind: 'replicate', owner: 'acme', name: 'deco', version });
    expect(parseBackendSpec('edit_prompt', 'comfyui:inpaint')).toEqual({ kind: 'comfyui', workflow: 'inpaint' });
    expect(parseBackendSpec('edit_prompt', 'openai:gpt-image-1')).toEqual({ kind: 'openai', model: 'gpt-image-1' });
  });

  it.each([
    ['replicate', /replicate:<owner>\/<model>/],
    ['replicate:acme', /replicate:<owner>\/<model>/],
    ['replicate:acme/x:v1', /64-hex version/],
    ['comfyui:../etc/passwd', /comfyui:<workflow>/],
    ['stability:sd3', /expected builtin, replicate/],
  ])('refuses %s with a message saying what is expected', (value, message) => {
    expect(() => parseBackendSpec('render', value)).toThrow(message);
  });

  it('OpenAI image edits cannot serve upscales', () => {
    expect(() => parseBackendSpec('upscale', 'openai:gpt-image-1')).toThrow('openai cannot serve upscale');
  });

  it('requires the credentials and templates of the backends in use', () => {
    expect(checkEngineEnv({})).toEqual([]);
    expect(checkEngineEnv({ ENGINE_RENDER: 'replicate:acme/r' })).toEqual([['REPLICATE_API_TOKEN', 'required by ENGINE_RENDER=replicate:acme/r']]);
    expect(checkEngineEnv({ ENGINE_EDIT_PROMPT: 'openai:gpt-image-1' })).toEqual([['OPENAI_API_KEY', 'required by ENGINE_EDIT_PROMPT=openai:gpt-image-1']]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'templates-'));
    const problems = checkEngineEnv({ ENGINE_RENDER: 'replicate:acme/r', REPLICATE_API_TOKEN: 't', ENGINE_TEMPLATE_DIR: dir });
    expect(problems).toEqual([['ENGINE_RENDER', `template ${path.join(dir, 'replicate', 'render.json')} is missing or not JSON (ENOENT: no such file or directory, open '${path.join(dir, 'replicate', 'render.json')}')`]]);
  });

  it('a ComfyUI prompt-edit workflow that needs {{mask}} needs its unmasked variant (prompt edits may come without a mask)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'templates-'));
    fs.mkdirSync(path.join(dir, 'comfyui'));
    fs.writeFileSync(path.join(dir, 'comfyui', 'paint.json'), JSON.stringify({ '3': { class_type: 'LoadImageMask', inputs: { image: '{{mask}}', channel: 'red' } } }));
    const env = { ENGINE_EDIT_PROMPT: 'comfyui:paint', COMFYUI_URL: 'http://gpu:8188', ENGINE_TEMPLATE_DIR: dir };
    const unmasked = path.join(dir, 'comfyui', 'paint.unmasked.json');
    expect(checkEngineEnv(env)).toEqual([['ENGINE_EDIT_PROMPT', expect.stringContaining(`needs {{mask}}, and prompt edits may come without one: add ${unmasked}`)]]);
    fs.writeFileSync(unmasked, JSON.stringify({ '2': { class_type: 'LoadImage', inputs: { image: '{{image}}' } } }));
    expect(checkEngineEnv(env)).toEqual([]);
    // Renders never come with a mask: a workflow that needs one cannot serve them.
    expect(checkEngineEnv({ ...env, ENGINE_EDIT_PROMPT: undefined, ENGINE_RENDER: 'comfyui:paint' })).toEqual([
      ['ENGINE_RENDER', `${path.join(dir, 'comfyui', 'paint.json')} needs {{mask}}, and a render never has a mask: use a workflow without one (e.g. comfyui:img2img)`],
    ]);
    // The shipped templates pass.
    expect(checkEngineEnv({ ENGINE_EDIT_PROMPT: 'comfyui:inpaint', ENGINE_RENDER: 'comfyui:img2img', COMFYUI_URL: 'http://gpu:8188' })).toEqual([]);
  });

});
