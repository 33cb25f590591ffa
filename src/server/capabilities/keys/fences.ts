import net from 'node:net';
import { DomainError, invalidParam } from '@/server/platform/errors';

/**
 * A key's fences, each optional: the networks its requests must come from (IPv4/IPv6 CIDRs,
 * judged on the same client IP the per-IP rate limit counts: doors/client-ip.ts), a request rate
 * below its organization's, and a monthly spend cap below the organization's monthly limit
 * (billing/monthly-spend.ts). They narrow what the key may do; none widens the organization's.
 */
export const MAX_ALLOWED_IPS = 50;

export interface KeyFences {
  /** Canonical CIDRs (`203.0.113.0/24`, `2001:db8::/32`); empty: any address. */
  allowedIps: string[];
  requestsPerMinute: number | null;
  monthlySpendCapCents: number | null;
}

interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) is the IPv4 address it carries. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** An address or CIDR as a client writes it, or null if it is neither. */
export function parseCidr(entry: string): Cidr | null {
  const [rawAddress, rawPrefix, extra] = entry.trim().split('/');
  if (extra !== undefined || !rawAddress) return null;
  const address = unmapped(rawAddress);
  const version = net.isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (rawPrefix !== undefined && !/^\d{1,3}$/.test(rawPrefix)) return null;
  const prefix = rawPrefix === undefined ? max : Number(rawPrefix);
  if (prefix > max) return null;
  // IPv6 in its one canonical spelling (lower case, longest zero run compressed), as URLs write it.
  const canonical = version === 6 ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
  return { address: canonical, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * The allowlist to store: each entry checked and written as a CIDR (a bare address is its /32
 * or /128), duplicates dropped. `param` names the faulty entry (`allowed_ips[3]`).
 */
export function normalizeAllowlist(entries: readonly string[], param = 'allowed_ips'): string[] {
  if (entries.length > MAX_ALLOWED_IPS) throw invalidParam(param, `At most ${MAX_ALLOWED_IPS} addresses or networks per key.`);
  const out: string[] = [];
  entries.forEach((entry, i) => {
    const cidr = parseCidr(entry);
    if (!cidr) throw invalidParam(`${param}[${i}]`, `'${entry.slice(0, 60)}' is not an IPv4 or IPv6 address or CIDR (for example 203.0.113.0/24 or 2001:db8::/32).`);
    const text = `${cidr.address}/${cidr.prefix}`;
    if (!out.includes(text)) out.push(text);
  });
  return out;
}

// Built once per stored list: the cached key keeps the same array from request to request.
const blockLists = new WeakMap<readonly string[], net.BlockList>();

function blockListOf(allowedIps: readonly string[]): net.BlockList {
  let list = blockLists.get(allowedIps);
  if (!list) {
    list = new net.BlockList();
    for (const entry of allowedIps) {
      const cidr = parseCidr(entry);
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
    blockLists.set(allowedIps, list);
  }
  return list;
}

/** Whether a request from `ip` passes the allowlist (an empty list admits every address; an unknown address passes none). */
export function ipAllowed(allowedIps: readonly string[], ip: string | null): boolean {
  if (allowedIps.length === 0) return true;
  if (!ip) return false;
  const address = unmapped(ip);
  const version = net.isIP(address);
  if (version === 0) return false;
  return blockListOf(allowedIps).check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** 403 api_key_ip_not_allowed: names the key's id and the address, never the secret. */
export function assertIpAllowed(key: { keyId: string; allowedIps: readonly string[] }, ip: string | null): void {
  if (ipAllowed(key.allowedIps, ip)) return;
  throw new DomainError(
    'api_key_ip_not_allowed',
    `API key ${key.keyId} only accepts requests from its IP allowlist; this request came from ${ip ?? 'an unknown address'}. An admin can change the allowlist in the console.`,
  );
}
