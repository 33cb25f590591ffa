/** An object over the size a reader accepts (`size`: its size, or a lower bound when the read was stopped). */
export class BlobTooLarge extends Error {
  constructor(
    readonly key: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`object ${key} holds ${size} bytes or more; at most ${maxBytes} accepted`);
    this.name = 'BlobTooLarge';
  }
}

/** Collect a stream of chunks, stopping (and throwing BlobTooLarge) as soon as it passes `maxBytes`. */
export async function readAtMost(key: string, chunks: AsyncIterable<Uint8Array>, maxBytes: number, stop: () => void): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) {
      stop();
      throw new BlobTooLarge(key, total, maxBytes);
    }
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts, total);
}
