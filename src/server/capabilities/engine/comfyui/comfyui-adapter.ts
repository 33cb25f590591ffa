import { log } from '@/server/platform/logger';
import { sleep, timeoutSignal } from '@/server/platform/deadline';
import type { BackendAdapter, BackendRequest } from '../backends/adapter';
import { BackendError, looksLikeRefusal } from '../backends/errors';
import { track } from '../backends/in-flight';
import { fillRequestTemplate } from '../backends/templates';
import { comfy, endpoint } from './comfyui-http';
import { followProgress } from './comfyui-progress';

/**
 * ComfyUI (self-hosted GPU), through its HTTP API: inputs sent with POST /upload/image, the
 * workflow template (API format, engine-templates/comfyui/<workflow>.json, or
 * <workflow>.unmasked.json for a prompt edit without a mask) submitted with POST /prompt,
 * completion read from GET /history/<prompt_id> (polling with backoff), progress from its
 * websocket's `progress` messages, the output fetched from GET /view. On give-up the prompt is
 * removed from the queue and the run interrupted; the history entry (which holds the prompt
 * text) is deleted once the run has stopped. COMFYUI_URL is the operator's own server (often
 * on a private network), so these calls use plain fetch, not the SSRF-safe client that guards
 * URLs chosen by others.
 */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 3_000;
/**
 * After a give-up, how long to wait for the interrupted run to stop and write its history entry
 * before deleting it (ComfyUI writes it only when the run ends, after the current step).
 */
export const HISTORY_AFTER_STOP_MS = 30_000;

interface HistoryEntry {
  outputs?: Record<string, { images?: Array<{ filename: string; subfolder?: string; type?: string }> }>;
  status?: { status_str?: string; completed?: boolean; messages?: Array<[string, Record<string, unknown>]> };
}

async function upload(bytes: Buffer, name: string, signal: AbortSignal): Promise<string> {
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(bytes)]), name);
  form.set('type', 'input');
  form.set('overwrite', 'true');
  const res = await comfy('/upload/image', { method: 'POST', body: form, signal }, 'image upload');
  const body = (await res.json()) as { name: string; subfolder?: string };
  return body.subfolder ? `${body.subfolder}/${body.name}` : body.name;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

async function readHistory(promptId: string, signal: AbortSignal): Promise<HistoryEntry | undefined> {
  const res = await comfy(`/history/${encodeURIComponent(promptId)}`, { signal }, 'history');
  return ((await res.json()) as Record<string, HistoryEntry>)[promptId];
}

async function deleteHistory(promptId: string): Promise<void> {
  await comfy('/history', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ delete: [promptId] }), signal: timeoutSignal(10_000) }, 'history delete').catch((e: unknown) =>
    log.warn('ComfyUI history delete failed', { promptId, error: String(e) }),
  );
}

/** Whether the prompt is still queued or running (GET /queue). */
async function stillQueued(promptId: string): Promise<boolean> {
  const res = await comfy('/queue', { signal: timeoutSignal(10_000) }, 'queue');
  const queue = (await res.json()) as { queue_running?: unknown[][]; queue_pending?: unknown[][] };
  return [...(queue.queue_running ?? []), ...(queue.queue_pending ?? [])].some((item) => item[1] === promptId);
}

/**
 * Deletes a given-up prompt's history entry once the run has stopped: ComfyUI writes the entry
 * only when the interrupted run ends, so a delete sent with the interrupt misses it and the
 * prompt text stays on the server. Polls until the entry appears, or the prompt is neither
 * queued nor running (it was removed before it ran: no entry will come), or a bound passes.
 */
async function forgetWhenStopped(promptId: string): Promise<void> {
  const until = Date.now() + HISTORY_AFTER_STOP_MS;
  let delay = 250;
  while (Date.now() < until) {
    try {
      if (await readHistory(promptId, timeoutSignal(10_000))) return await deleteHistory(promptId);
      // The entry is written before the prompt leaves the queue: read it once more after.
      if (!(await stillQueued(promptId))) {
        if (await readHistory(promptId, timeoutSignal(10_000))) await deleteHistory(promptId);
        return;
      }
    } catch (error) {
      log.warn('ComfyUI history check failed after a give-up', { promptId, error: String(error) });
    }
    await sleep(delay);
    delay = Math.min(2_000, delay * 2);
  }
  log.warn('ComfyUI run did not stop in time after its interrupt; its history entry (with the prompt) may remain', { promptId, waitedMs: HISTORY_AFTER_STOP_MS });
}

