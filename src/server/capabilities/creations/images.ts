import { createHash } from 'node:crypto';
import { DomainError } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import { deadline } from '@/server/platform/deadline';
import { OutboundError, downloadDeadlineMs, safeDownload } from '@/server/capabilities/net/safe-http';
import { inspectImage, validateImageUrlString, MAX_IMAGE_BYTES, type ImageInfo } from '@/server/capabilities/images/intake';
import { blobStore, LocalBlobStore } from '@/server/capabilities/storage/storage';
import { readUploadedFile, UPLOAD_ID_PATTERN } from '@/server/capabilities/uploads/uploads';
import type { Caller } from '@/server/capabilities/access/caller';

/**
 * Received images of a creation request: file parts of a multipart request, https URLs
 * downloaded through the SSRF-safe client (all of a request's URLs share one deadline, 30 s
 * after the request arrived),
 * a valid signed output URL of this service (chaining), read from storage directly, or an
 * uploaded file (file_…, create_upload).
 */
export interface ImageSource {
  /** image, mask, layers[0].element */
  param: string;
  value: string;
}

export interface ReceivedImage {
  param: string;
  bytes: Buffer;
  /** sha256 of the bytes, for idempotency comparisons and storage names. */
  digest: string;
  /** Format and size facts (not for masks, which mask analysis checks itself). */
  info: ImageInfo | null;
}

/** Multipart file parts are referenced from the JSON input by an unguessable per-request token. */
export class FileParts {
  private readonly token: string;
  constructor(
    private readonly files: ReadonlyMap<string, Buffer>,
    nonce: string,
  ) {
    this.token = `multipart-file:${nonce}:`;
  }
  reference(field: string): string {
    return `${this.token}${field}`;
  }
  resolve(value: string): Buffer | null {
    if (!value.startsWith(this.token)) return null;
    return this.files.get(value.slice(this.token.length)) ?? null;
  }
  /** The field name behind a reference (for hashing), or null for a URL. */
  fieldOf(value: string): string | null {
    return value.startsWith(this.token) ? value.slice(this.token.length) : null;
  }
}

/** Digests of received files, kept while the bytes live: the request hash and the stored image both need one (2 MB: ~5 ms each). */
const digests = new WeakMap<Buffer, string>();

export function sha256(bytes: Buffer | string): string {
  if (typeof bytes === 'string') return createHash('sha256').update(bytes).digest('hex');
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = createHash('sha256').update(bytes).digest('hex');
    digests.set(bytes, digest);
  }
  return digest;
}

/**
 * Fetch every image of the request (in parallel) and check its format and size. The URLs share
 * one deadline, DOWNLOAD_DEADLINE_MS after the request arrived (`receivedAt`, ms since epoch):
 * reading the request and everything before the downloads count against it.
 */
export async function receiveImages(sources: ImageSource[], parts: FileParts, caller: Caller, receivedAt: number): Promise<Map<string, ReceivedImage>> {
  const downloads = deadline(receivedAt + downloadDeadlineMs() - Date.now(), [], { reason: () => new OutboundError('aborted', 'The download deadline passed.') });
  try {
    const received = await Promise.all(
      sources.map(async (source): Promise<ReceivedImage> => {
        const bytes = await fetchImageBytes(source, parts, downloads.signal, caller);
        // Masks get their own checks (PNG only → mask_invalid) in mask analysis. The image is
        // decoded on the thread pool while this thread hashes it.
        const inspected = source.param === 'mask' ? null : inspectImage(bytes, source.param);
        const digest = sha256(bytes);
        return { param: source.param, bytes, digest, info: await inspected };
      }),
    );
    return new Map(received.map((r) => [r.param, r]));
  } finally {
    downloads.dispose();
  }
}

async function fetchImageBytes(source: ImageSource, parts: FileParts, deadline: AbortSignal, caller: Caller): Promise<Buffer> {
  const file = parts.resolve(source.value);
  if (file) return file;
  // A file sent before with create_upload (file_…), of the caller's organization and mode.
  if (UPLOAD_ID_PATTERN.test(source.value)) return readUploadedFile(caller, source.value, source.param);
  // Our own signed output URL (chaining) is read from storage, whatever its scheme (the local
  // store's base URL may be http in development).
  const store = blobStore();
  if (store instanceof LocalBlobStore) {
    const key = store.parseSignedUrl(source.value, clock.nowSeconds());
    if (key) {
      const bytes = await store.get(key);
      if (!bytes) throw new DomainError('image_url_unreachable', 'This image has been deleted (images are kept 24 hours after the generation ends).', { param: source.param });
      return bytes;
    }
  }
  const url = validateImageUrlString(source.value, source.param);
  const download = await safeDownload(url, { maxBytes: MAX_IMAGE_BYTES, param: source.param, signal: deadline });
  return download.body;
}
