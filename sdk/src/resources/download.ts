import { writeFile } from 'node:fs/promises';
import { RoomtoneError } from '../core/errors.js';
import type { HttpClient } from '../core/http.js';
import type { Generation, GenerationOutput } from '../types.js';
import type { Generations } from './generations.js';

/** What `download` takes: a generation (its first output), one output item, or an output URL. */
export type DownloadTarget = Generation | GenerationOutput | string | URL;

export interface DownloadOptions {
  /** Also write the bytes to this file path. */
  to?: string;
  /** Milliseconds the download may take (default 2 minutes). */
  timeout?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;

/** The answer statuses of an output URL that has expired (valid 15 minutes): a fresh read gives a new one. */
const EXPIRED = new Set([401, 403, 404, 410]);

function isGeneration(target: DownloadTarget): target is Generation {
  return typeof target === 'object' && !(target instanceof URL) && (target as { object?: unknown }).object === 'generation';
}

function urlOf(target: DownloadTarget): string {
  if (typeof target === 'string') return target;
  if (target instanceof URL) return target.toString();
  if (isGeneration(target)) {
    const first = target.output[0];
    if (!first) throw new RoomtoneError(`Generation ${target.id} has no output to download (status ${target.status}).`);
    return first.url;
  }
  return target.url;
}

/**
 * Follow an output's signed URL to its bytes (and to a file with `{ to }`). The URL is signed:
 * the API key is never sent with it. Given a generation whose URL has expired (URLs are valid
 * 15 minutes from the read), it reads the generation again for a fresh URL, once.
 */
export async function download(http: HttpClient, generations: Generations, target: DownloadTarget, options: DownloadOptions = {}): Promise<Buffer> {
  const fetchOnce = async (url: string): Promise<Response> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeout ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await http.settings.fetch(url, { signal: controller.signal });
      // The body is read inside the deadline.
      const bytes = new Uint8Array(await response.arrayBuffer());
      return new Response(bytes, { status: response.status, headers: response.headers });
    } catch (error) {
      throw new RoomtoneError(`Download of ${url} failed: ${(error as Error).message}.`, { cause: error });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  };
  let response = await fetchOnce(urlOf(target));
  if (!response.ok && EXPIRED.has(response.status) && isGeneration(target)) {
    response = await fetchOnce(urlOf(await generations.retrieve(target.id, options.signal ? { signal: options.signal } : {})));
  }
  if (!response.ok) throw new RoomtoneError(`Download failed: the output URL answered ${response.status}${isGeneration(target) ? '' : ' (output URLs are valid 15 minutes: read the generation again for a fresh one, or pass the generation itself)'}.`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (options.to) await writeFile(options.to, bytes);
  return bytes;
}
