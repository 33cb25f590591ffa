/**
 * The one SSRF-safe outbound HTTP client: image downloads (a creation's inputs, a generative
 * backend's outputs) and webhook deliveries.
 *
 * Every request, and every redirect hop, goes through the same steps:
 *   1. URL shape: https only, port 443 only, at most 2048 characters, no credentials.
 *   2. Resolve the host once (IP literals are taken as they are; the WHATWG URL parser has
 *      already turned legacy forms such as `2130706433`, `0177.0.0.1` or `0x7f.1` into a
 *      dotted quad) and refuse unless EVERY address is public unicast.
 *   3. Connect to that checked address (custom `lookup`, so no second DNS query can be
 *      rebound to something else) while keeping the host name for SNI and certificate checks.
 *   4. Stream the body with a byte limit (abort at the first byte beyond) under a deadline.
 *
 * No shared connection pool: a socket from Node's global agent could have been opened by
 * someone who did not run these checks. Callers that talk to the same receiver again and again
 * (webhook deliveries, a backend's output downloads) may ask for `keepAlive`: the sockets then live in this module's own
 * agents, one per checked address, so a reused socket always leads to an address that passed
 * step 2 for the same host name, and every request still runs steps 1 and 2 first.
 * No Accept-Encoding is sent, so no decompression bombs.
 *
 * Development only: DEV_ALLOW_LOOPBACK_URLS=true lets exactly 127.0.0.1 and ::1 through
 * (nothing else non-public, not even 127.0.0.2), and lets a test pass `allowLoopbackPort`
 * to reach a loopback server on a port other than 443.
 */
import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import { config } from '@/server/platform/config';
import { deadline } from '@/server/platform/deadline';
import type { IncomingMessage } from 'node:http';

import { DomainError } from '@/server/platform/errors';

export const MAX_URL_LENGTH = 2048;
export const MAX_REDIRECTS = 5;
/** Spec: all URLs of a request must download within 30 seconds (DOWNLOAD_DEADLINE_MS). */
export function downloadDeadlineMs(): number {
  return config().DOWNLOAD_DEADLINE_MS;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export type UnsafeUrlReason =
  | 'invalid_url'
  | 'scheme'
  | 'port'
  | 'too_long'
  | 'credentials'
  | 'private_address'
  | 'redirect_to_http';

/** The URL was refused by the rules, before (or instead of) any connection. */
export class UnsafeUrlError extends Error {
  readonly reason: UnsafeUrlReason;
  constructor(reason: UnsafeUrlReason, message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
    this.reason = reason;
  }
}

export type OutboundErrorKind =
  | 'dns' // name did not resolve
  | 'connect' // refused, reset, closed early
  | 'tls' // handshake or certificate failure
  | 'timeout' // our own timeoutMs elapsed
  | 'aborted' // the caller's signal fired (its shared deadline)
  | 'too_large' // body beyond maxResponseBytes
  | 'too_many_redirects'
  | 'bad_redirect'; // 3xx without a usable Location

/** The URL was allowed but the exchange failed. */
export class OutboundError extends Error {
  readonly kind: OutboundErrorKind;
  constructor(kind: OutboundErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundError';
    this.kind = kind;
  }
}

// ---------------------------------------------------------------------------------------------
// Development flag
// ---------------------------------------------------------------------------------------------

/** Read at call time (not at import) so tests and the CLI can toggle it. */
export function loopbackUrlsAllowed(): boolean {
  return config().DEV_ALLOW_LOOPBACK_URLS;
}

/** The line the server logs at start when the flag is on; null when it is off. */
export function loopbackWarning(): string | null {
  if (!loopbackUrlsAllowed()) return null;
  return (
    'WARNING: DEV_ALLOW_LOOPBACK_URLS=true: outbound requests (image downloads, webhooks) may ' +
    'reach 127.0.0.1 and ::1 on this machine. Never enable this in production.'
  );
}

// ---------------------------------------------------------------------------------------------
// Address classification
// ---------------------------------------------------------------------------------------------

/** Canonical dotted quad → uint32, or null. Legacy forms are the URL parser's job, not ours. */
function parseIPv4(ip: string): number | null {
  if (!net.isIPv4(ip)) return null;
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4) return null;
  const [a = 0, b = 0, c = 0, d = 0] = parts;
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** IPv6 text (optionally with an embedded dotted quad) → 16 bytes, or null. Zones refused. */
function parseIPv6(ip: string): Uint8Array | null {
  if (ip.includes('%') || !net.isIPv6(ip)) return null;
  let text = ip;
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    tail.push(v4 >>> 16, v4 & 0xffff);
    text = text.slice(0, lastColon + 1) + '0'; // placeholder hextet, dropped below
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toHextets = (s: string): number[] => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const left = toHextets(halves[0] ?? '');
  const right = halves.length === 2 ? toHextets(halves[1] ?? '') : [];
  if (tail.length) {
    // Replace the placeholder with the two hextets of the dotted quad.
    const target = halves.length === 2 ? right : left;
    target.pop();
    target.push(...tail);
  }
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const hextets = [...left, ...new Array<number>(missing).fill(0), ...right];
  const bytes = new Uint8Array(16);
  hextets.forEach((h, i) => {
    bytes[i * 2] = (h >> 8) & 0xff;
    bytes[i * 2 + 1] = h & 0xff;
  });
  return bytes;
}

/** IANA special-purpose IPv4 blocks (and friends) that are never a legitimate destination. */
const NON_PUBLIC_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT shared address space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes 255.255.255.255 broadcast
];
const NON_PUBLIC_V4_RANGES = NON_PUBLIC_V4.map(([base, len]) => {
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  return { net: ((parseIPv4(base) ?? 0) & mask) >>> 0, mask };
});

