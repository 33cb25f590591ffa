import { config } from '@/server/platform/config';
import { BackendError, httpFailure } from '../backends/errors';

/** ComfyUI's HTTP API at COMFYUI_URL (with COMFYUI_API_KEY as a bearer token for a proxy in front). */
export function endpoint(pathname: string): string {
  return `${config().COMFYUI_URL!.replace(/\/$/, '')}${pathname}`;
}

export function authHeaders(): Record<string, string> {
  const key = config().COMFYUI_API_KEY;
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** One call, made once: a non-2xx answer is a BackendError (with the answer's Retry-After). */
export async function comfy(pathname: string, init: RequestInit, what: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(endpoint(pathname), { ...init, headers: { ...(init.headers as Record<string, string> | undefined), ...authHeaders() } });
  } catch (error) {
    throw new BackendError('transient', `${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!res.ok) throw httpFailure(what, res.status, await res.text().catch(() => ''), res.headers);
  return res;
}
