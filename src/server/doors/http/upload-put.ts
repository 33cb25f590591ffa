import { ApiError, apiErrorFromUnknown } from '@/server/doors/errors';
import { receiveUpload, UPLOAD_MAX_BYTES } from '@/server/capabilities/uploads/uploads';
import { readBodyBytes } from '@/server/doors/body';
import { beginRequest, errorReply, finishReply, limitIp, type DoorReply } from '@/server/doors/door';
import { clientIp } from '@/server/doors/client-ip';

/**
 * PUT /uploads/{file_id}?expires&signature — the local storage's upload_url (create_upload).
 * The signature is the credential (no API key: the agent's HTTP client may not hold it);
 * the per-IP rate applies. 200 with an empty JSON object when stored.
 */
export async function serveUploadPut(req: Request, requestId?: string): Promise<DoorReply> {
  const door = beginRequest(clientIp(req), requestId);
  let reply: DoorReply;
  try {
    await limitIp(door);
    const url = new URL(req.url);
    // A malformed escape names no upload: 404 like any unknown id, never a 500.
    let id: string;
    try {
      id = decodeURIComponent(url.pathname.slice('/uploads/'.length));
    } catch {
      throw new ApiError('resource_not_found', 'No such upload URL.');
    }
    await receiveUpload(id, Number(url.searchParams.get('expires')), url.searchParams.get('signature') ?? '', (limit) =>
      readBodyBytes(req, limit, () => new ApiError('image_too_large', `The file is over ${UPLOAD_MAX_BYTES / 1024 / 1024} MB (max_bytes).`)),
    );
    reply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}', errorCode: null };
  } catch (error) {
    reply = errorReply(apiErrorFromUnknown(error, { requestId: door.requestId, route: `${req.method} /uploads` }));
  }
  return finishReply(door, reply);
}
