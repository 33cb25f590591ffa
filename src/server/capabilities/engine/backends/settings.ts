/**
 * Which engine serves each operation: `ENGINE_<OPERATION>=builtin|replicate:<owner>/<model>[:<version>]
 * |comfyui:<workflow>|openai:<model>`. Pure parsing (no I/O beyond reading a template's presence),
 * so config() can refuse a bad setting at start with a message naming the variable.
 */
import fs from 'node:fs';
import path from 'node:path';

export const BACKEND_OPERATIONS = ['render', 'decoration', 'edit_prompt', 'upscale'] as const;
export type BackendOperation = (typeof BACKEND_OPERATIONS)[number];

export type BackendSpec =
  | { kind: 'replicate'; owner: string; name: string; version: string | null }
  | { kind: 'comfyui'; workflow: string }
  | { kind: 'openai'; model: string };

export type BackendKind = BackendSpec['kind'];

/** The variable that configures an operation: ENGINE_RENDER, ENGINE_EDIT_PROMPT, … */
export function envNameFor(operation: BackendOperation): string {
  return `ENGINE_${operation.toUpperCase()}`;
}

/** Which backends may serve which operation (OpenAI's image edits cannot upscale). */
const ALLOWED: Record<BackendKind, readonly BackendOperation[]> = {
  replicate: BACKEND_OPERATIONS,
  comfyui: BACKEND_OPERATIONS,
  openai: ['render', 'decoration', 'edit_prompt'],
};

/** null = the built-in engine. Throws an Error whose message is shown at start. */
export function parseBackendSpec(operation: BackendOperation, value: string | undefined): BackendSpec | null {
  if (value === undefined || value === '' || value === 'builtin') return null;
  const colon = value.indexOf(':');
  const kind = colon < 0 ? value : value.slice(0, colon);
  const rest = colon < 0 ? '' : value.slice(colon + 1);
  let spec: BackendSpec;
  switch (kind) {
    case 'replicate': {
      const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)(?::([0-9a-f]{64}))?$/.exec(rest);
      if (!m) throw new Error(`expected replicate:<owner>/<model> or replicate:<owner>/<model>:<64-hex version>, got "${value}"`);
      spec = { kind, owner: m[1]!, name: m[2]!, version: m[3] ?? null };
      break;
    }
    case 'comfyui':
      if (!/^[A-Za-z0-9_-]+$/.test(rest)) throw new Error(`expected comfyui:<workflow> (letters, digits, _ and -), got "${value}"`);
      spec = { kind, workflow: rest };
      break;
    case 'openai':
      if (!/^[A-Za-z0-9_.-]+$/.test(rest)) throw new Error(`expected openai:<model> (e.g. openai:gpt-image-1), got "${value}"`);
      spec = { kind, model: rest };
      break;
    default:
      throw new Error(`expected builtin, replicate:<owner>/<model>[:<version>], comfyui:<workflow> or openai:<model>, got "${value}"`);
  }
  if (!ALLOWED[spec.kind].includes(operation)) throw new Error(`${spec.kind} cannot serve ${operation}`);
  return spec;
}

/** The model name recorded per generation (operator data). */
export function modelLabel(spec: BackendSpec): string {
  switch (spec.kind) {
    case 'replicate':
      return `${spec.owner}/${spec.name}${spec.version ? `:${spec.version}` : ''}`;
    case 'comfyui':
      return spec.workflow;
    case 'openai':
      return spec.model;
  }
}

/** Default template folder: `engine-templates/` at the project root (operators may point elsewhere). */
export function templateDir(configured: string | undefined): string {
  // Resolved at run time; the ignore comment keeps Turbopack from tracing the whole project.
  return path.resolve(/*turbopackIgnore: true*/ configured ?? 'engine-templates');
}

/**
 * The template file of a backend for an operation: replicate/<operation>.json,
 * comfyui/<workflow>.json, and for a ComfyUI prompt edit without a mask
 * comfyui/<workflow>.unmasked.json (an inpainting graph needs its mask: a node left without a
 * required input fails ComfyUI's validation; the unmasked graph edits the whole image instead).
 */
