import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), the codes of authenticator
 * apps: HMAC-SHA-1, 6 digits, 30-second steps — the parameters every app supports. Written on
 * node:crypto (a few lines) and checked against the RFCs' test vectors (totp.test.ts).
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted either way (RFC 6238 §5.2 recommends at most one). */
export const TOTP_WINDOW = 1;

export type HotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: how authenticator apps take the secret. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error('not base32');
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 §5.3: HMAC of the 8-byte counter, dynamic truncation, the last `digits` digits. */
export function hotp(key: Uint8Array, counter: number | bigint, digits = TOTP_DIGITS, algorithm: HotpAlgorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step of an instant (RFC 6238: T = floor((unix time − T0) / X), T0 = 0). */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

export function totp(key: Uint8Array, nowMs: number, digits = TOTP_DIGITS, algorithm: HotpAlgorithm = 'sha1'): string {
  return hotp(key, totpStep(nowMs), digits, algorithm);
}

/**
 * The step a code is valid for, within ±TOTP_WINDOW steps of now and after `lastStep` (a code
 * already used, or an older one, is refused: RFC 6238 §5.2), or null.
 */
export function matchTotp(key: Uint8Array, code: string, nowMs: number, lastStep: number | null): number | null {
  const digits = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(digits)) return null;
  const now = totpStep(nowMs);
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    if (lastStep !== null && step <= lastStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(digits))) return step;
  }
  return null;
}

/** 160 bits, the HMAC-SHA-1 block-friendly size RFC 4226 recommends. */
export function newTotpKey(): Buffer {
  return randomBytes(20);
}

/** The otpauth:// URI authenticator apps read from the QR code (Google Authenticator's key URI format). */
export function otpauthUri(issuer: string, account: string, key: Uint8Array): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({ secret: base32Encode(key), issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_PERIOD_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}
