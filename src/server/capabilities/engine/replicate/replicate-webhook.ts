import { DomainError } from '@/server/platform/errors';
import { log } from '@/server/platform/logger';
import { announceBackendEvent } from '../backends/events';

/** Path prefix of Replicate's webhook calls: /hooks/replicate/<generation id>.<HMAC>. */
export const REPLICATE_WEBHOOK_PATH = '/hooks/replicate/';
/** Replicate's prediction object is a few kB; anything near this is not one. */
export const REPLICATE_WEBHOOK_MAX_BYTES = 1024 * 1024;

/**
 * Replicate's webhook (prediction completed), its body as sent, once the token in the path
 * proved we issued the URL (`checkCallbackToken`). The body is used only for the prediction
 * id: the waiting worker reads the prediction from Replicate's API itself, so a replayed or
 * forged body cannot change an outcome.
 */
export async function acceptReplicateWebhook(body: string): Promise<void> {
  let id: unknown;
  try {
    id = (JSON.parse(body) as { id?: unknown } | null)?.id;
  } catch {
    // not JSON: refused below
  }
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(id)) {
    log.warn('Replicate webhook refused', { error: 'no prediction id' });
    throw new DomainError('parameter_invalid', 'Not a prediction.');
  }
  await announceBackendEvent(id);
}
