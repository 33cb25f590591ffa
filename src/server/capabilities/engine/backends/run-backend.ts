import { createHash } from 'node:crypto';
import { config } from '@/server/platform/config';
import { deadline, sleep, type Deadline } from '@/server/platform/deadline';
import { reportStage, type ProgressSink } from '../progress';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { outputSizeForQuality, outputSizeForScale, type EncodedOutput } from '../builtin/encode';
import { qualityOf, type StoredInput } from '@/server/capabilities/generation-object/stored-json';
import type { BackendAdapter, BackendAnswer, BackendRequest } from './adapter';
import { asBackendError, BackendError } from './errors';
import { stopping, track } from './in-flight';
import { retryDelayMs } from './retry-policy';
import { finishOutput, maskAlpha, maskPng, modelJpeg, rgbAt, sendSizeFor, straightSize, type Size } from './images';
import { buildPrompt, NEGATIVE_PROMPT } from './prompt';
import { modelLabel, type BackendOperation, type BackendSpec } from './settings';
import { replicateAdapter } from '../replicate/replicate-adapter';
import { comfyuiAdapter } from '../comfyui/comfyui-adapter';
import { openaiAdapter } from '../openai/openai-adapter';

/**
 * The generative side of the engine port: which backend serves a generation, and the rules
 * every backend shares (prompt, sizes, mask compositing, retries, deadline, progress, operator record).
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

export interface BackendJob {
  generationId: string;
  operation: BackendOperation;
  spec: BackendSpec;
  input: StoredInput;
  images: Map<string, Buffer>;
  seed: string;
  progress: ProgressSink;
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

export function runBackend(job: BackendJob): Promise<EncodedOutput & { method: string }> {
  return track(callBackend(job));
}

async function callBackend(job: BackendJob): Promise<EncodedOutput & { method: string }> {
  const { operation, progress } = job;
  reportStage(progress, 'preparing', 0);
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
  const request: PreparedRequest = {
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
  // Built by platform/deadline: Node 20's AbortSignal.any can lose a timeout signal to the GC.
  const limit = deadline(config().ENGINE_TIMEOUT_MS, [stopping.signal]);
  try {
    const output = await attempts(job, request, limit, (answer) => {
      reportStage(progress, 'finishing', 0);
      return finishOutput(answer.bytes, target, source, alpha);
    });
    return { ...output, method: `${operation}:${job.spec.kind}` };
  } finally {
    limit.dispose();
  }
}

type PreparedRequest = Omit<BackendRequest, 'attempt' | 'signal' | 'deadlineAt' | 'progress'>;

/**
 * The one retry loop (retry-policy.ts): a transient failure is tried again up to ENGINE_RETRIES
 * times, after the backend's Retry-After or an exponential backoff with jitter, and never past
 * the deadline: a wait that would end after it gives up at once.
 */
async function attempts<T>(job: BackendJob, request: PreparedRequest, limit: Deadline, finish: (answer: BackendAnswer) => Promise<T>): Promise<T> {
  const adapter = adapterFor(job.spec);
  const { signal } = limit;
  const allowed = 1 + config().ENGINE_RETRIES;
  // The model's own progress, kept from going back when a model runs several passes.
  let best = -1;
  const progress = (fraction: number | null) => {
    if (fraction !== null) best = Math.max(best, fraction);
    reportStage(job.progress, 'generating', fraction === null ? null : best);
  };
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    let remoteId: string | null = null;
    let answer: BackendAnswer | null = null;
    reportStage(job.progress, 'generating', best < 0 ? null : best);
    try {
      answer = await adapter.generate({ ...request, attempt, signal, deadlineAt: limit.at, progress }, (id) => (remoteId = id));
      // The answer passes the shared checks (size, aspect) before the attempt counts as a success.
      const output = await finish(answer);
      await record(job, attempt, 'succeeded', started, answer.remoteId, answer, null);
      return output;
    } catch (thrown) {
      const error = stopping.signal.aborted ? new BackendError('interrupted', 'the worker is stopping', { cause: thrown }) : asBackendError(thrown, signal);
      await record(job, attempt, error.kind, started, answer?.remoteId ?? remoteId, answer, error.message);
      log.warn('backend call failed', { generationId: job.generationId, backend: job.spec.kind, attempt, kind: error.kind, error: error.message });
      if (error.kind !== 'transient') throw error;
      if (signal.aborted) throw new BackendError(stopping.signal.aborted ? 'interrupted' : 'timeout', error.message, { cause: error });
      const wait = retryDelayMs(attempt, error.retryAfterMs);
      if (attempt >= allowed || wait >= limit.remainingMs()) throw error;
      await sleep(wait, signal);
      if (signal.aborted) throw new BackendError(stopping.signal.aborted ? 'interrupted' : 'timeout', 'the backend call was given up');
    }
  }
}