function isPublicIPv4Number(n: number): boolean {
  return !NON_PUBLIC_V4_RANGES.some((r) => ((n & r.mask) >>> 0) === r.net);
}

function v4At(bytes: Uint8Array, offset: number): number {
  return (
    (((bytes[offset] ?? 0) << 24) |
      ((bytes[offset + 1] ?? 0) << 16) |
      ((bytes[offset + 2] ?? 0) << 8) |
      (bytes[offset + 3] ?? 0)) >>>
    0
  );
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/**
 * IPv6 is judged by allowlist: only global unicast 2000::/3 minus its special blocks, plus
 * the two forms that carry an IPv4 address we can judge (IPv4-mapped, NAT64 well-known).
 * Everything else (::, ::1, IPv4-compatible ::/96, fc00::/7, fe80::/10, fec0::/10, ff00::/8,
 * 100::/64, 64:ff9b:1::/48 local NAT64, 5f00::/16 SRv6, ...) is refused.
 */
function isPublicIPv6Bytes(b: Uint8Array): boolean {
  const zeros10 = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  if (startsWith(b, [...zeros10, 0xff, 0xff])) return isPublicIPv4Number(v4At(b, 12)); // ::ffff:a.b.c.d
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return isPublicIPv4Number(v4At(b, 12)); // 64:ff9b::/96
  const b0 = b[0] ?? 0;
  const b1 = b[1] ?? 0;
  const b2 = b[2] ?? 0;
  if ((b0 & 0xe0) !== 0x20) return false; // outside 2000::/3
  if (b0 === 0x20 && b1 === 0x02) return isPublicIPv4Number(v4At(b, 2)); // 6to4 2002::/16
  if (b0 === 0x20 && b1 === 0x01 && (b2 & 0xfe) === 0x00) return false; // 2001::/23 (Teredo, benchmarking, ORCHID…)
  if (b0 === 0x20 && b1 === 0x01 && b2 === 0x0d && b[3] === 0xb8) return false; // 2001:db8::/32 documentation
  if (b0 === 0x3f && b1 === 0xff && (b2 & 0xf0) === 0x00) return false; // 3fff::/20 documentation
  return true;
}

/**
 * True when `ip` (canonical IPv4 dotted quad or IPv6 text) is public unicast. Anything that
 * does not parse as an IP (including legacy IPv4 spellings and zoned IPv6) is false.
 */
export function isPublicAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return isPublicIPv4Number(v4);
  const v6 = parseIPv6(ip);
  if (v6 !== null) return isPublicIPv6Bytes(v6);
  return false;
}

/** Exactly 127.0.0.1 or ::1 (any spelling of ::1, but not ::ffff:127.0.0.1). */
function isDevLoopback(ip: string): boolean {
  if (parseIPv4(ip) === 0x7f000001) return true;
  const v6 = parseIPv6(ip);
  return v6 !== null && v6.every((byte, i) => byte === (i === 15 ? 1 : 0));
}

