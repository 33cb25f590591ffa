/** Messages between upscale.ts and neural-worker.ts. */
export type NeuralRequest = {
  id: number;
  width: number;
  height: number;
  scale: 2 | 4;
  /** RGB bytes, transferred. */
  data: ArrayBuffer;
  /** Output-kept tile size in input pixels, and the context margin added on each side. */
  tileCore: number;
  tilePad: number;
};

export type NeuralMessage =
  | { id: number; type: 'progress'; done: number; total: number }
  | { id: number; type: 'result'; width: number; height: number; data: ArrayBuffer; ms: number; loadMs: number; tiles: number }
  | { id: number; type: 'error'; message: string };
