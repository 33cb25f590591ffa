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
