import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore, StorageUnavailableError } from './storage';
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
