import { createHmac, timingSafeEqual } from 'node:crypto';
import { db, type DbTx } from '@/server/platform/db';
import { DomainError, notFound } from '@/server/platform/errors';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { newId } from '@/server/platform/ids';
import { log } from '@/server/platform/logger';
import { derivedKey } from '@/server/platform/secrets';
import { tierOf } from '@/server/capabilities/billing/pricing';
import { inspectImage, MAX_IMAGE_BYTES } from '@/server/capabilities/images/intake';
import { blobStore } from '@/server/capabilities/storage/storage';
import { BlobTooLarge } from '@/server/capabilities/storage/read-at-most';
import type { Caller } from '@/server/capabilities/access/caller';
import type { Permission } from '@/shared/keys/permissions';

/**
 * Uploaded files (spec: "Uploaded file (MCP)"): a local image sent by an agent before a
 * creation. create_upload makes a waiting file with a single-use PUT URL; one generation that
 * names its id consumes it (in the admission transaction, so a refused request leaves it
 * available); unused files are deleted 1 hour after creation by the retention job.
 *
 * The PUT URL is Roomtone's own with every storage driver, never a presigned bucket URL: the
 * spec has agents PUT the bytes, and a presigned S3 PUT can neither limit the size nor be used
 * once nor check the type (a presigned POST can limit the size, but is not a PUT). Through the
 * app, the body is cut off past max_bytes while it streams, recognized as JPEG, PNG or WebP by
 * its content, claimed once in the database, and only then written to the store.
 */
export const UPLOAD_LIFETIME_MS = 3_600_000;
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
export const UPLOAD_MAX_BYTES = MAX_IMAGE_BYTES;
export const UPLOAD_ID_PATTERN = /^file_[0-9A-Za-z]{1,64}$/;

const CREATION_PERMISSIONS: readonly Permission[] = ['renders', 'edits', 'decorations', 'upscales'];

/** The storage key is empty until the single PUT claims it (single use without an extra column). */
const NOT_RECEIVED = '';

export interface ApiUpload {
  object: 'upload';
  id: string;
  upload_url: string;
  upload_url_expires_at: number;
  max_bytes: number;
  expires_at: number;
}

function uploadSignature(id: string, expiresAt: number): string {
  return createHmac('sha256', derivedKey('upload-url')).update(`${id}\n${expiresAt}`).digest('base64url');
}

function keyFor(id: string): string {
  return `uploads/${id}/file`;
}

