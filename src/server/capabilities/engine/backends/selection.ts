import { config } from '@/server/platform/config';
import type { EditInput } from '@/shared/creations/schemas';
import type { GenerationType, Mode } from '@/generated/prisma/enums';
import { parseBackendSpec, type BackendOperation, type BackendSpec } from './settings';

/** Which engine serves a generation: the configured backend of its operation, or the built-in engine. */

/** The operation a generation asks of an engine, or null when only the built-in engine does it. */
export function backendOperationOf(type: GenerationType, input: unknown): BackendOperation | null {
  switch (type) {
    case 'render':
    case 'decoration':
    case 'upscale':
      return type;
    case 'edit':
      return (input as EditInput).mode === 'prompt' ? 'edit_prompt' : null;
  }
}

const ENV_VALUE: Record<BackendOperation, () => string | undefined> = {
  render: () => config().ENGINE_RENDER,
  decoration: () => config().ENGINE_DECORATION,
  edit_prompt: () => config().ENGINE_EDIT_PROMPT,
  upscale: () => config().ENGINE_UPSCALE,
};

/** The configured backend of an operation (validated at start), or null for the built-in engine. */
export function configuredBackend(operation: BackendOperation): BackendSpec | null {
  return parseBackendSpec(operation, ENV_VALUE[operation]());
}

/** Whether this generation goes to a backend: live mode always when one is configured; test mode per ENGINE_TEST_MODE. */
export function backendFor(type: GenerationType, input: unknown, mode: Mode): { operation: BackendOperation; spec: BackendSpec } | null {
  const operation = backendOperationOf(type, input);
  const spec = operation ? configuredBackend(operation) : null;
  if (!operation || !spec) return null;
  if (mode === 'test' && config().ENGINE_TEST_MODE === 'preview') return null;
  return { operation, spec };
}
