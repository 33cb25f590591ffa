import { ApiError } from '@/server/platform/errors';
import { receiveUpload, UPLOAD_MAX_BYTES } from '@/server/uploads/uploads';
import { apiErrorFromUnknown } from '@/server/trpc/errors';
import { readBodyBytes } from './body';
import { beginRequest, errorReply, finishReply, limitIp, toResponse, type DoorReply } from './door';
import { clientIp } from './v1';

/**
 * PUT /uploads/{file_id}?expires&signature — the local storage's upload_url (create_upload).
 * The signature is the credential (no API key: the agent's HTTP client may not hold it);
 * the per-IP rate applies. 200 with an empty JSON object when stored.
 */
export async function serveUploadPut(req: Request): Promise<DoorReply> {
  const door = beginRequest(clientIp(req));
  let reply: DoorReply;
  try {
    await limitIp(door);
    const url = new URL(req.url);
    if (req.method !== 'PUT') throw new ApiError(405, 'method_not_allowed', 'Send the file with PUT.', { headers: { allow: 'PUT' } });
    const id = decodeURIComponent(url.pathname.slice('/uploads/'.length));
    await receiveUpload(id, Number(url.searchParams.get('expires')), url.searchParams.get('signature') ?? '', (limit) =>
      readBodyBytes(req, limit, () => new ApiError(413, 'image_too_large', `The file is over ${UPLOAD_MAX_BYTES / 1024 / 1024} MB (max_bytes).`)),
    );
    reply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}', errorCode: null };
  } catch (error) {
    reply = errorReply(apiErrorFromUnknown(error));
  }
  return finishReply(door, reply);
}

export async function handleUploadPut(req: Request): Promise<Response> {
  return toResponse(await serveUploadPut(req));
}
