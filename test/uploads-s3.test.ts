// @node-lines same: our upload rules on S3; the S3 client runs under both lines in src/server/capabilities/storage/s3.test.ts
// @worker-process shared: uploads in this process to an S3 stand-in it closes after it; the storage settings it makes are given back (test/file-environment.ts), and the store follows them; it starts no process
/**
 * Uploaded files (create_upload) with STORAGE_DRIVER=s3, in this process against a local
 * S3-protocol server (test/s3-server.ts) and the real database: the upload URL is Roomtone's own
 * single-use PUT (never a presigned bucket URL, which could not limit size, type or reuse), so
 * nothing reaches the bucket before it is checked; and reading a file never pulls more than
 * max_bytes out of the bucket, whatever is stored under its key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { setEnv } from '@/server/platform/config';
import { createUpload, readUploadedFile, UPLOAD_MAX_BYTES } from '@/server/capabilities/uploads/uploads';
import { serveUploadPut } from '@/server/doors/http/upload-put';
import type { Caller } from '@/server/capabilities/access/caller';
import { startLocalS3, type LocalS3 } from './s3-server';
import { baseUrl, createTestOrg, testIp } from './support';
import { environmentForThisFile } from './file-environment';

// The storage settings and credentials of the S3 stand-in, given back after the file.
environmentForThisFile();

let s3: LocalS3;
let caller: Caller;
const ip = testIp();

beforeAll(async () => {
  s3 = await startLocalS3('roomtone-uploads');
  process.env.AWS_ACCESS_KEY_ID = 'AKIAROOMTONETEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'roomtone-test-secret';
  setEnv('STORAGE_DRIVER', 's3');
  setEnv('S3_BUCKET', s3.bucket);
  setEnv('S3_ENDPOINT', s3.endpoint);
  setEnv('S3_FORCE_PATH_STYLE', 'true');
  const org = await createTestOrg();
  caller = { organizationId: org.id, mode: 'test', permissions: new Set(['upscales']), tier: 9, apiKeyId: null };
});

afterAll(async () => {
  await s3.close();
});

/** PUT through the upload door itself, as the app's route hands it a request. */
async function put(url: string, bytes: Buffer) {
  const reply = await serveUploadPut(new Request(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': ip } }));
  return { status: reply.status, body: JSON.parse(reply.body as string) as { error?: { code: string; param?: string } } };
}

const bucketPuts = () => s3.requests.filter((r) => r.method === 'PUT');

describe('create_upload with S3 storage', () => {
  it('the upload URL is Roomtone’s own, single use; oversize and non-images are refused before anything reaches the bucket', async () => {
    const upload = await createUpload(caller);
    expect(upload.upload_url.startsWith(`${baseUrl}/uploads/${upload.id}?expires=`)).toBe(true);
    expect(upload.upload_url).not.toContain(s3.endpoint);
    expect(upload.max_bytes).toBe(UPLOAD_MAX_BYTES);

    const tooBig = await put(upload.upload_url, Buffer.alloc(UPLOAD_MAX_BYTES + 1, 0x89));
    expect(tooBig).toMatchObject({ status: 413, body: { error: { code: 'image_too_large' } } });
    const notImage = await put(upload.upload_url, Buffer.from('%PDF-1.7 not an image'));
    expect(notImage).toMatchObject({ status: 415, body: { error: { code: 'unsupported_image_type' } } });
    expect(bucketPuts()).toHaveLength(0);

    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#887766' } }).png().toBuffer();
    expect((await put(upload.upload_url, png)).status).toBe(200);
    const stored = s3.objects.get(`uploads/${upload.id}/file`);
    expect(stored?.body.equals(png)).toBe(true);
    expect(stored?.contentType).toBe('image/png');
    expect(bucketPuts()).toHaveLength(1);

    // Single use: the URL is spent once a file is stored.
    expect(await put(upload.upload_url, png)).toMatchObject({ status: 404, body: { error: { code: 'resource_not_found' } } });
    expect(bucketPuts()).toHaveLength(1);

    expect((await readUploadedFile(caller, upload.id, 'image')).equals(png)).toBe(true);
  });

  it('a file bigger than max_bytes in the bucket is refused from its size, its body never read whole', async () => {
    const upload = await createUpload(caller);
    const key = `uploads/${upload.id}/file`;
    // As if written to the bucket by something else than the upload door.
    s3.objects.set(key, { body: Buffer.alloc(UPLOAD_MAX_BYTES + 1024 * 1024, 1), contentType: 'image/png' });
    s3.hold(key);
    await expect(readUploadedFile(caller, upload.id, 'layers[0].element')).rejects.toMatchObject({ code: 'image_too_large', param: 'layers[0].element' });
    const get = s3.requests.findLast((r) => r.method === 'GET' && r.path.endsWith(key));
    expect(get).toBeDefined();
  });
});
