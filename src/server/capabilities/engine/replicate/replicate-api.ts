import { config } from '@/server/platform/config';
import { BackendError, httpFailure } from '../backends/errors';

/**
 * Replicate's HTTP API (api.replicate.com/v1), the calls Roomtone makes, over plain fetch. Not
 * the `replicate` client: it retries a throttled call five times on its own, with no way to turn
 * that off (and, its jittered delay never being an integer, without sleeping), under Roomtone's
 * own retries. Here every call is made once; run-backend's retry policy decides what follows.
 */
export interface Prediction {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  metrics?: { predict_time?: number };
}

export interface ReplicateFile {
  id: string;
  urls: { get: string };
}

function endpoint(pathname: string): string {
  return `${config().REPLICATE_BASE_URL.replace(/\/$/, '')}${pathname}`;
}

async function call(what: string, pathname: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(endpoint(pathname), { ...init, headers: { authorization: `Bearer ${config().REPLICATE_API_TOKEN ?? ''}`, ...(init.headers as Record<string, string> | undefined) } });
  } catch (error) {
    throw new BackendError('transient', `${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!res.ok) throw httpFailure(what, res.status, await res.text().catch(() => ''), res.headers);
  return res;
}

export async function uploadFile(bytes: Buffer, type: string, metadata: Record<string, string>, signal: AbortSignal): Promise<ReplicateFile> {
  const form = new FormData();
  form.append('content', new Blob([new Uint8Array(bytes)], { type }), `input.${type.split('/')[1] ?? 'bin'}`);
  form.append('metadata', new Blob([JSON.stringify(metadata)], { type: 'application/json' }));
  const res = await call('file upload', '/files', { method: 'POST', body: form, signal });
  return (await res.json()) as ReplicateFile;
}

export async function deleteFile(id: string, signal: AbortSignal): Promise<void> {
  await call('file delete', `/files/${encodeURIComponent(id)}`, { method: 'DELETE', signal });
}

export interface CreatePrediction {
  model: { owner: string; name: string } | { version: string };
  input: Record<string, unknown>;
  webhook?: string | undefined;
  webhookEvents?: string[] | undefined;
  /** Prefer: wait=<seconds> (1–60): a fast model answers within this call. */
  waitSeconds: number;
}

/**
 * Creates a prediction: for an official model by name (POST /models/<owner>/<name>/predictions)
 * or for a version (POST /predictions). Replicate runs only its official models by name; a
 * community model by name answers 404 (or 422), which `unofficialModel` turns into a message
 * the operator can act on.
 */
export async function createPrediction(body: CreatePrediction, signal: AbortSignal): Promise<Prediction> {
  const byVersion = 'version' in body.model;
  const pathname = 'version' in body.model ? '/predictions' : `/models/${encodeURIComponent(body.model.owner)}/${encodeURIComponent(body.model.name)}/predictions`;
  try {
    const res = await call('prediction create', pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: `wait=${body.waitSeconds}` },
      body: JSON.stringify({
        ...('version' in body.model ? { version: body.model.version } : {}),
        input: body.input,
        ...(body.webhook ? { webhook: body.webhook, webhook_events_filter: body.webhookEvents ?? ['completed'] } : {}),
      }),
      signal,
    });
    return (await res.json()) as Prediction;
  } catch (error) {
    if (!byVersion && error instanceof BackendError && /HTTP (404|422)\b/.test(error.message) && 'owner' in body.model) throw unofficialModel(body.model, error);
    throw error;
  }
}

function unofficialModel(model: { owner: string; name: string }, cause: BackendError): BackendError {
  return new BackendError(
    'failed',
    `Replicate runs only its official models by name, and ${model.owner}/${model.name} answered as if it is not one (${cause.message.slice(0, 120)}): pin a version, replicate:${model.owner}/${model.name}:<64-hex version id> (the model's API page lists it)`,
    { cause },
  );
}

export async function getPrediction(id: string, signal: AbortSignal): Promise<Prediction> {
  const res = await call('prediction read', `/predictions/${encodeURIComponent(id)}`, { signal });
  return (await res.json()) as Prediction;
}

export async function cancelPrediction(id: string, signal: AbortSignal): Promise<void> {
  await call('prediction cancel', `/predictions/${encodeURIComponent(id)}/cancel`, { method: 'POST', signal });
}
