import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetConfigCache } from '@/server/platform/config';
import { LocalBlobStore, StorageUnavailableError, verifyFileSignature } from './storage';
import { BlobTooLarge } from './read-at-most';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-blobs-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('LocalBlobStore.getAtMost', () => {
  const store = new LocalBlobStore(root, 'http://localhost:3000');

  it('the bytes within the limit, null for a missing key', async () => {
    await store.put('uploads/file_a/file', Buffer.from('12345'));
    expect((await store.getAtMost('uploads/file_a/file', 5))?.toString()).toBe('12345');
    expect(await store.getAtMost('uploads/file_none/file', 5)).toBeNull();
  });

  it('a file over the limit is refused from its size', async () => {
    await store.put('uploads/file_b/file', Buffer.alloc(1024, 1));
    await expect(store.getAtMost('uploads/file_b/file', 1023)).rejects.toBeInstanceOf(BlobTooLarge);
    await expect(store.getAtMost('uploads/file_b/file', 1023)).rejects.toMatchObject({ size: 1024, maxBytes: 1023 });
  });
});

describe('LocalBlobStore when its folder cannot be written', () => {
  it('a write or read fails as StorageUnavailableError (here the folder is a file: ENOTDIR); nothing half-written stays', async () => {
    const file = path.join(root, 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const store = new LocalBlobStore(file, 'http://localhost:3000');
    await expect(store.put('inputs/gen_a/image.png', Buffer.from('12345'))).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(store.put('inputs/gen_a/image.png', Buffer.from('12345'))).rejects.toMatchObject({ cause: { code: 'ENOTDIR' } });
    await expect(store.get('inputs/gen_a/image.png')).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('LocalBlobStore.signUrl', () => {
  const store = new LocalBlobStore(root, 'http://localhost:3000');
  const signatureOf = (url: string) => new URL(url).searchParams.get('signature') ?? '';
  const withSecret = (secret: string) => {
    process.env.APP_SECRET = secret;
    resetConfigCache();
  };

  it('signs with the current APP_SECRET: a URL signed under another secret does not verify, and the first secret signs as before', () => {
    const key = 'outputs/gen_a/out_0.webp';
    const expiresAt = 2_000_000_000;
    withSecret('first-secret-of-at-least-thirty-two-characters');
    const first = signatureOf(store.signUrl(key, expiresAt));
    expect(verifyFileSignature(key, expiresAt, first, expiresAt - 1)).toBe(true);
    withSecret('second-secret-of-at-least-thirty-two-characters');
    const second = signatureOf(store.signUrl(key, expiresAt));
    expect(second).not.toBe(first);
    expect(verifyFileSignature(key, expiresAt, first, expiresAt - 1)).toBe(false);
    expect(verifyFileSignature(key, expiresAt, second, expiresAt - 1)).toBe(true);
    withSecret('first-secret-of-at-least-thirty-two-characters');
    expect(signatureOf(store.signUrl(key, expiresAt))).toBe(first);
    expect(verifyFileSignature(key, expiresAt, first, expiresAt + 1)).toBe(false);
  });
});

describe('LocalBlobStore.signUrl', () => {
  const store = new LocalBlobStore(root, 'http://localhost:3000');

  it('puts a key in the path as each segment encoded, and parses it back', () => {
    const keys = ['outputs/gen_1AbC/0.webp', 'uploads/file_a-b/file', 'a.png', '_x/y.z/w-v_9', `k/${'a'.repeat(250)}`];
    for (const key of keys) {
      const url = store.signUrl(key, 2_000_000_000);
      expect(url.startsWith(`http://localhost:3000/files/${key.split('/').map(encodeURIComponent).join('/')}?expires=2000000000&signature=`), key).toBe(true);
      expect(store.parseSignedUrl(url, 1_999_999_999), key).toBe(key);
    }
  });

  it('refuses a key that is not safe as it is', () => {
    for (const key of ['a b', 'a%2Fb', 'a?b', 'a#b', '../a', 'a/../b', '/abs', 'é', 'a\nb', '']) {
      expect(() => store.signUrl(key, 2_000_000_000), key).toThrow(/unsafe storage key/);
    }
  });
});