export async function createUpload(caller: Caller): Promise<ApiUpload> {
  if (!CREATION_PERMISSIONS.some((p) => caller.permissions.has(p))) {
    throw new DomainError('permission_denied', 'create_upload needs a creation permission (renders, edits, decorations or upscales).');
  }
  const now = clock.now();
  const id = newId('file');
  const expiresAt = new Date(now.getTime() + UPLOAD_LIFETIME_MS);
  const urlExpiresAt = Math.floor(now.getTime() / 1000) + UPLOAD_URL_TTL_SECONDS;
  await db().$transaction(async (tx) => {
    // Same serialisation as admissions: the waiting-files count cannot be overrun by a burst.
    await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`upload:${caller.organizationId}:${caller.mode}`}))`;
    if (caller.mode === 'live') {
      const org = await tx.organization.findUniqueOrThrow({ where: { id: caller.organizationId }, select: { balanceCents: true } });
      if (org.balanceCents <= 0) throw new DomainError('insufficient_balance', 'Uploads are free but live mode needs a positive balance. Add credit in the console.');
    }
    await checkWaitingFiles(tx, caller, now);
    await tx.upload.create({ data: { id, organizationId: caller.organizationId, mode: caller.mode, storageKey: NOT_RECEIVED, createdAt: now, expiresAt } });
  });
  const uploadUrl = `${config().publicBaseUrl}/uploads/${id}?expires=${urlExpiresAt}&signature=${uploadSignature(id, urlExpiresAt)}`;
  return { object: 'upload', id, upload_url: uploadUrl, upload_url_expires_at: urlExpiresAt, max_bytes: UPLOAD_MAX_BYTES, expires_at: Math.floor(expiresAt.getTime() / 1000) };
}

/** Waiting (unused, unexpired) files per organization and mode: the tier's Generations/min × 5. */
async function checkWaitingFiles(tx: DbTx, caller: Caller, now: Date): Promise<void> {
  const limit = tierOf(caller.tier).generationsPerMinute * 5;
  const where = { organizationId: caller.organizationId, mode: caller.mode, status: 'waiting' as const, expiresAt: { gt: now } };
  const waiting = await tx.upload.count({ where });
  if (waiting < limit) return;
  const oldest = await tx.upload.findFirst({ where, orderBy: { expiresAt: 'asc' }, select: { expiresAt: true } });
  const retryAfter = Math.max(1, Math.ceil(((oldest?.expiresAt.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  throw new DomainError('rate_limit_exceeded', `At most ${limit} uploaded files may wait unused; use or let them expire first.`, {
    retryAfterSeconds: retryAfter,
  });
}

/**
 * The PUT behind a local upload_url: signature and expiry first, then the file is claimed
 * (single use), checked by content (JPEG, PNG or WebP within the image limits) and stored. A
 * refused body releases the claim, so the client may PUT again before the URL expires.
 */
export async function receiveUpload(id: string, expires: number, signature: string, readBytes: (limit: number) => Promise<Buffer>): Promise<void> {
  const expected = Buffer.from(uploadSignature(id, expires));
  const given = Buffer.from(signature);
  if (!UPLOAD_ID_PATTERN.test(id) || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new DomainError('permission_denied', 'This upload URL is not valid.');
  }
  if (expires < clock.nowSeconds()) throw new DomainError('permission_denied', 'This upload URL has expired; call create_upload again.');
  const key = keyFor(id);
  const claimed = await db().upload.updateMany({ where: { id, status: 'waiting', storageKey: NOT_RECEIVED, expiresAt: { gt: clock.now() } }, data: { storageKey: key } });
  if (claimed.count === 0) throw notFound(`No upload is waiting at this URL: '${id}' was already uploaded, used or deleted.`);
  try {
    const bytes = await readBytes(UPLOAD_MAX_BYTES);
    const image = await inspectImage(bytes, 'file');
    await blobStore().put(key, bytes, `image/${image.format}`);
  } catch (error) {
    await db().upload.updateMany({ where: { id, storageKey: key, status: 'waiting' }, data: { storageKey: NOT_RECEIVED } });
    throw error;
  }
}

/**
 * The bytes of an uploaded file named in a creation (image, mask, layers[].element): only a
 * waiting file of the caller's organization and mode; anything else is 404 resource_not_found.
 */
export async function readUploadedFile(caller: Caller, id: string, param: string): Promise<Buffer> {
  const upload = await db().upload.findFirst({ where: { id, organizationId: caller.organizationId, mode: caller.mode, status: 'waiting', expiresAt: { gt: clock.now() } } });
  if (!upload) throw notFound(`No such uploaded file: '${id}' (a file serves one generation and is deleted 1 hour after creation if unused).`, param);
  let bytes: Buffer | null;
  try {
    // Never more than max_bytes read, whatever the store holds under that key.
    bytes = await blobStore().getAtMost(keyFor(id), UPLOAD_MAX_BYTES);
  } catch (error) {
    if (error instanceof BlobTooLarge) throw new DomainError('image_too_large', `The file '${id}' is over ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`, { param });
    throw error;
  }
  if (!bytes) throw new DomainError('parameter_invalid', `The file '${id}' has not been uploaded yet: PUT its bytes to the upload_url first.`, { param });
  return bytes;
}

/** Inside the admission transaction: the files become used by this generation (all or nothing). */
export async function consumeUploads(tx: DbTx, caller: Caller, ids: readonly string[], generationId: string): Promise<void> {
  if (ids.length === 0) return;
  const used = await tx.upload.updateMany({
    where: { id: { in: [...ids] }, organizationId: caller.organizationId, mode: caller.mode, status: 'waiting' },
    data: { status: 'used', generationId },
  });
  if (used.count !== new Set(ids).size) throw notFound('An uploaded file of this request was used by another generation meanwhile.');
}

/** After a generation took its copy (inputs/), the uploaded bytes go. */
export async function deleteUploadBytes(ids: readonly string[]): Promise<void> {
  await Promise.all(ids.map((id) => blobStore().delete(keyFor(id)).catch((error: unknown) => log.warn('upload delete failed', { id, error: String(error) }))));
}

/** Retention: unused files 1 hour after creation. */
export async function deleteUnusedUploads(now: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await db().upload.findMany({ where: { status: 'waiting', expiresAt: { lte: now } }, select: { id: true }, take: 200 });
    if (batch.length === 0) return deleted;
    const ids = batch.map((u) => u.id);
    await deleteUploadBytes(ids);
    deleted += (await db().upload.updateMany({ where: { id: { in: ids }, status: 'waiting' }, data: { status: 'deleted' } })).count;
  }
}
