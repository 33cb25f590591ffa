import { createHash } from 'node:crypto';
import { config } from '@/server/platform/config';
import { deadline, sleep, type Deadline } from '@/server/platform/deadline';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { outputSizeForQuality, outputSizeForScale, type EncodedOutput } from '../builtin/encode';
import type { RawImage } from '../builtin/types';
import { qualityOf, type StoredInput } from '@/server/generations/stored-json';
import type { BackendAdapter, BackendAnswer, BackendRequest } from './adapter';
import { asBackendError, BackendError } from './errors';
import { finishOutput, maskAlpha, maskPng, modelJpeg, rgbAt, sendSizeFor, straightSize, type Size } from './images';
import { buildPrompt, NEGATIVE_PROMPT } from './prompt';
import { modelLabel, type BackendOperation, type BackendSpec } from './settings';
import { replicateAdapter } from '../replicate/replicate-adapter';
import { comfyuiAdapter } from '../comfyui/comfyui-adapter';
import { openaiAdapter } from '../openai/openai-adapter';

/**
 * The generative side of the engine port: which backend serves a generation, and the rules
 * every backend shares (prompt, sizes, mask compositing, retries, deadline, operator record).
 */

function adapterFor(spec: BackendSpec): BackendAdapter {
  switch (spec.kind) {
    case 'replicate':
      return replicateAdapter;
    case 'comfyui':
      return comfyuiAdapter;
    case 'openai':
      return openaiAdapter;
  }
}

/** Fires when the workers stop (shutdown): calls in flight cancel their remote jobs. */
const stopping = new AbortController();
/** The backend calls running in this process. */
const inFlight = new Set<Promise<unknown>>();

/**
 * Stops the backend calls in flight and resolves once each has ended: its remote job canceled,
 * its attempt recorded, its generation left in progress for the job's retry. A stop that did not
 * wait could exit during a Replicate create held open by `Prefer: wait` (which is never aborted:
 * the prediction's id comes with its answer), and leave that prediction running, billed to the
 * operator, with nothing to cancel it. So a stop can take up to REPLICATE_WAIT_SECONDS.
 */
export async function interruptBackendCalls(): Promise<void> {
  stopping.abort();
  await Promise.allSettled([...inFlight]);
}

export interface BackendJob {
  generationId: string;
  operation: BackendOperation;
  spec: BackendSpec;
  input: StoredInput;
  images: Map<string, Buffer>;
  seed: string;
}

async function record(job: BackendJob, attempt: number, outcome: string, started: number, remoteId: string | null, answer: BackendAnswer | null, error: string | null): Promise<void> {
  await db()
    .engineBackendRun.create({
      data: {
        id: newId('ebr'),
        generationId: job.generationId,
        operation: job.operation,
        backend: job.spec.kind,
        model: modelLabel(job.spec),
        attempt,
        outcome,
        remoteId,
        wallMs: Math.round(performance.now() - started),
        backendMs: answer?.backendMs ?? null,
        costMicroUsd: answer?.costMicroUsd ?? null,
        error: error?.slice(0, 500) ?? null,
      },
    })
    .catch((e: unknown) => log.warn('could not record a backend run', { generationId: job.generationId, error: String(e) }));
}

export async function runBackend(job: BackendJob): Promise<EncodedOutput & { method: string }> {
  const call = callBackend(job);
  inFlight.add(call);
  try {
    return await call;
  } finally {
    inFlight.delete(call);
  }
}

async function callBackend(job: BackendJob): Promise<EncodedOutput & { method: string }> {
  const { operation } = job;
  const imageBytes = job.images.get('image')!;
  const original = await straightSize(imageBytes);
  const scale = operation === 'upscale' ? (job.input.scale === 'x4' ? 4 : 2) : null;
  const target: Size = scale ? outputSizeForScale(original.width, original.height, scale) : outputSizeForQuality(original.width, original.height, qualityOf(job.input));
  // Upscales send the original; the rest send the target size, capped for the model.
  const size = scale ? original : sendSizeFor(target);
  const maskBytes = operation === 'edit_prompt' ? (job.images.get('mask') ?? null) : null;
  // Compositing happens at the target size: "unchanged outside the mask" holds for the output.
  const alpha = maskBytes ? await maskAlpha(maskBytes, target) : null;
  const source = alpha ? await rgbAt(imageBytes, target) : null;
  const request = {
    generationId: job.generationId,
    operation,
    spec: job.spec,
    image: await modelJpeg(imageBytes, size),
    // The same alpha when the model gets the target size (up to 2k): analysing a 2k mask is ~100 ms.
    mask: maskBytes ? await maskPng(alpha && size.width === target.width && size.height === target.height ? alpha : await maskAlpha(maskBytes, size), size) : null,
    size,
    prompt: await buildPrompt(operation, { style: job.input.style ?? undefined, categories: job.input.categories ?? null, prompt: job.input.prompt, hasMask: maskBytes !== null }),
    negativePrompt: NEGATIVE_PROMPT,
    scale,
    seed: createHash('sha256').update(job.seed).digest().readUInt32BE(0) & 0x7fffffff,
  };
  const adapter = adapterFor(job.spec);
  // Built by platform/deadline: Node 20's AbortSignal.any can lose a timeout signal to the GC.
  const limit = deadline(config().ENGINE_TIMEOUT_MS, [stopping.signal]);
  try {
    return await attemptAll(job, adapter, request, target, source, alpha, limit);
  } finally {
    limit.dispose();
  }
}

async function attemptAll(
  job: BackendJob,
  adapter: BackendAdapter,
  request: Omit<BackendRequest, 'attempt' | 'signal' | 'deadlineAt'>,
  target: Size,
  source: RawImage | null,
  alpha: Uint8Array | null,
  limit: Deadline,
): Promise<EncodedOutput & { method: string }> {
  const { operation } = job;
  const deadline = limit.signal;
  const deadlineAt = limit.at;
  const attempts = 1 + config().ENGINE_RETRIES;
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    let remoteId: string | null = null;
    let answer: BackendAnswer | null = null;
    try {
      answer = await adapter.generate({ ...request, attempt, signal: deadline, deadlineAt }, (id) => (remoteId = id));
      const output = await finishOutput(answer.bytes, target, source, alpha);
      await record(job, attempt, 'succeeded', started, answer.remoteId, answer, null);
      return { ...output, method: `${operation}:${job.spec.kind}` };
    } catch (thrown) {
      const error = stopping.signal.aborted ? new BackendError('interrupted', 'the worker is stopping', { cause: thrown }) : asBackendError(thrown, deadline);
      await record(job, attempt, error.kind, started, answer?.remoteId ?? remoteId, answer, error.message);
      log.warn('backend call failed', { generationId: job.generationId, backend: job.spec.kind, attempt, kind: error.kind, error: error.message });
      if (error.kind !== 'transient' || attempt >= attempts || deadline.aborted) throw error.kind === 'transient' && deadline.aborted ? new BackendError('timeout', error.message) : error;
      await sleep(Math.min(1000 * 2 ** (attempt - 1), 10_000), deadline);
      if (deadline.aborted) throw new BackendError(stopping.signal.aborted ? 'interrupted' : 'timeout', 'the backend call was given up');
    }
  }
}