function isAllowedAddress(ip: string): boolean {
  return isPublicAddress(ip) || (loopbackUrlsAllowed() && isDevLoopback(ip));
}

// ---------------------------------------------------------------------------------------------
// URL checks and resolution
// ---------------------------------------------------------------------------------------------

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Injectable resolver (tests); the default is dns.lookup({ all: true }). */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

const defaultResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface CheckOptions {
  signal?: AbortSignal;
  resolver?: Resolver;
  /**
   * Test hook: a non-443 port allowed only while DEV_ALLOW_LOOPBACK_URLS=true and only when
   * every resolved address is 127.0.0.1 / ::1. Ignored otherwise.
   */
  allowLoopbackPort?: number;
}

export interface CheckedTarget {
  url: URL;
  /** Host name without IPv6 brackets: used for SNI, certificate checks and Host. */
  hostname: string;
  port: number;
  /** Every address the name resolved to (all checked); we connect to the first. */
  addresses: ResolvedAddress[];
}

/** Shape rules only (no DNS, no port): https, length, credentials. */
export function checkUrlShape(input: string | URL): URL {
  const text = typeof input === 'string' ? input : input.href;
  if (text.length > MAX_URL_LENGTH) {
    throw new UnsafeUrlError('too_long', `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeUrlError('invalid_url', 'The URL is not valid.');
  }
  if (url.href.length > MAX_URL_LENGTH) {
    throw new UnsafeUrlError('too_long', `The URL is longer than ${MAX_URL_LENGTH} characters.`);
  }
  if (url.protocol !== 'https:') throw new UnsafeUrlError('scheme', 'The URL must use https.');
  if (url.username !== '' || url.password !== '') {
    throw new UnsafeUrlError('credentials', 'The URL must not contain credentials.');
  }
  if (url.hostname === '') throw new UnsafeUrlError('invalid_url', 'The URL has no host.');
  return url;
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Full pre-connection check: shape, resolution, every address allowed, port 443.
 * Exported for webhook endpoint declaration ("must resolve to public IP addresses").
 */
export async function checkUrl(input: string | URL, options: CheckOptions = {}): Promise<CheckedTarget> {
  const url = checkUrlShape(input);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? 443 : Number(url.port);
  // The test-port exception needs the flag; whether the host is loopback is checked below.
  const testPort =
    port !== 443 && options.allowLoopbackPort !== undefined && port === options.allowLoopbackPort && loopbackUrlsAllowed();
  if (port !== 443 && !testPort) throw new UnsafeUrlError('port', 'The URL must use port 443.');

  let resolved: ReadonlyArray<{ address: string; family: number }>;
  if (net.isIP(hostname) !== 0) {
    resolved = [{ address: hostname, family: net.isIP(hostname) }];
  } else {
    try {
      resolved = await raceSignal((options.resolver ?? defaultResolver)(hostname), options.signal);
    } catch (err) {
      if (err instanceof OutboundError) throw err;
      throw new OutboundError('dns', `The host ${hostname} could not be resolved.`, { cause: err });
    }
  }
  if (resolved.length === 0) throw new OutboundError('dns', `The host ${hostname} did not resolve.`);

  const addresses: ResolvedAddress[] = [];
  for (const r of resolved) {
    const family = net.isIP(r.address);
    // Every address must pass: a name that mixes public and private answers is refused whole.
    if ((family !== 4 && family !== 6) || !isAllowedAddress(r.address)) {
      throw new UnsafeUrlError('private_address', 'The URL points to a private, local or reserved address.');
    }
    addresses.push({ address: r.address, family });
  }

  if (testPort && !addresses.every((a) => isDevLoopback(a.address))) {
    throw new UnsafeUrlError('port', 'The URL must use port 443.');
  }
  return { url, hostname, port, addresses };
}

/** Names that are never public hosts: loopback, link-local mDNS, private-use and reserved names. */
const NON_PUBLIC_NAME = /(^|\.)(localhost|local|internal|invalid|home\.arpa|lan|intranet)$/i;

/**
 * The rules a URL must pass that need no DNS: https, port 443, no credentials, and a host that
 * can be public — an IP literal must be a public address (loopback with
 * DEV_ALLOW_LOOPBACK_URLS), a name must have a dot and not be a reserved or local name. Used where
 * a URL is stored for later (webhook endpoints): resolution then happens at each use, by
 * safeRequest, so an answer that changes (or fails) between now and then is caught there.
 */
export function checkUrlWithoutResolving(input: string | URL): URL {
  const url = checkUrlShape(input);
  if (url.port !== '' && url.port !== '443') throw new UnsafeUrlError('port', 'The URL must use port 443.');
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(hostname) !== 0) {
    if (!isAllowedAddress(hostname)) throw new UnsafeUrlError('private_address', 'The URL points to a private, local or reserved address.');
    return url;
  }
  if (!hostname.includes('.') || NON_PUBLIC_NAME.test(hostname.replace(/\.$/, ''))) {
    throw new UnsafeUrlError('private_address', `The host ${hostname} is not a public host name.`);
  }
  return url;
}

// ---------------------------------------------------------------------------------------------
// One exchange
// ---------------------------------------------------------------------------------------------

function abortError(signal: AbortSignal): OutboundError {
  const reason: unknown = signal.reason;
  if (reason instanceof OutboundError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new OutboundError('aborted', 'The download deadline passed.', { cause: reason });
  }
  return new OutboundError('aborted', 'The request was aborted.', { cause: reason });
}

function classifyNetworkError(err: Error): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_|HOSTNAME_MISMATCH/.test(code)) {
    return new OutboundError('tls', `TLS failure (${code}).`, { cause: err });
  }
  return new OutboundError('connect', `Connection failure${code ? ` (${code})` : ''}.`, { cause: err });
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function flattenHeaders(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Keep-alive agents of this module, keyed by checked address (the agent's own key adds host
 * name, port, SNI and CA). Idle sockets are closed after 4 s, under the 5 s that common servers
 * (Node's default) keep an idle connection, so a reused socket is rarely already closed.
 */
const pooledAgents = new Map<string, https.Agent>();
const POOL_IDLE_MS = 4_000;

function pooledAgent(address: string): https.Agent {
  let agent = pooledAgents.get(address);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, keepAliveMsecs: 1_000, timeout: POOL_IDLE_MS, maxFreeSockets: 64, scheduling: 'lifo' });
    pooledAgents.set(address, agent);
  }
  return agent;
}

interface ExchangeInput {
  /** Reuse sockets (module-private agents, see pooledAgent). */
  keepAlive?: boolean;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  maxResponseBytes: number;
  /** 'error': throw too_large; 'truncate': keep the first maxResponseBytes and stop reading. */
  onTooLarge: 'error' | 'truncate';
  /** When true, a 3xx is returned at once without reading its body. */
  stopAtRedirect: boolean;
  ca?: string | Buffer | Array<string | Buffer>;
}

interface ExchangeResult {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

async function exchange(target: CheckedTarget, input: ExchangeInput, signal: AbortSignal): Promise<ExchangeResult> {
  try {
    return await exchangeOnce(target, input, signal);
  } catch (error) {
    // A kept-alive socket the server closed just as we reused it: the request never reached
    // the receiver's application (no response started), so it is sent once more on a new one.
    if (error instanceof StaleSocketError) return exchangeOnce(target, { ...input, keepAlive: false }, signal);
    throw error;
  }
}

class StaleSocketError extends Error {}

function exchangeOnce(target: CheckedTarget, input: ExchangeInput, signal: AbortSignal): Promise<ExchangeResult> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  const first = target.addresses[0];
  if (!first) return Promise.reject(new OutboundError('dns', 'No address to connect to.'));
  const hostIsIp = net.isIP(target.hostname) !== 0;

  return new Promise<ExchangeResult>((resolve, reject) => {
    let settled = false;
    const settle = (err: Error | null, value?: ExchangeResult): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else if (value) {
        resolve(value);
      }
    };
    const onAbort = (): void => settle(abortError(signal));

    // Connect to the address we checked, whatever DNS says now. Handles both lookup
    // call shapes (net asks for `all` when autoSelectFamily is on).
    const lookup: net.LookupFunction = (_hostname, opts, callback) => {
      if (opts.all) callback(null, [{ address: first.address, family: first.family }]);
      else callback(null, first.address, first.family);
    };

    const headers: Record<string, string> = { ...input.headers };
    if (input.body) headers['content-length'] = String(input.body.length);

    const req = https.request({
      protocol: 'https:',
      hostname: target.hostname,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: input.method,
      headers,
      agent: input.keepAlive ? pooledAgent(first.address) : false,
      lookup,
      // SNI must not be an IP literal (RFC 6066); certificate checks still use `hostname`.
      ...(hostIsIp ? {} : { servername: target.hostname }),
      ...(input.ca !== undefined ? { ca: input.ca } : {}),
    });

    let responded = false;
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (req.reusedSocket && !responded && (code === 'ECONNRESET' || code === 'EPIPE')) settle(new StaleSocketError(code));
      else settle(classifyNetworkError(err));
    });
    req.on('response', (res) => {
      responded = true;
      const status = res.statusCode ?? 0;
      const resHeaders = flattenHeaders(res);
      res.on('error', (err) => settle(classifyNetworkError(err)));

      if (input.stopAtRedirect && REDIRECT_STATUSES.has(status)) {
        settle(null, { status, headers: resHeaders, body: Buffer.alloc(0), truncated: false });
        res.destroy();
        return;
      }

      const max = input.maxResponseBytes;
      const declared = Number(resHeaders['content-length']);
      if (input.onTooLarge === 'error' && Number.isFinite(declared) && declared > max) {
        settle(new OutboundError('too_large', `The response is larger than ${max} bytes.`));
        res.destroy();
        return;
      }

      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = max - total;
        if (chunk.length > room) {
          // Stop at the first byte beyond the limit: nothing more is read or kept.
          if (input.onTooLarge === 'truncate') {
            chunks.push(chunk.subarray(0, room));
            total += room;
            settle(null, { status, headers: resHeaders, body: Buffer.concat(chunks, total), truncated: true });
          } else {
            settle(new OutboundError('too_large', `The response is larger than ${max} bytes.`));
          }
          res.destroy();
          return;
        }
        chunks.push(chunk);
        total += chunk.length;
      });
      res.on('end', () => settle(null, { status, headers: resHeaders, body: Buffer.concat(chunks, total), truncated: false }));
      res.on('close', () => {
        if (!settled) settle(new OutboundError('connect', 'The connection closed before the response ended.'));
      });
    });

    signal.addEventListener('abort', onAbort, { once: true });
    req.end(input.body ?? undefined);
  });
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

export interface SafeRequestOptions extends Omit<CheckOptions, 'signal'> {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | null;
  /** Time for the whole call, redirects included. Default 10 s. */
  timeoutMs?: number;
  /** Caller's deadline (e.g. shared by all URLs of a request). */
  signal?: AbortSignal;
  /** Default false: webhooks never follow redirects (a 3xx is returned as is). */
  followRedirects?: boolean;
  /** Default 5 (spec). Only with followRedirects. */
  maxRedirects?: number;
  /** Default 1 MiB. */
  maxResponseBytes?: number;
  /** 'error' (default) throws OutboundError('too_large'); 'truncate' keeps the first bytes. */
  onTooLarge?: 'error' | 'truncate';
  /** Extra trusted CA(s), PEM. Replaces the default bundle for this request (tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Reuse connections to the same checked address (webhook deliveries, backend outputs). Default false. */
  keepAlive?: boolean;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that produced this response (after redirects). */
  finalUrl: string;
  /** True only with onTooLarge 'truncate' when the body was cut. */
  truncated: boolean;
}

const SENSITIVE_ON_CROSS_ORIGIN = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Low-level request. Throws UnsafeUrlError (refused by the rules) or OutboundError (failed);
 * any HTTP status is returned, the caller decides what a failure is.
 */
export async function safeRequest(url: string | URL, options: SafeRequestOptions = {}): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Our own timeout and the caller's deadline are told apart in the error kind.
  const limit = deadline(timeoutMs, [options.signal], { reason: () => new OutboundError('timeout', `No complete answer within ${timeoutMs} ms.`) });
  const { signal } = limit;

  const follow = options.followRedirects ?? false;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let method = (options.method ?? 'GET').toUpperCase();
  let headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
  let body: Buffer | null =
    options.body === undefined || options.body === null
      ? null
      : typeof options.body === 'string'
        ? Buffer.from(options.body, 'utf8')
        : options.body;

  try {
    let current: string | URL = url;
    for (let hop = 0; ; hop++) {
      const target = await checkUrl(current, {
        signal,
        ...(options.resolver ? { resolver: options.resolver } : {}),
        ...(options.allowLoopbackPort !== undefined ? { allowLoopbackPort: options.allowLoopbackPort } : {}),
      });
      const result = await exchange(
        target,
        {
          method,
          headers,
          body,
          maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
          onTooLarge: options.onTooLarge ?? 'error',
          stopAtRedirect: follow,
          keepAlive: options.keepAlive ?? false,
          ...(options.ca !== undefined ? { ca: options.ca } : {}),
        },
        signal,
      );
      if (!follow || !REDIRECT_STATUSES.has(result.status)) {
        return { ...result, finalUrl: target.url.href };
      }
      if (hop >= maxRedirects) {
        throw new OutboundError('too_many_redirects', `More than ${maxRedirects} redirects.`);
      }
      const location = result.headers.location;
      let next: URL;
      try {
        if (!location) throw new Error('no location');
        next = new URL(location, target.url);
      } catch {
        throw new OutboundError('bad_redirect', 'A redirect had no valid Location.');
      }
      if (next.protocol === 'http:') {
        throw new UnsafeUrlError('redirect_to_http', 'A redirect from https to http was refused.');
      }
      // Browser semantics: 303 (and 301/302 after POST) continue as GET without a body.
      if (result.status === 303 || ((result.status === 301 || result.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = null;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !k.startsWith('content-')));
      }
      if (next.origin !== target.url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !SENSITIVE_ON_CROSS_ORIGIN.includes(k)));
      }
      current = next;
    }
  } finally {
    limit.dispose();
  }
}

export interface SafeDownloadOptions {
  maxBytes: number;
  /** The request's shared deadline (spec: all URLs within 30 s). */
  signal?: AbortSignal;
  /** Field named in errors: image, mask, layers[0].element. */
  param: string;
  /** Per-download cap in addition to `signal`. Default DOWNLOAD_DEADLINE_MS. */
  timeoutMs?: number;
  ca?: string | Buffer | Array<string | Buffer>;
  resolver?: Resolver;
  allowLoopbackPort?: number;
}

export interface Download {
  body: Buffer;
  contentType: string | null;
  finalUrl: string;
}

/** Client-facing wording per refusal; the reason is useful and reveals nothing internal. */
function describeFailure(err: unknown): string {
  if (err instanceof UnsafeUrlError) return err.message;
  if (err instanceof OutboundError) {
    switch (err.kind) {
      case 'dns':
        return 'The host of the URL could not be resolved.';
      case 'tls':
        return 'The TLS connection to the URL failed (certificate not trusted or handshake error).';
      case 'timeout':
      case 'aborted':
        return 'The image did not download within the time limit.';
      case 'too_many_redirects':
        return `The URL redirected more than ${MAX_REDIRECTS} times.`;
      case 'bad_redirect':
        return 'The URL answered a redirect without a valid Location.';
      default:
        return 'The URL could not be reached.';
    }
  }
  return 'The URL could not be reached.';
}

/**
 * Download an image for a creation request. Throws DomainError:
 *  - image_too_large (param) when the body exceeds maxBytes (declared or streamed);
 *  - image_url_unreachable (param) for every other refusal or failure, non-2xx included.
 * The body is returned as received; format checks are the caller's (images/intake).
 */
export async function safeDownload(url: string, options: SafeDownloadOptions): Promise<Download> {
  const { param } = options;
  let res: SafeResponse;
  try {
    res = await safeRequest(url, {
      method: 'GET',
      headers: { accept: 'image/jpeg, image/png, image/webp, */*;q=0.1', 'user-agent': 'Roomtone-ImageFetcher/1.0' },
      timeoutMs: options.timeoutMs ?? downloadDeadlineMs(),
      followRedirects: true,
      maxRedirects: MAX_REDIRECTS,
      maxResponseBytes: options.maxBytes,
      onTooLarge: 'error',
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      ...(options.resolver ? { resolver: options.resolver } : {}),
      ...(options.allowLoopbackPort !== undefined ? { allowLoopbackPort: options.allowLoopbackPort } : {}),
    });
  } catch (err) {
    if (err instanceof OutboundError && err.kind === 'too_large') {
      throw new DomainError('image_too_large', `The image at this URL is larger than ${options.maxBytes} bytes.`, {
        param,
      });
    }
    throw new DomainError('image_url_unreachable', describeFailure(err), { param });
  }
  if (res.status < 200 || res.status > 299) {
    throw new DomainError('image_url_unreachable', `The URL answered HTTP ${res.status}.`, { param });
  }
  return { body: res.body, contentType: res.headers['content-type'] ?? null, finalUrl: res.finalUrl };
}
