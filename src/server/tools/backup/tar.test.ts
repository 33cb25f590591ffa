import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTar, TarWriter } from './tar';

describe('backup archive (tar.gz)', () => {
  it('round-trips entries (a long name through a pax header, an empty one, a file spooled on disk), and tar reads it too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-tar-'));
    try {
      const file = path.join(dir, 'a.tar.gz');
      const longName = `blobs/outputs/${'g'.repeat(120)}/0.webp`;
      const spooled = path.join(dir, 'rows.jsonl');
      const rows = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ id: i, text: 'é'.repeat(i % 7) })).join('\n');
      fs.writeFileSync(spooled, rows);
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
      const writer = new TarWriter(file);
      await writer.addBuffer('manifest.json', Buffer.from('{"a":1}'));
      await writer.addBuffer('empty', Buffer.alloc(0));
      await writer.addFile('database/rows.jsonl', spooled);
      await writer.addBuffer(longName, bytes);
      await writer.finish();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      const read: [string, Buffer][] = [];
      for await (const entry of readTar(file)) read.push([entry.name, await entry.bytes()]);
      expect(read.map(([name]) => name)).toEqual(['manifest.json', 'empty', 'database/rows.jsonl', longName]);
      expect(read[0]![1].toString()).toBe('{"a":1}');
      expect(read[1]![1].length).toBe(0);
      expect(read[2]![1].toString()).toBe(rows);
      expect(read[3]![1].equals(bytes)).toBe(true);

      // Entries left unread are skipped.
      const names: string[] = [];
      for await (const entry of readTar(file)) names.push(entry.name);
      expect(names).toHaveLength(4);

      expect(execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n')).toEqual(['manifest.json', 'empty', 'database/rows.jsonl', longName]);
      await expect(() => new TarWriter(file).finish()).rejects.toThrow(/EEXIST/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not a gzip tar, and one cut short', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-tar-'));
    try {
      const text = path.join(dir, 'text.tar.gz');
      fs.writeFileSync(text, 'not an archive');
      await expect(readTar(text).next()).rejects.toThrow();
      const whole = path.join(dir, 'whole.tar.gz');
      const writer = new TarWriter(whole);
      await writer.addBuffer('big', Buffer.alloc(200_000, 7));
      await writer.finish();
      const cut = path.join(dir, 'cut.tar.gz');
      fs.writeFileSync(cut, fs.readFileSync(whole).subarray(0, 200));
      const entries = async () => {
        for await (const entry of readTar(cut)) await entry.bytes();
      };
      await expect(entries()).rejects.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
