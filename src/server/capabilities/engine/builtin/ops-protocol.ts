/** Requests understood by ops-worker.ts (see offthread.ts). */
import type { Finish, RawImage } from './types';
import type { MaterialOptions } from './material';
import type { RemoveOptions } from './remove';
import type { AddOptions } from './add';
import type { PreviewTarget } from './preview';

export type OpRequest =
  | { op: 'recolor'; img: RawImage; alpha: Uint8Array; hex: string; finish: Finish }
  | { op: 'material'; img: RawImage; alpha: Uint8Array; swatch: RawImage; opts?: MaterialOptions }
  | { op: 'remove'; img: RawImage; alpha: Uint8Array; opts?: RemoveOptions }
  | { op: 'add'; img: RawImage; alpha: Uint8Array; element: RawImage; opts?: AddOptions }
  | { op: 'replace'; img: RawImage; alpha: Uint8Array; element: RawImage; opts?: AddOptions & { remove?: RemoveOptions } }
  | { op: 'preview'; img: RawImage; target: PreviewTarget; seed: string }
  | { op: 'upscaleLanczos3'; img: RawImage; scale: 2 | 4 }
  | { op: 'resample'; img: RawImage; width: number; height: number };

/**
 * Operations that take seconds of CPU (PatchMatch fills): they run on their own worker threads,
 * so a recolour or a preview never waits behind one (see offthread.ts and engine/cost-class.ts).
 */
export const HEAVY_OPS: ReadonlySet<string> = new Set<OpRequest['op']>(['remove', 'replace']);

export type OpMessage =
  | { id: number; ok: true; img: RawImage; ms: number }
  | { id: number; ok: false; message: string };
