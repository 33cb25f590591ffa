import type http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import type { RequestHead } from './request-head';

/**
 * The client IP of a request (per-IP rate limits of the API and of sign-in, request log). Only
 * this process may say it: the socket address is stamped on every incoming request under a
 * header whose value carries a per-process random token, so a client sending
 * `x-roomtone-client-ip` itself is never believed (its copy is overwritten, and a copy without
 * the token is ignored). The edge server puts the stamp (http/incoming-request.ts).
 */
export const CLIENT_IP_HEADER = 'x-roomtone-client-ip';

const token = randomBytes(12).toString('hex');

export function stampClientIp(req: http.IncomingMessage): void {
  req.headers[CLIENT_IP_HEADER] = `${token}/${req.socket.remoteAddress ?? ''}`;
}

/** An address as a proxy may write it (`1.2.3.4`, `1.2.3.4:80`, `[::1]:80`, `::1`), or null if it is none. */
function addressOf(entry: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  const candidate = bracketed ? bracketed[1]! : /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry)?.[1] ?? entry;
  return net.isIP(candidate) ? candidate : null;
}

/**
 * The client address behind `hops` trusted proxies. Each proxy appends the address it received
 * the request from to X-Forwarded-For, so only the right-most `hops` entries were written by
 * proxies we trust; everything to their left is whatever the client sent. The client is the
 * `hops`-th entry from the right (the socket address with 0 hops). With fewer entries than
 * hops, the request skipped part of the chain and its left-most entry is the farthest address
 * known (proxy-addr's rule, as in Express). An entry that is not an address counts as absent.
 */
export function clientIpFrom(forwardedFor: string | null, socketAddress: string | null, hops: number): string | null {
  if (hops <= 0 || !forwardedFor) return socketAddress;
  const entries = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return socketAddress;
  const chosen = entries[Math.max(0, entries.length - hops)]!;
  return addressOf(chosen) ?? socketAddress;
}

let warned = false;

function stampedSocketAddress(req: RequestHead): string | null | undefined {
  const stamped = req.headers.get(CLIENT_IP_HEADER);
  if (stamped?.startsWith(`${token}/`)) return stamped.slice(token.length + 1) || null;
  return undefined;
}

export function clientIp(req: RequestHead): string | null {
  const socketAddress = stampedSocketAddress(req);
  if (socketAddress === undefined && !warned) {
    warned = true;
    log.warn('a request arrived without the client IP stamp: per-IP limits count it as "unknown"');
  }
  return clientIpFrom(req.headers.get('x-forwarded-for'), socketAddress ?? null, config().TRUST_PROXY);
}
