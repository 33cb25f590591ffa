import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { clock } from '@/server/platform/clock';
import { startLocalS3, type LocalS3 } from '../../../../test/s3-server';
import { S3BlobStore, s3StoreFromEnv } from './s3';
import { BlobTooLarge } from './read-at-most';
import { StorageUnavailableError } from './blob-store';

/** The local S3-protocol server (test/s3-server.ts): path-style, SigV4-signed requests only. */
const BUCKET = 'roomtone-test';
let s3: LocalS3;
let endpoint = '';
const objects = () => s3.objects;
const seen = () => s3.requests;

const savedEnv = { ...process.env };
let store: S3BlobStore;

beforeAll(async () => {
  s3 = await startLocalS3(BUCKET);
  endpoint = s3.endpoint;

  // Through the SDK's default credential chain, as in production.
  process.env.AWS_ACCESS_KEY_ID = 'AKIAROOMTONETEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'roomtone-test-secret';
  store = s3StoreFromEnv({
    ...process.env,
    S3_BUCKET: BUCKET,
    S3_REGION: 'eu-west-3',
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
  });
});

afterAll(async () => {
  await store?.destroy();
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await s3.close();
});

describe('S3BlobStore against a local S3-protocol server', () => {
  const bytes = Buffer.from([0x52, 0x49, 0x46, 0x46, 0, 1, 2, 3, 255, 254, 0x57, 0x45, 0x42, 0x50]);

  it('puts, gets and deletes an object for real through the SDK', async () => {
    const key = 'outputs/gen_abc/0.webp';
    await store.put(key, bytes, 'image/webp');

    const stored = objects().get(key);
    expect(stored?.body.equals(bytes)).toBe(true);
    expect(stored?.contentType).toBe('image/webp');
    const put = seen().findLast((r) => r.method === 'PUT');
    expect(put?.path).toBe(`/${BUCKET}/outputs/gen_abc/0.webp`);
    expect(put?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAROOMTONETEST\/\d{8}\/eu-west-3\/s3\/aws4_request/);

    const got = await store.get(key);
    expect(got).toBeInstanceOf(Buffer);
    expect(got?.equals(bytes)).toBe(true);

    await store.delete(key);
    expect(objects().has(key)).toBe(false);
    expect(await store.get(key)).toBeNull();
  });

  it('getAtMost: the bytes of an object within the limit, null for a missing key', async () => {
    await store.put('uploads/file_small/file', bytes, 'image/webp');
    expect((await store.getAtMost('uploads/file_small/file', bytes.length))?.equals(bytes)).toBe(true);
    expect(await store.getAtMost('uploads/file_none/file', 100)).toBeNull();
  });

  it('getAtMost: an object over the limit is refused from its size, without its body being read', async () => {
    const key = 'uploads/file_big/file';
    const big = Buffer.alloc(11 * 1024 * 1024, 7);
    s3.objects.set(key, { body: big, contentType: 'image/png' });
    // The server sends the headers and 64 KiB, then waits for the client to leave: a reader
    // that wanted the whole body would never end.
    s3.hold(key);
    await expect(store.getAtMost(key, 10 * 1024 * 1024)).rejects.toBeInstanceOf(BlobTooLarge);
    await expect(store.getAtMost(key, 10 * 1024 * 1024)).rejects.toMatchObject({ size: big.length, maxBytes: 10 * 1024 * 1024 });
    const gets = seen().filter((r) => r.method === 'GET' && r.path === `/${BUCKET}/${key}`);
    expect(gets).toHaveLength(2);
  });

  it('returns null for a missing key and deletes a missing key quietly', async () => {
    expect(await store.get('missing/nothing.png')).toBeNull();
    await expect(store.delete('missing/nothing.png')).resolves.toBeUndefined();
  });

  it('any other error is a StorageUnavailableError carrying the bucket\'s own', async () => {
    const other = new S3BlobStore({
      bucket: 'other-bucket',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    await expect(other.get('x.png')).rejects.toMatchObject({ name: 'StorageUnavailableError', cause: { name: 'NoSuchBucket' } });
    await other.destroy();
  });

  it('a bucket answering 500, or not answering within timeoutMs, fails the write as StorageUnavailableError', async () => {
    const bounded = new S3BlobStore({ bucket: BUCKET, endpoint, forcePathStyle: true, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, timeoutMs: 300 });
    try {
      s3.fail('error');
      await expect(bounded.put('faults/a.png', Buffer.from('x'), 'image/png')).rejects.toMatchObject({ name: 'StorageUnavailableError', cause: { name: 'InternalError' } });
      s3.fail('stall');
      await expect(bounded.put('faults/b.png', Buffer.from('x'), 'image/png')).rejects.toBeInstanceOf(StorageUnavailableError);
      s3.fail('none');
      await expect(bounded.put('faults/c.png', Buffer.from('x'), 'image/png')).resolves.toBeUndefined();
      expect(objects().has('faults/a.png')).toBe(false);
      expect(objects().has('faults/c.png')).toBe(true);
    } finally {
      s3.fail('none');
      await bounded.destroy();
    }
  });

  it('refuses unsafe keys before any request', async () => {
    const before = seen().length;
    await expect(store.put('../escape', bytes, 'image/png')).rejects.toThrow(/unsafe storage key/);
    await expect(store.signedUrl('/abs', clock.nowSeconds() + 60)).rejects.toThrow(/unsafe storage key/);
    expect(seen().length).toBe(before);
  });

  it('presigns a GET with the requested expiry that the server serves', async () => {
    const key = 'outputs/gen_xyz/1.webp';
    await store.put(key, bytes, 'image/webp');
    const expiresAt = clock.nowSeconds() + 900;
    const signed = new URL(await store.signedUrl(key, expiresAt));

    expect(signed.origin).toBe(endpoint);
    expect(signed.pathname).toBe(`/${BUCKET}/outputs/gen_xyz/1.webp`);
    expect(signed.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(Number(signed.searchParams.get('X-Amz-Expires'))).toBeGreaterThanOrEqual(899);
    expect(Number(signed.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(900);
    expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    // A plain GET, no SDK and no Authorization header: the URL alone is enough.
    const res = await fetch(signed);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    const get = seen().at(-1);
    expect(get?.authorization).toBeUndefined();
    expect(get?.presigned).toBe(true);
  });

  it('presigns at least one second, and refuses more than the SigV4 week', async () => {
    const past = new URL(await store.signedUrl('a.png', clock.nowSeconds() - 100));
    expect(past.searchParams.get('X-Amz-Expires')).toBe('1');
    await expect(store.signedUrl('a.png', clock.nowSeconds() + 8 * 24 * 3600)).rejects.toThrow(/7 days/);
  });

  it('measures the expiry on the app clock', async () => {
    clock.set(new Date('2030-01-01T00:00:00Z'));
    try {
      const url = new URL(await store.signedUrl('a.png', clock.nowSeconds() + 600));
      expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    } finally {
      clock.set(null);
    }
  });
});

describe('s3StoreFromEnv', () => {
  it('throws a clear error without S3_BUCKET', () => {
    expect(() => s3StoreFromEnv({})).toThrow(/S3_BUCKET/);
    expect(() => s3StoreFromEnv({ S3_BUCKET: '  ' })).toThrow(/S3_BUCKET/);
  });

  it('defaults to us-east-1 and virtual-hosted addressing', async () => {
    const s = s3StoreFromEnv({ S3_BUCKET: 'media', S3_ENDPOINT: 'https://s3.example.com' });
    expect(await (await s.client()).config.region()).toBe('us-east-1');
    expect((await s.client()).config.forcePathStyle).toBe(false);
    const url = new URL(await s.signedUrl('outputs/a.webp', clock.nowSeconds() + 60));
    expect(url.host).toBe('media.s3.example.com');
    expect(url.pathname).toBe('/outputs/a.webp');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/\/us-east-1\/s3\/aws4_request$/);
    await s.destroy();
  });

  it('reads S3_FORCE_PATH_STYLE and S3_REGION', async () => {
    const s = s3StoreFromEnv({ S3_BUCKET: 'media', S3_REGION: 'auto', S3_FORCE_PATH_STYLE: 'true' });
    expect(await (await s.client()).config.region()).toBe('auto');
    expect((await s.client()).config.forcePathStyle).toBe(true);
    await s.destroy();
  });
});
