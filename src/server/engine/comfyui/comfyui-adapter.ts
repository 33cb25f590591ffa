import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { sleep, timeoutSignal } from '@/server/platform/deadline';
import type { BackendAdapter, BackendRequest } from '../backends/adapter';
import { BackendError, kindForStatus, looksLikeRefusal } from '../backends/errors';
import { fillRequestTemplate } from '../backends/templates';

/**
 * ComfyUI (self-hosted GPU), through its HTTP API: inputs sent with POST /upload/image, the
 * workflow template (API format, engine-templates/comfyui/<workflow>.json) submitted with
 * POST /prompt, completion read from GET /history/<prompt_id> (polling with backoff), the
 * output fetched from GET /view. On give-up the prompt is removed from the queue and the run
 * interrupted; the history entry is deleted when done. COMFYUI_URL is the operator's own
 * server (often on a private network), so these calls use plain fetch, not the SSRF-safe
 * client that guards URLs chosen by others.
 */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 3_000;

interface HistoryEntry {
  outputs?: Record<string, { images?: Array<{ filename: string; subfolder?: string; type?: string }> }>;
  status?: { status_str?: string; completed?: boolean; messages?: Array<[string, Record<string, unknown>]> };
}

function endpoint(pathname: string): string {
  return `${config().COMFYUI_URL!.replace(/\/$/, '')}${pathname}`;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = config().COMFYUI_API_KEY;
  return { ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) };
}

async function comfy(pathname: string, init: RequestInit, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(endpoint(pathname), { ...init, headers: headers(init.headers as Record<string, string> | undefined) });
  } catch (error) {
    throw new BackendError('transient', `${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new BackendError(looksLikeRefusal(text) ? 'refused' : kindForStatus(res.status), `${what}: HTTP ${res.status} ${text.slice(0, 300)}`);
  }
  return res;
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

async function giveUp(promptId: string): Promise<void> {
  const quiet = (p: Promise<unknown>) => p.catch((e: unknown) => log.warn('ComfyUI cancel failed', { promptId, error: String(e) }));
  const json = { 'content-type': 'application/json' };
  const signal = timeoutSignal(10_000);
  await quiet(comfy('/queue', { method: 'POST', headers: json, body: JSON.stringify({ delete: [promptId] }), signal }, 'queue delete'));
  await quiet(comfy('/interrupt', { method: 'POST', headers: json, body: JSON.stringify({ prompt_id: promptId }), signal }, 'interrupt'));
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
    const submitted = await comfy('/prompt', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: workflow, client_id: 'roomtone' }), signal }, 'prompt');
    const { prompt_id: promptId } = (await submitted.json()) as { prompt_id: string };
    onRemoteId(promptId);
    const started = Date.now();
    try {
      let delay = POLL_FIRST_MS;
      let entry: HistoryEntry | undefined;
      for (;;) {
        const res = await comfy(`/history/${encodeURIComponent(promptId)}`, { signal }, 'history').catch((error: unknown) => {
          if (signal.aborted) return null;
          throw error;
        });
        entry = res ? ((await res.json()) as Record<string, HistoryEntry>)[promptId] : undefined;
        if (entry && (entry.status?.completed || entry.status?.status_str === 'error')) break;
        await sleep(delay, signal);
        if (signal.aborted) {
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
      // ComfyUI keeps every run in its history (with the prompt text) until told otherwise.
      await comfy('/history', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delete: [promptId] }), signal: timeoutSignal(10_000) }, 'history delete').catch(
        (e: unknown) => log.warn('ComfyUI history delete failed', { promptId, error: String(e) }),
      );
    }
  },
};
