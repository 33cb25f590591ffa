import { describe, expect, it } from 'vitest';
import { DomainError } from '@/server/platform/errors';
import { assertIpAllowed, ipAllowed, MAX_ALLOWED_IPS, normalizeAllowlist } from './fences';

describe('key IP allowlists', () => {
  it('stores entries as CIDRs: a bare address is its /32 or /128, duplicates once, IPv4-mapped IPv6 as IPv4', () => {
    expect(normalizeAllowlist(['203.0.113.0/24', ' 198.51.100.7 ', '2001:db8::/32', '::1', '198.51.100.7/32', '::ffff:192.0.2.9'])).toEqual([
      '203.0.113.0/24',
      '198.51.100.7/32',
      '2001:db8::/32',
      '::1/128',
      '192.0.2.9/32',
    ]);
    expect(normalizeAllowlist(['2001:DB8:0:0:0:0:0:1', '2001:db8::1/128'])).toEqual(['2001:db8::1/128']);
  });

  it.each(['203.0.113.0/33', '2001:db8::/129', 'example.com', '10.0.0.1/8/1', '10.0.0/8', '10.0.0.1/-1', '10.0.0.1/x', ''])('refuses %j with the entry as param', (entry) => {
    const error = (() => {
      try {
        normalizeAllowlist(['192.0.2.1', entry]);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('parameter_invalid');
    expect((error as DomainError).param).toBe('allowed_ips[1]');
  });

  it(`accepts ${MAX_ALLOWED_IPS} entries and refuses one more`, () => {
    const entries = Array.from({ length: MAX_ALLOWED_IPS + 1 }, (_, i) => `10.0.${i}.0/24`);
    expect(normalizeAllowlist(entries.slice(0, MAX_ALLOWED_IPS))).toHaveLength(MAX_ALLOWED_IPS);
    expect(() => normalizeAllowlist(entries)).toThrow(DomainError);
  });

  it('admits addresses inside a network of the list only, in both families', () => {
    const list = normalizeAllowlist(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect(ipAllowed(list, '203.0.113.200')).toBe(true);
    expect(ipAllowed(list, '::ffff:203.0.113.5')).toBe(true);
    expect(ipAllowed(list, '203.0.114.1')).toBe(false);
    expect(ipAllowed(list, '2001:db8:1::42')).toBe(true);
    expect(ipAllowed(list, '2001:db9::1')).toBe(false);
    expect(ipAllowed(list, '198.51.100.7')).toBe(true);
    expect(ipAllowed(list, '198.51.100.8')).toBe(false);
    expect(ipAllowed(list, null)).toBe(false);
    expect(ipAllowed([], null)).toBe(true);
  });

  it('the refusal names the key id and the address, not the secret', () => {
    try {
      assertIpAllowed({ keyId: 'key_abc', allowedIps: ['10.0.0.0/8'] }, '192.0.2.1');
      expect.unreachable();
    } catch (error) {
      expect((error as DomainError).code).toBe('api_key_ip_not_allowed');
      expect((error as DomainError).message).toContain('key_abc');
      expect((error as DomainError).message).toContain('192.0.2.1');
    }
  });
});
