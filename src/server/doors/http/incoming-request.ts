import type http from 'node:http';
import { stampClientIp } from '@/server/doors/client-ip';

/**
 * What only the raw request knows, written onto it by the edge server before any handler
 * reads it:
 * - the socket address (client-ip.ts);
 * - every `Authorization` header. Node keeps only the first of repeated Authorization headers
 *   in `req.headers`, so `rt_test_…` then `rt_live_…` would authenticate as the first key while a
 *   proxy or a logger may have acted on the second. The values are joined with ", " (how HTTP
 *   combines repeated fields), which no single credential contains: keys/keys.ts refuses it.
 */
export function stampIncomingRequest(req: http.IncomingMessage): void {
  stampClientIp(req);
  joinRepeatedAuthorization(req);
}

function joinRepeatedAuthorization(req: http.IncomingMessage): void {
  let values: string[] | null = null;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') (values ??= []).push(raw[i + 1]!);
  }
  if (values && values.length > 1) req.headers.authorization = values.join(', ');
}
