import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { sleep, timeoutSignal } from '@/server/platform/deadline';
import { safeRequest } from '@/server/capabilities/net/safe-http';
import type { BackendAdapter, BackendRequest } from '../backends/adapter';
import { BackendError, kindForStatus, looksLikeRefusal } from '../backends/errors';
import { callbackToken, waitForBackendEvent } from '../backends/events';
import { fillRequestTemplate } from '../backends/templates';
import { envNameFor } from '../backends/settings';
import { cancelPrediction, createPrediction, deleteFile, getPrediction, uploadFile, type Prediction } from './replicate-api';
import { progressFromLogs } from './log-progress';

/**
 * Replicate (hosted): inputs uploaded with the files API (deleted when done), a prediction
 * created for the configured model or version with `Prefer: wait`, then followed by webhook
 * (when PUBLIC_BASE_URL is https) or polling with backoff; canceled when Roomtone gives up;
 * the output downloaded through the SSRF-safe client (it is a URL the backend chose). Progress
 * comes from the percentages the model prints in its logs, read with each poll.
 */
const MAX_OUTPUT_BYTES = 200 * 1024 * 1024;
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 5_000;
/**
 * With webhooks the prediction is still read this often while it runs: for its progress (the
 * logs), and in case a callback is lost.
 */
const WEBHOOK_READ_MS = 5_000;

const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

function firstUrl(output: unknown): string | null {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.find((o): o is string => typeof o === 'string') ?? null;
  return null;
}

async function cancelQuietly(id: string): Promise<void> {
  try {
    await cancelPrediction(id, timeoutSignal(10_000));
  } catch (error) {
    log.warn('Replicate cancel failed', { prediction: id, error: String(error) });
  }
}

async function download(url: string, signal: AbortSignal): Promise<Buffer> {
  // keepAlive: the delivery host is the same for every output; a warm connection skips a TLS handshake.
  const res = await safeRequest(url, { method: 'GET', followRedirects: true, maxResponseBytes: MAX_OUTPUT_BYTES, timeoutMs: 120_000, signal, keepAlive: true });
  if (res.status < 200 || res.status > 299) throw new BackendError(kindForStatus(res.status), `output download answered HTTP ${res.status}`);
  return res.body;
}

/** The prediction's progress: its logs' last percentage while it runs (null when it prints none). */
function reportProgress(req: BackendRequest, prediction: Prediction): void {
  if (prediction.status === 'processing') req.progress(progressFromLogs(prediction.logs));
}

export const replicateAdapter: BackendAdapter = {
  async generate(req: BackendRequest, onRemoteId) {
    if (req.spec.kind !== 'replicate') throw new Error('not a Replicate spec');
    const { spec, signal } = req;
    const files: string[] = [];
    const upload = async (bytes: Buffer, type: string): Promise<string> => {
      const file = await uploadFile(bytes, type, { roomtone_generation: req.generationId }, signal);
      files.push(file.id);
      return file.urls.get;
    };
    // Inputs are not kept at Replicate longer than the call (predictions themselves expire there
    // after an hour). Once the prediction has ended they are deleted while the output downloads.
    let deleting: Promise<unknown> | null = null;
    const deleteInputs = () =>
      (deleting ??= Promise.all(files.map((id) => deleteFile(id, timeoutSignal(10_000)).catch((e: unknown) => log.warn('Replicate file delete failed', { file: id, error: String(e) })))));
    try {
      const input = fillRequestTemplate(req, {
        image: await upload(req.image, 'image/jpeg'),
        mask: req.mask ? await upload(req.mask, 'image/png') : null,
      });
      const base = config().publicBaseUrl;
      const webhook = base.startsWith('https://') ? `${base}/hooks/replicate/${callbackToken(req.generationId)}` : undefined;
      // Sync mode: a fast model answers within this call. Never wait past our own deadline,
      // and never abort the create itself (we would lose the id to cancel).
      const remainingS = Math.floor((req.deadlineAt - Date.now()) / 1000);
      const wait = Math.max(1, Math.min(config().REPLICATE_WAIT_SECONDS, remainingS - 1));
      let prediction: Prediction;
      try {
        prediction = await createPrediction(
          { model: spec.version ? { version: spec.version } : { owner: spec.owner, name: spec.name }, input, webhook, webhookEvents: ['completed'], waitSeconds: wait },
          timeoutSignal((wait + 30) * 1000),
        );
      } catch (error) {
        if (error instanceof BackendError && error.kind === 'failed' && !spec.version) log.error(`${envNameFor(req.operation)}: ${error.message}`);
        throw error;
      }
      onRemoteId(prediction.id);
      reportProgress(req, prediction);
      let delay = POLL_FIRST_MS;
      let throttledMs = 0;
      while (!TERMINAL.has(prediction.status)) {
        if (webhook) await waitForBackendEvent(prediction.id, Math.max(WEBHOOK_READ_MS, throttledMs), signal);
        else await sleep(Math.max(delay, throttledMs), signal);
        throttledMs = 0;
        if (signal.aborted) {
          await cancelQuietly(prediction.id);
          throw new BackendError('timeout', `prediction ${prediction.id} did not finish in time; canceled`);
        }
        delay = Math.min(POLL_MAX_MS, Math.round(delay * 1.6));
        try {
          prediction = await getPrediction(prediction.id, signal);
          reportProgress(req, prediction);
        } catch (error) {
          // A failed read is not a failed prediction: it keeps running, so read again later (at
          // the backend's Retry-After when it gave one), until the deadline cancels it.
          if (error instanceof BackendError && error.retryAfterMs !== null) throttledMs = error.retryAfterMs;
          if (!signal.aborted) log.warn('Replicate prediction read failed; reading again', { prediction: prediction.id, error: String(error) });
        }
      }
      void deleteInputs();
      const answer = { remoteId: prediction.id, backendMs: prediction.metrics?.predict_time !== undefined ? Math.round(prediction.metrics.predict_time * 1000) : null, costMicroUsd: null };
      if (prediction.status !== 'succeeded') {
        const message = typeof prediction.error === 'string' ? prediction.error : JSON.stringify(prediction.error ?? prediction.status);
        throw new BackendError(looksLikeRefusal(message) ? 'refused' : prediction.status === 'failed' ? 'transient' : 'failed', `prediction ${prediction.id} ${prediction.status}: ${message}`);
      }
      const url = firstUrl(prediction.output);
      if (!url) throw new BackendError('failed', `prediction ${prediction.id} succeeded without an image URL`);
      return { ...answer, bytes: await download(url, signal) };
    } finally {
      await deleteInputs();
    }
  },
};
