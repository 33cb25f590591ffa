import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RoomtoneError } from './errors.js';
import type { ImageInput } from '../types.js';

/**
 * Creation bodies: JSON when every image is a URL, multipart/form-data as soon as one image
 * is a file (path, bytes, Blob or stream), exactly as /v1 takes it: each file a part named as
 * its field (`image`, `mask`, `layers[0].element`), other parameters text fields, `layers`,
 * `metadata` and `categories` JSON text, `background` the text `true` or `false`.
 */
const JSON_TEXT_FIELDS = new Set(['layers', 'metadata', 'categories']);

interface FilePart {
  field: string;
  blob: Blob;
  name: string;
}

/** An uploaded file's id (MCP `create_upload`), which /v1 takes where it takes a URL. A path of that shape is written `./file_…`. */
const UPLOAD_ID = /^file_[0-9A-Za-z]{1,64}$/;

/** A value sent as text (a URL or an uploaded file id), not read as a file. */
function isUrl(value: unknown): value is string | URL {
  if (value instanceof URL) return value.protocol !== 'file:';
  return typeof value === 'string' && (/^https?:\/\//i.test(value) || UPLOAD_ID.test(value));
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

type BlobParts = ConstructorParameters<typeof Blob>[0];

/** Bytes as a Blob (typed for both Node's and the DOM's Blob). */
function toBlob(parts: readonly (Uint8Array | ArrayBuffer)[]): Blob {
  return new Blob(parts as unknown as BlobParts);
}

async function collect(chunks: AsyncIterable<Uint8Array | string>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return parts;
}

/** A file input as a Blob and a file name (bytes and streams are read once, here). */
async function toFile(value: ImageInput, field: string): Promise<{ blob: Blob; name: string }> {
  const fallbackName = field.replace(/[^\w.-]/g, '_');
  if (typeof value === 'string' || value instanceof URL) {
    const file = typeof value === 'string' ? value : fileURLToPath(value);
    try {
      return { blob: toBlob([await readFile(file)]), name: path.basename(file) };
    } catch (error) {
      throw new RoomtoneError(`Cannot read the file for '${field}' (${file}): ${(error as Error).message}. Images are https URLs, uploaded file ids (file_…) or files.`, { cause: error });
    }
  }
  if (value instanceof Blob) return { blob: value, name: (value as Blob & { name?: string }).name || fallbackName };
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return { blob: toBlob([value as Uint8Array]), name: fallbackName };
  if (value instanceof ReadableStream) return { blob: toBlob(await collect(value as unknown as AsyncIterable<Uint8Array>)), name: fallbackName };
  if (isAsyncIterable(value)) {
    const named = (value as { path?: unknown }).path; // fs.createReadStream keeps its path
    return { blob: toBlob(await collect(value)), name: typeof named === 'string' ? path.basename(named) : fallbackName };
  }
  throw new RoomtoneError(`'${field}' must be an https URL, an uploaded file id (file_…), a file path, bytes, a Blob or a stream.`);
}

/** The body of a creation: the JSON object, or FormData when a file is given. */
export async function creationBody(params: Record<string, unknown>): Promise<Record<string, unknown> | FormData> {
  const files: FilePart[] = [];
  const rest: Record<string, unknown> = {};
  const image = async (value: unknown, field: string): Promise<unknown> => {
    if (value === undefined || value === null || isUrl(value)) return value instanceof URL ? value.toString() : value;
    files.push({ field, ...(await toFile(value as ImageInput, field)) });
    return undefined;
  };
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (key === 'image' || key === 'mask') {
      const kept = await image(value, key);
      if (kept !== undefined) rest[key] = kept;
    } else if (key === 'layers' && Array.isArray(value)) {
      rest.layers = await Promise.all(
        value.map(async (layer: unknown, i) => {
          if (typeof layer !== 'object' || layer === null || !('element' in layer)) return layer;
          const { element, ...without } = layer as Record<string, unknown>;
          const kept = await image(element, `layers[${i}].element`);
          return kept === undefined ? without : { ...without, element: kept };
        }),
      );
    } else rest[key] = value;
  }
  if (files.length === 0) return rest;
  const form = new FormData();
  for (const [name, value] of Object.entries(rest)) {
    form.append(name, JSON_TEXT_FIELDS.has(name) || typeof value !== 'string' ? JSON.stringify(value) : value);
  }
  for (const file of files) form.append(file.field, file.blob, file.name);
  return form;
}
