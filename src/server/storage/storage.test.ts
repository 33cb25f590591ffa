import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from './storage';
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
