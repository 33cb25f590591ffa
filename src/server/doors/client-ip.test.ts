// @node-lines same: which forwarded address counts: our rule; net.isIP and BlockList run under both lines in src/server/capabilities/keys/fences.test.ts
import { afterEach, describe, expect, it } from 'vitest';
import { clientIpFrom } from './client-ip';
import { config, resetConfigCache } from '@/server/platform/config';

const SOCKET = '10.0.0.9';

describe('clientIpFrom: X-Forwarded-For trusted for exactly the configured proxy hops, from the right', () => {
  it('0 hops: the socket address, whatever the header says', () => {
    expect(clientIpFrom('198.51.100.7', SOCKET, 0)).toBe(SOCKET);
    expect(clientIpFrom(null, SOCKET, 0)).toBe(SOCKET);
  });

  it('1 hop: the right-most entry (what our proxy appended), never the client-written left-most', () => {
    expect(clientIpFrom('198.51.100.7', SOCKET, 1)).toBe('198.51.100.7');
    expect(clientIpFrom('6.6.6.6, 198.51.100.7', SOCKET, 1)).toBe('198.51.100.7');
    expect(clientIpFrom('1.1.1.1,2.2.2.2 ,  198.51.100.7', SOCKET, 1)).toBe('198.51.100.7');
  });

  it('2 hops: the second entry from the right', () => {
    expect(clientIpFrom('6.6.6.6, 198.51.100.7, 10.1.1.1', SOCKET, 2)).toBe('198.51.100.7');
    expect(clientIpFrom('5.5.5.5, 6.6.6.6, 198.51.100.7, 10.1.1.1', SOCKET, 2)).toBe('198.51.100.7');
  });

  it('fewer entries than hops: the left-most (the farthest address known)', () => {
    expect(clientIpFrom('198.51.100.7', SOCKET, 2)).toBe('198.51.100.7');
    expect(clientIpFrom('198.51.100.7, 10.1.1.1', SOCKET, 3)).toBe('198.51.100.7');
  });

  it('no header, an empty one, or an entry that is not an address: the socket address', () => {
    expect(clientIpFrom(null, SOCKET, 1)).toBe(SOCKET);
    expect(clientIpFrom('', SOCKET, 1)).toBe(SOCKET);
    expect(clientIpFrom(' , ', SOCKET, 1)).toBe(SOCKET);
    expect(clientIpFrom('198.51.100.7, unknown', SOCKET, 1)).toBe(SOCKET);
    expect(clientIpFrom('198.51.100.7, <script>', SOCKET, 1)).toBe(SOCKET);
  });

  it('addresses as proxies write them: IPv6, with a port, bracketed', () => {
    expect(clientIpFrom('2001:db8::1', SOCKET, 1)).toBe('2001:db8::1');
    expect(clientIpFrom('198.51.100.7:51234', SOCKET, 1)).toBe('198.51.100.7');
    expect(clientIpFrom('[2001:db8::1]:443', SOCKET, 1)).toBe('2001:db8::1');
  });
});

describe('TRUST_PROXY', () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
    resetConfigCache();
  });
  const hops = (value: string | undefined) => {
    if (value === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = value;
    resetConfigCache();
    return config().TRUST_PROXY;
  };

  it('true is 1 hop, false / 0 / unset none, a number that many', () => {
    expect(hops(undefined)).toBe(0);
    expect(hops('false')).toBe(0);
    expect(hops('0')).toBe(0);
    expect(hops('true')).toBe(1);
    expect(hops('TRUE')).toBe(1);
    expect(hops('1')).toBe(1);
    expect(hops('2')).toBe(2);
  });

  it('anything else stops the service with a clear message', () => {
    for (const bad of ['yes', '-1', '1.5', '100', 'two']) {
      expect(() => hops(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });
});
