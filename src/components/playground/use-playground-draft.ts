'use client';
import * as React from 'react';
import type { CreationKind } from '@/shared/playground/playground-inputs';
import type { LayerDraft } from './layers-editor';
import type { MaskHistory, MaskRaster } from './mask-raster';
import type { ImageSource, PlaygroundForm } from './playground-request';

/** The input image as chosen and judged (a file passed checkImageFile before it gets here). */
export interface ChosenImage {
  source: ImageSource;
  /** An object URL for a file (kept while the draft or a run shows it), else the URL. */
  previewUrl: string;
}

/** The painted mask of one image (the painter mutates it in place). */
export interface MaskState {
  imageUrl: string;
  raster: MaskRaster;
  history: MaskHistory;
}

/** A run of this page: its generation and the input it was given (the result's "before"). */
export interface RunRecord {
  id: string;
  kind: CreationKind;
  requestId: string | null;
  /** The input as it was sent (never the image chosen since). */
  beforeUrl: string | null;
  /** Kind, body, image and mask as sent: Run waits while the same is in flight. */
  signature: string;
}

/** What the playground keeps while the member moves around the console (one per organization and mode). */
export interface PlaygroundDraft {
  form: PlaygroundForm | null;
  image: ChosenImage | null;
  urlText: string;
  layers: LayerDraft[];
  maskInPrompt: boolean;
  mask: MaskState | null;
  /** The last run of each kind: switching kinds never shows another kind's result. */
  runs: Partial<Record<CreationKind, RunRecord>>;
}

const EMPTY: PlaygroundDraft = { form: null, image: null, urlText: '', layers: [], maskInPrompt: false, mask: null, runs: {} };

/**
 * Drafts live in the page's memory, outside React: a client-side navigation to another console
 * screen unmounts the playground but keeps this module, so Back finds the image, the mask and the
 * layers as they were. A reload starts afresh (the run in progress comes back from the URL).
 */
const drafts = new Map<string, PlaygroundDraft>();
const listeners = new Map<string, Set<() => void>>();

function setDraft(key: string, next: PlaygroundDraft): void {
  drafts.set(key, next);
  for (const listener of listeners.get(key) ?? []) listener();
}

export type DraftUpdate = Partial<PlaygroundDraft> | ((draft: PlaygroundDraft) => Partial<PlaygroundDraft>);

/** The draft of `key` (organization and mode) and its update (a patch, or a function of the current draft). */
export function usePlaygroundDraft(key: string): [PlaygroundDraft, (update: DraftUpdate) => void] {
  const subscribe = React.useCallback(
    (listener: () => void) => {
      const set = listeners.get(key) ?? new Set();
      listeners.set(key, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    [key],
  );
  const read = React.useCallback(() => drafts.get(key) ?? EMPTY, [key]);
  const draft = React.useSyncExternalStore(subscribe, read, () => EMPTY);
  const update = React.useCallback(
    (change: DraftUpdate) => {
      const current = drafts.get(key) ?? EMPTY;
      setDraft(key, { ...current, ...(typeof change === 'function' ? change(current) : change) });
    },
    [key],
  );
  return [draft, update];
}

/** Any colour painted on the draft's mask (what a new image would discard). */
export function hasPaintedMask(draft: PlaygroundDraft): boolean {
  return draft.mask !== null && draft.mask.raster.paintedColors().length > 0;
}
