/** The blob storage port, implemented by the local store (storage.ts) and the S3 adapter (s3.ts). */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /**
   * The bytes of an object that holds at most `maxBytes`; a bigger one throws BlobTooLarge
   * without being read whole (its size is known first, and the read stops past the limit).
   */
  getAtMost(key: string, maxBytes: number): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** A URL readable without a key until `expiresAt` (Unix seconds). */
  signedUrl(key: string, expiresAt: number): Promise<string>;
}

const KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_./-]{0,255}$/;

export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
}

/**
 * The store could not be written or read (a folder that refuses writes, a full disk, a bucket
 * answering 5xx or not at all): not the request's fault. The doors answer 503
 * service_unavailable with Retry-After; intake stores the inputs before anything is created or
 * charged, so a refused creation leaves nothing behind.
 */
export class StorageUnavailableError extends Error {
  constructor(operation: string, key: string, cause: unknown) {
    super(`storage unavailable: ${operation} ${key}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** The last store failure of this process (readiness probes again after one). */
let lastFailureAt = 0;

export function storageFailure(operation: string, key: string, cause: unknown): StorageUnavailableError {
  lastFailureAt = Date.now();
  return new StorageUnavailableError(operation, key, cause);
}

/** When the store last failed in this process (ms since the epoch), or 0. */
export function lastStorageFailureAt(): number {
  return lastFailureAt;
}
