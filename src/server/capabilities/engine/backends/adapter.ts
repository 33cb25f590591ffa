import type { BackendOperation, BackendSpec } from './settings';

/** What every backend adapter receives: the images and the prompt are already prepared. */
export interface BackendRequest {
  generationId: string;
  operation: BackendOperation;
  spec: BackendSpec;
  attempt: number;
  /** The input (straightened, JPEG) at `size`. */
  image: Buffer;
  /** Prompt edits with a mask: white where the model may change pixels, PNG at `size`. */
  mask: Buffer | null;
  /** The size sent, and asked for (the answer is then resized to the target). */
  size: { width: number; height: number };
  prompt: string;
  negativePrompt: string;
  /** Upscale factor (upscale only). */
  scale: number | null;
  /** Deterministic per request, so a retried request asks the same. */
  seed: number;
  /** Fires at the configured deadline: the adapter cancels its remote job and stops. */
  signal: AbortSignal;
  /** When `signal` fires (ms since the epoch), for backends that take a wait time. */
  deadlineAt: number;
  /** The remote run's own progress, 0 to 1 (null: it gives none), as the backend reports it. */
  progress(fraction: number | null): void;
}

export interface BackendAnswer {
  bytes: Buffer;
  /** The backend's job id (prediction, prompt id), for the operator record. */
  remoteId: string | null;
  /**
   * The backend's time for the job: its own figure when it reports one (Replicate's billed
   * predict_time); otherwise Roomtone's measure of the call that ran it (OpenAI's images.edit
   * round trip, ComfyUI's submission to its history entry).
   */
  backendMs: number | null;
  costMicroUsd: number | null;
}

export interface BackendAdapter {
  /** Throws BackendError (or anything: network errors count as transient). */
  generate(request: BackendRequest, onRemoteId: (id: string) => void): Promise<BackendAnswer>;
}
