/**
 * The spec's input image limits (Limits: "Image 10 MB, 8192 pixels a side, 36 million pixels";
 * Input images: JPEG, PNG or WebP by content). No imports: the server's intake and the console's
 * file fields (which judge a file the moment it is chosen) share these values and rules.
 */

/**
 * "10 MB" read as 10 MiB (10 × 1024 × 1024 bytes). Decision: the binary reading is the
 * common one for upload limits and errs on the side of accepting a client's "10 MB" file.
 * Also the MCP create_upload max_bytes.
 */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 36_000_000;
export const MAX_IMAGE_URL_LENGTH = 2048;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Format from content only; extension and declared type are never consulted. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Over a side or the pixel total: the rule of 400 image_dimensions_invalid. */
export function dimensionsOverLimit(width: number, height: number): boolean {
  return width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS;
}

/**
 * Width and height as the header declares them (before EXIF orientation, which only swaps them:
 * the limits are symmetric), without decoding pixels. null when no header is found.
 */
export function headerDimensions(bytes: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  const u16be = (o: number) => ((bytes[o] ?? 0) << 8) | (bytes[o + 1] ?? 0);
  const u16le = (o: number) => (bytes[o] ?? 0) | ((bytes[o + 1] ?? 0) << 8);
  const u24le = (o: number) => u16le(o) | ((bytes[o + 2] ?? 0) << 16);
  const u32be = (o: number) => (u16be(o) * 65536 + u16be(o + 2));
  if (format === 'png') {
    if (bytes.length < 24 || ascii(bytes, 12, 16) !== 'IHDR') return null;
    return { width: u32be(16), height: u32be(20) };
  }
  if (format === 'webp') {
    const chunk = ascii(bytes, 12, 16);
    if (chunk === 'VP8 ' && bytes.length >= 30) return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (chunk === 'VP8L' && bytes.length >= 25) {
      const b = (i: number) => bytes[21 + i] ?? 0;
      return { width: 1 + (((b(1) & 0x3f) << 8) | b(0)), height: 1 + (((b(3) & 0x0f) << 10) | (b(2) << 2) | ((b(1) & 0xc0) >> 6)) };
    }
    if (chunk === 'VP8X' && bytes.length >= 30) return { width: 1 + u24le(24), height: 1 + u24le(27) };
    return null;
  }
  // JPEG: walk the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC).
  let o = 2;
  while (o + 9 < bytes.length) {
    if (bytes[o] !== 0xff) return null;
    const marker = bytes[o + 1] ?? 0;
    if (marker === 0xff) {
      o++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      o += 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { width: u16be(o + 7), height: u16be(o + 5) };
    o += 2 + u16be(o + 2);
  }
  return null;
}
