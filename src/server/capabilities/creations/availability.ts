import type { GenerationType } from '@/generated/prisma/enums';
import { engineSupport } from '@/server/capabilities/engine/capabilities';
import { backendFor, backendOperationOf } from '@/server/capabilities/engine/backends/selection';
import { envNameFor } from '@/server/capabilities/engine/backends/settings';

/**
 * What each creation does on this installation, from the engine configuration, so a door can
 * say so before a request is sent (the console playground does; /v1 refuses as it always did).
 *
 * - `live`: `available`, or `unavailable` — a live request answers 503 mode_unavailable before
 *   any charge (a generative operation without a model backend).
 * - `test`: `real` (the same image a live key gets), or `preview` — the deterministic preview of
 *   the right size (a generative operation without a backend, or ENGINE_TEST_MODE=preview).
 * - `setting`: the variable that connects a model to this operation (null for the CPU-only
 *   mask edits); `testSetting`: what makes test mode real when live already is.
 */
export interface CreationAvailability {
  type: GenerationType;
  /** Edits only: the two modes differ (prompt edits need a model, mask edits run on the CPU). */
  editMode: 'prompt' | 'mask' | null;
  live: 'available' | 'unavailable';
  test: 'real' | 'preview';
  setting: string | null;
  testSetting: string | null;
}

const CREATIONS: ReadonlyArray<{ type: GenerationType; editMode: 'prompt' | 'mask' | null }> = [
  { type: 'render', editMode: null },
  { type: 'edit', editMode: 'prompt' },
  { type: 'edit', editMode: 'mask' },
  { type: 'decoration', editMode: null },
  { type: 'upscale', editMode: null },
];

/** Operations that only a generative model performs: without one, test mode answers a preview. */
function isGenerative(type: GenerationType, editMode: 'prompt' | 'mask' | null): boolean {
  return type === 'render' || type === 'decoration' || (type === 'edit' && editMode === 'prompt');
}

export function creationAvailability(): CreationAvailability[] {
  return CREATIONS.map(({ type, editMode }) => {
    const input = editMode ? { mode: editMode } : {};
    const operation = backendOperationOf(type, input);
    const live = engineSupport(type, input) === 'real' ? 'available' : 'unavailable';
    // The same choice the engine makes for a test key (runEngine goes through backendFor).
    const test = isGenerative(type, editMode) && !backendFor(type, input, 'test') ? 'preview' : 'real';
    return {
      type,
      editMode,
      live,
      test,
      setting: operation ? envNameFor(operation) : null,
      testSetting: live === 'available' && test === 'preview' ? 'ENGINE_TEST_MODE=backend' : null,
    };
  });
}
