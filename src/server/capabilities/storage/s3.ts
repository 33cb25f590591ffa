// Server code only: a client component that imports this fails the build.
import 'server-only';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';

import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { assertSafeKey, storageFailure, type BlobStore } from './blob-store';
import { BlobTooLarge, readAtMost } from './read-at-most';

/**
 * S3-compatible blob store (AWS S3, MinIO, Cloudflare R2, ...). Signed URLs are SigV4
 * presigned GETs, so clients read outputs straight from the bucket, not through the app.
 * Credentials come from the SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
 * shared config, web identity, instance roles), never from this module.
 */
export interface S3BlobStoreOptions {
  bucket: string;
  /** Default us-east-1 (what MinIO and R2 accept too; R2 also takes "auto"). */
  region?: string | undefined;
  /** For non-AWS services, e.g. http://minio:9000. Unset = AWS. */
  endpoint?: string | undefined;
  /** Bucket in the path (http://host/bucket/key) instead of the host; MinIO usually needs it. */
  forcePathStyle?: boolean | undefined;
  /** Tests only; production uses the default chain. */
  credentials?: S3ClientConfig['credentials'];
  /** A connection, or a request that stops sending, fails after this (default 10 s). */
  timeoutMs?: number | undefined;
}

/** SigV4 presigned URLs cannot outlive a week. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

type Sdk = typeof import('@aws-sdk/client-s3');
type Presigner = typeof import('@aws-sdk/s3-request-presigner');

/**
 * The AWS SDK, loaded when a store first talks to its bucket: with local storage (the default)
 * no process loads it (about 0.1 CPU-s at every start of the server, the CLI and each test file).
 */
let sdkLoad: Promise<{ sdk: Sdk; presigner: Presigner }> | null = null;
let loadedSdk: Sdk | null = null;
function awsSdk(): Promise<{ sdk: Sdk; presigner: Presigner }> {
  sdkLoad ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]).then(([sdk, presigner]) => {
    loadedSdk = sdk;
    return { sdk, presigner };
  });
  return sdkLoad;
}

export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  private readonly clientConfig: S3ClientConfig;
  private clientLoad: Promise<S3Client> | null = null;

  constructor(options: S3BlobStoreOptions) {
    if (!options.bucket) throw new Error('S3BlobStore needs a bucket');
    this.bucket = options.bucket;
    const custom = Boolean(options.endpoint);
    this.clientConfig = {
      region: options.region || 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // A bucket that does not answer must not hold a request: the SDK itself waits forever.
      // Two attempts (one retry of a 5xx or a timeout), each bounded.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: Math.min(5_000, options.timeoutMs ?? 10_000), requestTimeout: options.timeoutMs ?? 10_000, throwOnRequestTimeout: true },
      // Since SDK 3.729 every PutObject carries CRC checksums by default, which several
      // S3-compatible services reject or mis-handle; on those, only send what S3 requires.
      ...(custom ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
    };
  }

  /** The SDK client of this store, made on first use. */
  client(): Promise<S3Client> {
    this.clientLoad ??= awsSdk().then(({ sdk }) => new sdk.S3Client(this.clientConfig));
    return this.clientLoad;
  }

  private async connected(): Promise<{ sdk: Sdk; presigner: Presigner; client: S3Client }> {
    const [loaded, client] = await Promise.all([awsSdk(), this.client()]);
    return { ...loaded, client };
  }

  /** Closes the client's connections (a store made for a while, e.g. in tests). */
  async destroy(): Promise<void> {
    if (this.clientLoad) (await this.clientLoad).destroy();
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    try {
      const { sdk, client } = await this.connected();
      await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }));
    } catch (error) {
      throw storageFailure('write', key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    assertSafeKey(key);
    try {
      const { sdk, client } = await this.connected();
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!res.Body) return Buffer.alloc(0);
      return Buffer.from(await res.Body.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return null;
      throw storageFailure('read', key, error);
    }
  }

  /**
   * GetObject answers the object's size (Content-Length) before its body: a bigger object is
   * refused there and its body discarded unread; the read itself stops past the limit too.
   */
  async getAtMost(key: string, maxBytes: number): Promise<Buffer | null> {
    assertSafeKey(key);
    const controller = new AbortController();
    let res;
    try {
      const { sdk, client } = await this.connected();
      res = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: controller.signal });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw storageFailure('read', key, error);
    }
    const body = res.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
    const stop = () => {
      body?.destroy?.();
      controller.abort();
    };
    if (res.ContentLength !== undefined && res.ContentLength > maxBytes) {
      stop();
      throw new BlobTooLarge(key, res.ContentLength, maxBytes);
    }
    if (!body) return Buffer.alloc(0);
    return readAtMost(key, body, maxBytes, stop);
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    // S3 answers 204 for a missing key too, matching the local store's `rm --force`.
    try {
      const { sdk, client } = await this.connected();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw storageFailure('delete', key, error);
    }
  }

  /**
   * Presigned GET valid until `expiresAt` (Unix seconds, the app clock). The signature date
   * is the real time (S3 checks it), the duration comes from the app clock, so the URL lives
   * as long as the API says even when tests move the app clock.
   */
  async signedUrl(key: string, expiresAt: number): Promise<string> {
    assertSafeKey(key);
    const expiresIn = Math.max(1, Math.floor(expiresAt - clock.nowSeconds()));
    if (expiresIn > MAX_PRESIGN_SECONDS) {
      throw new Error(`S3 presigned URLs last at most 7 days; asked for ${expiresIn} s`);
    }
    const { sdk, presigner, client } = await this.connected();
    return presigner.getSignedUrl(client, new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn });
  }

}

/** A missing object; a missing bucket is a misconfiguration and must surface. */
function isNotFound(error: unknown): boolean {
  // An error thrown before the SDK loaded cannot be one of its answers.
  if (!loadedSdk || !(error instanceof loadedSdk.S3ServiceException)) return false;
  if (error.name === 'NoSuchKey') return true;
  // Some S3-compatible services answer a bare 404 without an error document.
  return error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}

/**
 * The store described by S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE and S3_TIMEOUT_MS.
 * Throws when S3_BUCKET is missing, so a misconfigured STORAGE_DRIVER=s3 fails at start.
 */
/** The S3_* settings, read through config(). */
function s3Settings(): Record<string, string | undefined> {
  const c = config();
  return { S3_BUCKET: c.S3_BUCKET, S3_REGION: c.S3_REGION, S3_ENDPOINT: c.S3_ENDPOINT, S3_FORCE_PATH_STYLE: String(c.S3_FORCE_PATH_STYLE), S3_TIMEOUT_MS: String(c.S3_TIMEOUT_MS) };
}

export function s3StoreFromEnv(env: Readonly<Record<string, string | undefined>> = s3Settings()): S3BlobStore {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) {
    throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET (and credentials in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)');
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  return new S3BlobStore({
    bucket,
    region: env.S3_REGION?.trim() || undefined,
    endpoint: env.S3_ENDPOINT?.trim() || undefined,
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    timeoutMs: Number(env.S3_TIMEOUT_MS) > 0 ? Number(env.S3_TIMEOUT_MS) : undefined,
  });
}
