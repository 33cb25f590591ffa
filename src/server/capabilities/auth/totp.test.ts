import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totp, totpStep } from './totp';

const SHA1_SEED = Buffer.from('12345678901234567890');
const SHA256_SEED = Buffer.from('12345678901234567890123456789012');
const SHA512_SEED = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');

describe('HOTP (RFC 4226 appendix D)', () => {
  it('gives the test values for counters 0 to 9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(SHA1_SEED, counter))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238 appendix B)', () => {
  // Time (s) → 8-digit codes for SHA-1, SHA-256, SHA-512.
  const vectors: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it.each(vectors)('at %i s', (seconds, sha1, sha256, sha512) => {
    expect(totp(SHA1_SEED, seconds * 1000, 8, 'sha1')).toBe(sha1);
    expect(totp(SHA256_SEED, seconds * 1000, 8, 'sha256')).toBe(sha256);
    expect(totp(SHA512_SEED, seconds * 1000, 8, 'sha512')).toBe(sha512);
  });

  it('accepts a code one step either side of now, refuses further ones and codes at or before the last used step', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(matchTotp(SHA1_SEED, totp(SHA1_SEED, now), now, null)).toBe(step);
    expect(matchTotp(SHA1_SEED, totp(SHA1_SEED, now - 30_000), now, null)).toBe(step - 1);
    expect(matchTotp(SHA1_SEED, totp(SHA1_SEED, now + 30_000), now, null)).toBe(step + 1);
    expect(matchTotp(SHA1_SEED, totp(SHA1_SEED, now - 60_000), now, null)).toBeNull();
    expect(matchTotp(SHA1_SEED, totp(SHA1_SEED, now), now, step)).toBeNull();
    expect(matchTotp(SHA1_SEED, totp(SHA1_SEED, now - 30_000), now, step - 1)).toBeNull();
    expect(matchTotp(SHA1_SEED, 'abcdef', now, null)).toBeNull();
    expect(matchTotp(SHA1_SEED, '12345', now, null)).toBeNull();
  });
});

describe('base32 and the otpauth URI', () => {
  it('encodes and decodes RFC 4648 test vectors (without padding)', () => {
    const cases: [string, string][] = [['', ''], ['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
    for (const [plain, encoded] of cases) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi==').toString()).toBe('foobar');
    expect(() => base32Decode('MZ1')).toThrow();
  });

  it('builds the key URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('Roomtone', 'ana@example.com', SHA1_SEED));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Roomtone:ana@example.com');
    expect(uri.searchParams.get('secret')).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(uri.searchParams.get('issuer')).toBe('Roomtone');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});