export function templatePath(dir: string, spec: BackendSpec, operation: BackendOperation, options: { masked?: boolean } = {}): string | null {
  if (spec.kind === 'replicate') return path.join(dir, 'replicate', `${operation}.json`);
  if (spec.kind === 'comfyui') return path.join(dir, 'comfyui', `${spec.workflow}${operation === 'edit_prompt' && options.masked === false ? '.unmasked' : ''}.json`);
  return null;
}

/** The template a request uses: the unmasked variant for a prompt edit without a mask when there is one. */
export function templateFileFor(dir: string, spec: BackendSpec, operation: BackendOperation, masked: boolean): string | null {
  const unmasked = masked ? null : templatePath(dir, spec, operation, { masked: false });
  return unmasked && fs.existsSync(unmasked) ? unmasked : templatePath(dir, spec, operation);
}

/** Whether a template has an input that is exactly `{{mask}}` (dropped when there is no mask). */
function hasWholeMaskInput(node: unknown): boolean {
  if (node === '{{mask}}') return true;
  if (Array.isArray(node)) return node.some(hasWholeMaskInput);
  if (node && typeof node === 'object') return Object.values(node).some(hasWholeMaskInput);
  return false;
}

export interface EngineEnv {
  ENGINE_RENDER?: string | undefined;
  ENGINE_DECORATION?: string | undefined;
  ENGINE_EDIT_PROMPT?: string | undefined;
  ENGINE_UPSCALE?: string | undefined;
  ENGINE_TEMPLATE_DIR?: string | undefined;
  REPLICATE_API_TOKEN?: string | undefined;
  COMFYUI_URL?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
}

/** Every problem with the backend settings, as `[variable, message]` pairs (empty when fine). */
export function checkEngineEnv(env: EngineEnv): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  const dir = templateDir(env.ENGINE_TEMPLATE_DIR);
  for (const operation of BACKEND_OPERATIONS) {
    const name = envNameFor(operation) as keyof EngineEnv;
    let spec: BackendSpec | null;
    try {
      spec = parseBackendSpec(operation, env[name]);
    } catch (error) {
      problems.push([name, (error as Error).message]);
      continue;
    }
    if (!spec) continue;
    if (spec.kind === 'replicate' && !env.REPLICATE_API_TOKEN) problems.push(['REPLICATE_API_TOKEN', `required by ${name}=${env[name]}`]);
    if (spec.kind === 'comfyui' && !env.COMFYUI_URL) problems.push(['COMFYUI_URL', `required by ${name}=${env[name]}`]);
    if (spec.kind === 'openai' && !env.OPENAI_API_KEY) problems.push(['OPENAI_API_KEY', `required by ${name}=${env[name]}`]);
    const file = templatePath(dir, spec, operation);
    let template: unknown = null;
    if (file) {
      try {
        template = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (error) {
        problems.push([name, `template ${file} is missing or not JSON (${(error as Error).message.split('\n')[0]})`]);
      }
    }
    // A ComfyUI workflow whose mask input would be dropped for an edit without a mask (allowed
    // by the API) needs its unmasked variant.
    const unmasked = templatePath(dir, spec, operation, { masked: false });
    if (spec.kind === 'comfyui' && operation !== 'edit_prompt' && hasWholeMaskInput(template)) {
      problems.push([name, `${file} needs {{mask}}, and a ${operation} never has a mask: use a workflow without one (e.g. comfyui:img2img)`]);
    } else if (spec.kind === 'comfyui' && unmasked && unmasked !== file && hasWholeMaskInput(template)) {
      try {
        JSON.parse(fs.readFileSync(unmasked, 'utf8'));
      } catch (error) {
        problems.push([name, `${file} needs {{mask}}, and prompt edits may come without one: add ${unmasked} (a workflow without the mask, e.g. image-to-image) (${(error as Error).message.split('\n')[0]})`]);
      }
    }
  }
  return problems;
}
