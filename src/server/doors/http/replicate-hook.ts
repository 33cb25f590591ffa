import { DomainError } from '@/server/platform/errors';
import { checkCallbackToken } from '@/server/capabilities/engine/backends/events';
import { acceptReplicateWebhook, REPLICATE_WEBHOOK_MAX_BYTES, REPLICATE_WEBHOOK_PATH } from '@/server/capabilities/engine/replicate/replicate-webhook';
import { readBodyText } from '@/server/doors/body';
import type { DoorReply } from '@/server/doors/door';

/**
 * POST /hooks/replicate/<token>: Replicate's webhook. A wrong method or token is 404 like any
 * unknown URL (the token is the credential; nothing says the path exists); 204 when accepted.
 */
export async function serveReplicateHook(req: Request): Promise<DoorReply> {
  const token = new URL(req.url).pathname.slice(REPLICATE_WEBHOOK_PATH.length);
  if (req.method !== 'POST' || !checkCallbackToken(token)) throw new DomainError('route_not_found', 'No such route.');
  await acceptReplicateWebhook(await readBodyText(req, REPLICATE_WEBHOOK_MAX_BYTES));
  return { status: 204, headers: {}, body: '' };
}
