import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';

/**
 * The client IP of a request (per-IP rate limit, request log). Only this process may say it:
 * the socket address is stamped on every incoming request under a header whose value carries
 * a per-process random token, so a client sending `x-roomtone-client-ip` itself is never
 * believed (its copy is overwritten, and a copy without the token is ignored). The stamp is
 * put by the launcher's server and, under plain `next start`, by instrumentation.ts on every
 * node:http server of the process. `TRUST_PROXY` governs `X-Forwarded-For` identically on
 * both paths: its first hop, when present, else the socket address.
 */
export const CLIENT_IP_HEADER = 'x-roomtone-client-ip';

const shared = globalThis as unknown as { roomtoneClientIpToken?: string };
const token = (shared.roomtoneClientIpToken ??= randomBytes(12).toString('hex'));

export function stampClientIp(req: http.IncomingMessage): void {
  req.headers[CLIENT_IP_HEADER] = `${token}/${req.socket.remoteAddress ?? ''}`;
}

let warned = false;

export function clientIp(req: Request): string | null {
  if (config().TRUST_PROXY) {
    const forwarded = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const stamped = req.headers.get(CLIENT_IP_HEADER);
  if (stamped?.startsWith(`${token}/`)) return stamped.slice(token.length + 1) || null;
  if (!warned) {
    warned = true;
    log.warn('a request reached /v1 without the client IP stamp: per-IP limits count it as "unknown"');
  }
  return null;
}

/** Stamp every request of every node:http server in this process (plain `next start`). */
export function stampEveryServer(): void {
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean; roomtoneStamped?: true };
  if (proto.roomtoneStamped) return;
  proto.roomtoneStamped = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === 'request') stampClientIp(args[0] as http.IncomingMessage);
    return emit.call(this, event, ...args);
  };
}
