import fs from 'node:fs';
import { once } from 'node:events';
import zlib from 'node:zlib';

/**
 * A gzip-compressed POSIX tar (ustar, with pax headers for long names and big sizes): the
 * backup's one file, which `tar -tzf` lists and `tar -xzf` extracts. Written and read as a
 * stream, so neither side holds more than one entry's chunk in memory.
 */
const BLOCK = 512;
const MAX_OCTAL_SIZE = 8 ** 11 - 1;

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'utf8');
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

function header(name: string, size: number, type: '0' | 'x', mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  field(block, 0, 100, name);
  field(block, 100, 8, octal(type === 'x' ? 0o644 : 0o600, 8));
  field(block, 108, 8, octal(0, 8));
  field(block, 116, 8, octal(0, 8));
  field(block, 124, 12, octal(size, 12));
  field(block, 136, 12, octal(mtime, 12));
  field(block, 148, 8, '        ');
  field(block, 156, 1, type);
  field(block, 257, 6, 'ustar\0');
  field(block, 263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** One pax record: its length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = Buffer.byteLength(body);
  let length = bodyLength + 1;
  while (length !== bodyLength + String(length).length) length = bodyLength + String(length).length;
  return `${length}${body}`;
}

export class TarWriter {
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly file: fs.WriteStream;
  private readonly done: Promise<void>;
  private readonly mtime = Math.floor(Date.now() / 1000);

  /** Creates `path` (0600: a backup holds secrets); an existing file is not overwritten. */
  constructor(path: string) {
    this.file = fs.createWriteStream(path, { mode: 0o600, flags: 'wx' });
    this.gzip.pipe(this.file);
    this.done = new Promise((resolve, reject) => {
      this.file.once('finish', resolve);
      this.file.once('error', reject);
      this.gzip.once('error', reject);
    });
    // A failed open surfaces at finish(); keep it from being an unhandled rejection before.
    this.done.catch(() => undefined);
  }

  private async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await Promise.race([once(this.gzip, 'drain'), this.done]);
  }

  private async writeHeader(name: string, size: number): Promise<void> {
    const nameBytes = Buffer.byteLength(name);
    if (nameBytes >= 100 || size > MAX_OCTAL_SIZE) {
      const pax = Buffer.from(paxRecord('path', name) + (size > MAX_OCTAL_SIZE ? paxRecord('size', String(size)) : ''));
      await this.write(header('PaxHeader', pax.length, 'x', this.mtime));
      await this.write(pax);
      await this.pad(pax.length);
    }
    await this.write(header(nameBytes >= 100 ? name.slice(0, 99) : name, Math.min(size, MAX_OCTAL_SIZE), '0', this.mtime));
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest !== 0) await this.write(Buffer.alloc(BLOCK - rest));
  }

  async addBuffer(name: string, data: Buffer): Promise<void> {
    await this.writeHeader(name, data.length);
    await this.write(data);
    await this.pad(data.length);
  }

  /** An entry whose bytes are in a file (read as a stream). */
  async addFile(name: string, path: string): Promise<void> {
    const { size } = await fs.promises.stat(path);
    await this.writeHeader(name, size);
    let written = 0;
    for await (const chunk of fs.createReadStream(path)) {
      written += (chunk as Buffer).length;
      await this.write(chunk as Buffer);
    }
    if (written !== size) throw new Error(`${path} changed while it was archived`);
    await this.pad(size);
  }

  /** The end-of-archive marker, then the file is flushed and closed. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }

  /** Stops writing (the caller removes the partial file). */
  async abort(): Promise<void> {
    this.gzip.destroy();
    this.file.destroy();
    await once(this.file, 'close').catch(() => undefined);
  }
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  private async fill(min: number): Promise<boolean> {
    while (this.length < min) {
      const next = await this.source.next();
      if (next.done) return false;
      this.buffered.push(next.value);
      this.length += next.value.length;
    }
    return true;
  }

  /** Up to `max` bytes (at least 1), or null at the end. */
  async chunk(max: number): Promise<Buffer | null> {
    if (!(await this.fill(1))) return null;
    const first = this.buffered[0]!;
    const taken = first.subarray(0, Math.min(max, first.length));
    if (taken.length === first.length) this.buffered.shift();
    else this.buffered[0] = first.subarray(taken.length);
    this.length -= taken.length;
    return taken;
  }

  async exactly(size: number): Promise<Buffer> {
    if (!(await this.fill(size))) throw new Error('the archive ends in the middle of an entry (truncated file?)');
    const all = Buffer.concat(this.buffered);
    this.buffered = all.length > size ? [all.subarray(size)] : [];
    this.length = all.length - size;
    return all.subarray(0, size);
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes; what is left unread is skipped when the next entry is asked for. */
  body(): AsyncIterable<Buffer>;
  /** The whole entry in memory (small entries: the manifest, a secret, a blob). */
  bytes(): Promise<Buffer>;
}

function parseOctal(block: Buffer, offset: number, length: number): number {
  const text = block.toString('latin1', offset, offset + length).replace(/\0.*$/s, '').trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = Number(data.toString('utf8', at, space));
    if (!Number.isInteger(length) || length <= 0) throw new Error('the archive has a malformed pax header');
    const record = data.toString('utf8', space + 1, at + length - 1);
    const eq = record.indexOf('=');
    records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

/** The regular-file entries of a .tar.gz, in order. */
export async function* readTar(path: string): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(fs.createReadStream(path).pipe(zlib.createGunzip()));
  let pax: Map<string, string> | null = null;
  for (;;) {
    const block = await reader.exactly(BLOCK);
    if (block.every((b) => b === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (sum !== parseOctal(block, 148, 8)) throw new Error('this is not a Roomtone backup (tar header checksum mismatch)');
    const type = String.fromCharCode(block[156]!);
    const prefix = block.toString('utf8', 345, 500).replace(/\0.*$/s, '');
    const shortName = block.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const name = pax?.get('path') ?? (prefix ? `${prefix}/${shortName}` : shortName);
    const size = pax?.has('size') ? Number(pax.get('size')) : parseOctal(block, 124, 12);
    pax = null;
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (type === 'x') {
      pax = parsePax(await reader.exactly(size));
      await reader.exactly(padding);
      continue;
    }
    let left = size;
    const body = async function* (): AsyncGenerator<Buffer> {
      while (left > 0) {
        const chunk = await reader.chunk(Math.min(left, 1 << 16));
        if (!chunk) throw new Error('the archive ends in the middle of an entry (truncated file?)');
        left -= chunk.length;
        yield chunk;
      }
    };
    const entry: TarEntry = {
      name,
      size,
      body,
      async bytes() {
        const chunks: Buffer[] = [];
        for await (const chunk of body()) chunks.push(chunk);
        return Buffer.concat(chunks);
      },
    };
    // Directories and links (an archive repacked by hand) carry no bytes we use.
    if (type === '0' || type === '\0') yield entry;
    while (left > 0) {
      const chunk = await reader.chunk(Math.min(left, 1 << 16));
      if (!chunk) throw new Error('the archive ends in the middle of an entry (truncated file?)');
      left -= chunk.length;
    }
    await reader.exactly(padding);
  }
}
