import { ApiError } from '@/server/doors/errors';
import type { DoorReply } from '@/server/doors/door';
import { clock } from '@/server/platform/clock';
import { blobStore, verifyFileSignature } from '@/server/capabilities/storage/storage';
import { swatchPng } from '@/server/capabilities/engine/builtin/swatches';
import { getEditMaterial } from '@/server/capabilities/reference/catalog';

/**
 * The two keyless GET routes outside /v1: signed files of the local blob store and material
 * swatch previews (routes of http/routes.ts, which admit GET and HEAD only).
 */
const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg' };

/** GET /files/<key>?expires=&signature= ; `encodedKey` is the path after /files/, still encoded. */
export async function serveSignedFile(encodedKey: string, search: URLSearchParams): Promise<DoorReply> {
  const invalid = new ApiError('url_invalid', 'This URL is invalid or has expired. Read the generation again for a fresh URL.');
  let key: string;
  try {
    key = encodedKey.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw invalid;
  }
  if (!verifyFileSignature(key, Number(search.get('expires')), search.get('signature') ?? '', clock.nowSeconds())) throw invalid;
  const bytes = await blobStore().get(key);
  if (!bytes) throw new ApiError('resource_not_found', 'This image has been deleted.');
  const contentType = CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
  return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'private, max-age=900' }, body: new Uint8Array(bytes) };
}

/** GET /swatches/<id>?size=32..512 (default 256): the material's procedural swatch as PNG. */
export async function serveSwatch(encodedId: string, search: URLSearchParams): Promise<DoorReply> {
  const sizeParam = search.get('size') ?? '256';
  const size = Number(sizeParam);
  if (!/^\d{2,3}$/.test(sizeParam) || size < 32 || size > 512) {
    throw new ApiError('parameter_invalid', 'size must be an integer from 32 to 512.', { param: 'size' });
  }
  let id: string | null = null;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    // an undecodable id names no material
  }
  if (id === null || !getEditMaterial(id)) {
    throw new ApiError('resource_not_found', `No such edit material: '${id ?? encodedId}'.`, { param: 'id' });
  }
  const png = await swatchPng(id, size);
  return { status: 200, headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' }, body: new Uint8Array(png) };
}