async function giveUp(promptId: string): Promise<void> {
  const quiet = (p: Promise<unknown>) => p.catch((e: unknown) => log.warn('ComfyUI cancel failed', { promptId, error: String(e) }));
  const signal = timeoutSignal(10_000);
  await quiet(comfy('/queue', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ delete: [promptId] }), signal }, 'queue delete'));
  await quiet(comfy('/interrupt', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ prompt_id: promptId }), signal }, 'interrupt'));
  // In the background: the generation fails now; a stop of the workers still waits for it.
  void track(forgetWhenStopped(promptId));
}

function failureText(entry: HistoryEntry): string {
  const error = entry.status?.messages?.find(([type]) => type === 'execution_error')?.[1];
  return error ? String(error.exception_message ?? error.exception_type ?? 'execution error') : (entry.status?.status_str ?? 'error');
}

export const comfyuiAdapter: BackendAdapter = {
  async generate(req: BackendRequest, onRemoteId) {
    const { signal } = req;
    const stamp = `${req.generationId}-${req.attempt}`;
    const workflow = fillRequestTemplate(req, {
      image: await upload(req.image, `roomtone-${stamp}.jpg`, signal),
      mask: req.mask ? await upload(req.mask, `roomtone-${stamp}-mask.png`, signal) : null,
    });
    // ComfyUI sends a run's progress messages to the websocket client that submitted it.
    const clientId = `roomtone-${stamp}`;
    const progress = await followProgress(endpoint('/ws'), clientId, workflow, req.progress);
    let promptId: string | null = null;
    let stopped = false;
    try {
      const submitted = await comfy('/prompt', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ prompt: workflow, client_id: clientId }), signal }, 'prompt');
      promptId = ((await submitted.json()) as { prompt_id: string }).prompt_id;
      progress.follow(promptId);
      onRemoteId(promptId);
      const started = Date.now();
      let delay = POLL_FIRST_MS;
      let entry: HistoryEntry | undefined;
      for (;;) {
        let throttledMs = 0;
        try {
          entry = await readHistory(promptId, signal);
        } catch (error) {
          // A failed read is not a failed run: it goes on, so read again later (at the backend's
          // Retry-After when it gave one), until the deadline gives it up.
          if (error instanceof BackendError && error.retryAfterMs !== null) throttledMs = error.retryAfterMs;
          if (!signal.aborted) log.warn('ComfyUI history read failed; reading again', { promptId, error: String(error) });
        }
        if (entry && (entry.status?.completed || entry.status?.status_str === 'error')) break;
        await sleep(Math.max(delay, throttledMs), signal);
        if (signal.aborted) {
          stopped = true;
          await giveUp(promptId);
          throw new BackendError('timeout', `ComfyUI prompt ${promptId} did not finish in time; removed from the queue`);
        }
        delay = Math.min(POLL_MAX_MS, Math.round(delay * 1.6));
      }
      const backendMs = Date.now() - started;
      if (entry.status?.status_str === 'error') {
        const text = failureText(entry);
        throw new BackendError(looksLikeRefusal(text) ? 'refused' : 'transient', `ComfyUI prompt ${promptId} failed: ${text}`);
      }
      const image = Object.keys(entry.outputs ?? {})
        .sort((a, b) => Number(a) - Number(b) || a.localeCompare(b))
        .flatMap((node) => entry.outputs![node]!.images ?? [])
        .find((i) => (i.type ?? 'output') === 'output');
      if (!image) throw new BackendError('failed', `ComfyUI prompt ${promptId} produced no output image (does the workflow end in a SaveImage node?)`);
      const query = new URLSearchParams({ filename: image.filename, subfolder: image.subfolder ?? '', type: image.type ?? 'output' });
      const view = await comfy(`/view?${query}`, { signal }, 'view');
      return { bytes: Buffer.from(await view.arrayBuffer()), remoteId: promptId, backendMs, costMicroUsd: null };
    } finally {
      progress.close();
      // ComfyUI keeps every run in its history (with the prompt text) until told otherwise; a
      // given-up run's entry is deleted once it exists (giveUp).
      if (promptId && !stopped) await deleteHistory(promptId);
    }
  },
};
