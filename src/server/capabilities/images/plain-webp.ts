/**
 * Recognising a WebP that can be served exactly as it is: the simple lossy format (a RIFF
 * holding one `VP8 ` chunk), whole, which by construction carries no alpha, no animation, no
 * EXIF orientation, no ICC profile and no other metadata.
 *
 * Only the container and the VP8 key frame header are read (no decode): the RIFF size must be
 * the file's, the chunk must end where the file does, the frame must be a key frame with the
 * VP8 start code, no upscaling bits, and a first partition inside the chunk. A cut-off download
 * fails these; the pixels themselves are the model's, as they would be after a re-encode.
 */
export interface PlainWebpSize {
  width: number;
  height: number;
}

const RIFF_HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;
const VP8_FRAME_HEADER_BYTES = 10;

export function plainWebpSize(bytes: Uint8Array): PlainWebpSize | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataAt = RIFF_HEADER_BYTES + CHUNK_HEADER_BYTES;
  if (buf.length < dataAt + VP8_FRAME_HEADER_BYTES) return null;
  if (buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WEBP') return null;
  if (buf.readUInt32LE(4) !== buf.length - 8) return null;
  if (buf.toString('latin1', 12, 16) !== 'VP8 ') return null;
  const chunkBytes = buf.readUInt32LE(16);
  // Chunks are padded to an even size; nothing may follow the one chunk.
  if (dataAt + chunkBytes + (chunkBytes & 1) !== buf.length) return null;
  const tag = buf[dataAt]! | (buf[dataAt + 1]! << 8) | (buf[dataAt + 2]! << 16);
  const keyFrame = (tag & 1) === 0;
  const showFrame = ((tag >> 4) & 1) === 1;
  const firstPartitionBytes = tag >>> 5;
  if (!keyFrame || !showFrame || firstPartitionBytes > chunkBytes - VP8_FRAME_HEADER_BYTES) return null;
  if (buf[dataAt + 3] !== 0x9d || buf[dataAt + 4] !== 0x01 || buf[dataAt + 5] !== 0x2a) return null;
  const w = buf.readUInt16LE(dataAt + 6);
  const h = buf.readUInt16LE(dataAt + 8);
  // The top two bits ask the decoder to upscale: not an image of the stated size.
  if (w >> 14 !== 0 || h >> 14 !== 0) return null;
  const width = w & 0x3fff;
  const height = h & 0x3fff;
  if (width === 0 || height === 0) return null;
  return { width, height };
}
