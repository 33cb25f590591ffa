import fs from 'node:fs';
import { config } from '@/server/platform/config';
import type { BackendRequest } from './adapter';
import { templateDir, templateFileFor, type BackendOperation, type BackendSpec } from './settings';

/**
 * Request templates the operator can replace (engine-templates/ or ENGINE_TEMPLATE_DIR): a
 * Replicate model's `input` object per operation, a ComfyUI workflow (API format) per name.
 * A string that is exactly `{{name}}` takes the value with its type (numbers stay numbers) and
 * disappears when the value is absent (no mask); `{{name}}` inside a longer string is replaced
 * by its text.
 */
export type TemplateValues = Record<string, string | number | null>;

export function loadTemplate(spec: BackendSpec, operation: BackendOperation, masked: boolean): unknown {
  const file = templateFileFor(templateDir(config().ENGINE_TEMPLATE_DIR), spec, operation, masked);
  if (!file) throw new Error(`${spec.kind} has no templates`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

const WHOLE = /^\{\{([a-z_]+)\}\}$/;
const INLINE = /\{\{([a-z_]+)\}\}/g;
const ABSENT = Symbol('absent');

function fill(node: unknown, values: TemplateValues): unknown {
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole) {
      const value = values[whole[1]!];
      if (value === undefined) throw new Error(`template placeholder {{${whole[1]}}} is unknown`);
      return value === null ? ABSENT : value;
    }
    return node.replace(INLINE, (_m, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`template placeholder {{${name}}} is unknown`);
      return value === null ? '' : String(value);
    });
  }
  if (Array.isArray(node)) return node.map((n) => fill(n, values)).filter((n) => n !== ABSENT);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      const filled = fill(v, values);
      if (filled !== ABSENT) out[k] = filled;
    }
    return out;
  }
  return node;
}

export function fillTemplate(template: unknown, values: TemplateValues): Record<string, unknown> {
  return fill(template, values) as Record<string, unknown>;
}

/** The operation's template for this request, filled with its values; `files` are how the backend names the uploaded image and mask. */
export function fillRequestTemplate(req: BackendRequest, files: { image: string; mask: string | null }): Record<string, unknown> {
  return fillTemplate(loadTemplate(req.spec, req.operation, req.mask !== null), {
    image: files.image,
    mask: files.mask,
    prompt: req.prompt,
    negative_prompt: req.negativePrompt,
    width: req.size.width,
    height: req.size.height,
    seed: req.seed,
    scale: req.scale,
  });
}
