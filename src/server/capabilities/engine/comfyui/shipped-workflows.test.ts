// @node-lines same: the shipped workflow files checked by our validator
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateWorkflow, type Workflow } from '../../../../../test/backends/comfyui-nodes';
import { fillTemplate } from '../backends/templates';
import { checkEngineEnv, envNameFor, templateFileFor, type BackendOperation } from '../backends/settings';

/**
 * Every shipped ComfyUI workflow, filled as Roomtone fills it for each operation it may serve
 * (prompt edits with and without a mask), passes ComfyUI's prompt validation: no node without a
 * required input, no link to a missing node or output.
 */
const dir = path.resolve(import.meta.dirname, '../../../../../engine-templates');
const workflows = fs.readdirSync(path.join(dir, 'comfyui')).filter((f) => f.endsWith('.json') && !f.includes('.unmasked.'));

const values = (mask: string | null) => ({ image: 'roomtone-x.jpg', mask, prompt: 'p', negative_prompt: 'n', width: 1024, height: 768, seed: 7, scale: null });

describe('shipped ComfyUI workflows', () => {
  it('there are some', () => {
    expect(workflows).toEqual(expect.arrayContaining(['img2img.json', 'inpaint.json']));
  });

  for (const file of workflows) {
    const workflow = file.replace(/\.json$/, '');
    const cases: Array<[BackendOperation, boolean]> = [['render', false], ['decoration', false], ['edit_prompt', true], ['edit_prompt', false]];
    it.each(cases)(`${workflow} for %s (mask: %s): refused at start, or passes ComfyUI's validation`, (operation, masked) => {
      const problems = checkEngineEnv({ [envNameFor(operation)]: `comfyui:${workflow}`, COMFYUI_URL: 'http://gpu:8188', ENGINE_TEMPLATE_DIR: dir });
      if (problems.length > 0) {
        // Only a workflow that needs a mask, for an operation that never has one.
        expect(operation).not.toBe('edit_prompt');
        expect(problems).toEqual([[envNameFor(operation), expect.stringContaining('never has a mask')]]);
        return;
      }
      const file = templateFileFor(dir, { kind: 'comfyui', workflow }, operation, masked)!;
      const filled = fillTemplate(JSON.parse(fs.readFileSync(file, 'utf8')), values(masked ? 'roomtone-x-mask.png' : null)) as Workflow;
      expect(validateWorkflow(filled)).toBeNull();
    });
  }

  it('inpaint cannot serve renders (refused at start); img2img serves everything', () => {
    expect(checkEngineEnv({ ENGINE_RENDER: 'comfyui:inpaint', COMFYUI_URL: 'http://gpu:8188', ENGINE_TEMPLATE_DIR: dir })).toHaveLength(1);
    expect(checkEngineEnv({ ENGINE_RENDER: 'comfyui:img2img', ENGINE_DECORATION: 'comfyui:img2img', ENGINE_EDIT_PROMPT: 'comfyui:inpaint', COMFYUI_URL: 'http://gpu:8188', ENGINE_TEMPLATE_DIR: dir })).toEqual([]);
  });

  it('the validation catches a mask input dropped from an inpainting graph', () => {
    const inpaint = JSON.parse(fs.readFileSync(path.join(dir, 'comfyui', 'inpaint.json'), 'utf8')) as unknown;
    const result = validateWorkflow(fillTemplate(inpaint, values(null)) as Workflow);
    expect(result?.error.type).toBe('prompt_outputs_failed_validation');
    expect(result?.node_errors['3']?.errors).toEqual([expect.objectContaining({ type: 'required_input_missing', details: 'image' })]);
  });
});
