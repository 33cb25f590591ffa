import type http from 'node:http';
import { log } from '@/server/platform/logger';
import { announceBackendEvent, checkCallbackToken } from '../backends/events';

/** Path prefix of Replicate's webhook calls: /hooks/replicate/<generation id>.<HMAC>. */
export const REPLICATE_WEBHOOK_PATH = '/hooks/replicate/';
const MAX_BODY = 1024 * 1024;

/**
 * Replicate's webhook (prediction completed). The token in the path proves we issued the URL;
 * the body is used only for the prediction id: the waiting worker reads the prediction from
 * Replicate's API itself, so a replayed or forged body cannot change an outcome.
 */
export function serveReplicateWebhook(req: http.IncomingMessage, res: http.ServerResponse): void {
  const token = (req.url ?? '').slice(REPLICATE_WEBHOOK_PATH.length).split('?')[0] ?? '';
  if (req.method !== 'POST' || !checkCallbackToken(token)) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"route_not_found","message":"No such route."}}');
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    void (async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
        if (typeof body.id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(body.id)) throw new Error('no prediction id');
        await announceBackendEvent(body.id);
        res.writeHead(204).end();
      } catch (error) {
        log.warn('Replicate webhook refused', { error: String(error) });
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"code":"parameter_invalid","message":"Not a prediction."}}');
      }
    })();
  });
}
