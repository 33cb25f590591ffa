// Server code only: a client component that imports this fails the build.
import 'server-only';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config, type Config } from '@/server/platform/config';
import { derivedKey } from '@/server/platform/secrets';
import { s3StoreFromEnv } from './s3';
import { readAtMost, BlobTooLarge } from './read-at-most';
import { assertSafeKey, storageFailure, type BlobStore } from './blob-store';

/**
 * Blob storage port. Default: a local directory (DATA_DIR/blobs) whose files are served by the
 * app at /files/<key> behind HMAC-signed, expiring URLs. The S3-compatible adapter implements
 * the same interface with presigned GETs. Nothing writes to either store but the service itself
 * (uploads come through the app: uploads/uploads.ts).
 */
export { assertSafeKey, StorageUnavailableError, type BlobStore } from './blob-store';

function signature(key: string, expiresAt: number): string {
  return createHmac('sha256', derivedKey('file-url')).update(`${key}\n${expiresAt}`).digest('base64url');
}

export function verifyFileSignature(key: string, expiresAt: number, given: string, nowSeconds: number): boolean {
  if (!Number.isInteger(expiresAt) || expiresAt < nowSeconds) return false;
  const expected = Buffer.from(signature(key, expiresAt));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export class LocalBlobStore implements BlobStore {
  constructor(
    private readonly root: string,
    private readonly baseUrl: string,
  ) {}

  private file(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file);
    } catch (error) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw storageFailure('write', key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const file = this.file(key);
    try {
      return await fs.readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw storageFailure('read', key, error);
    }
  }

  async getAtMost(key: string, maxBytes: number): Promise<Buffer | null> {
    const file = this.file(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw storageFailure('read', key, error);
    }
    try {
      const { size } = await handle.stat();
      if (size > maxBytes) throw new BlobTooLarge(key, size, maxBytes);
      // The size again while reading: the file may have grown since the stat.
      return await readAtMost(key, handle.createReadStream({ autoClose: false }), maxBytes, () => undefined);
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await fs.rm(file, { force: true }).catch((error: unknown) => {
      throw storageFailure('delete', key, error);
    });
    // Drop the per-generation folder once empty (fails harmlessly while other files remain).
    await fs.rmdir(path.dirname(file)).catch(() => undefined);
  }

  async signedUrl(key: string, expiresAt: number): Promise<string> {
    return this.signUrl(key, expiresAt);
  }

  /** signedUrl without the promise: a page of generations signs many (generation-object/serialize.ts). */
  signUrl(key: string, expiresAt: number): string {
    // A safe key's characters (letters, digits, `_`, `.`, `-`, `/`) are its own encoding: the
    // key goes into the path as it is, each segment what encodeURIComponent gives.
    assertSafeKey(key);
    return `${this.baseUrl}/files/${key}?expires=${expiresAt}&signature=${signature(key, expiresAt)}`;
  }

  /** Is `url` one of ours (chaining without leaving the process)? Returns the key if valid. */
  parseSignedUrl(url: string, nowSeconds: number): string | null {
    if (!url.startsWith(`${this.baseUrl}/files/`)) return null;
    let parsed: URL;
    let key: string;
    try {
      parsed = new URL(url);
      key = parsed.pathname.slice('/files/'.length).split('/').map(decodeURIComponent).join('/');
    } catch {
      // Malformed: like any URL that is not a valid signed file of ours.
      return null;
    }
    const expires = Number(parsed.searchParams.get('expires'));
    const sig = parsed.searchParams.get('signature') ?? '';
    return verifyFileSignature(key, expires, sig, nowSeconds) ? key : null;
  }
}

/** The store of the configuration in force: made again when the configuration is read again (setEnv). */
let store: { of: Config; store: BlobStore } | null = null;

export function blobStore(): BlobStore {
  const c = config();
  if (store?.of !== c) store = { of: c, store: c.STORAGE_DRIVER === 's3' ? s3StoreFromEnv() : new LocalBlobStore(path.join(c.dataDir, 'blobs'), c.publicBaseUrl) };
  return store.store;
}
