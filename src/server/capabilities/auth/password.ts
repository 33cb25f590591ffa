import { scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { invalidParam } from '@/server/platform/errors';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/shared/auth/password-rules';

/**
 * Console passwords: argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane). Hashes written
 * by earlier CLI versions ("scrypt$salt$hash", N=16384 r=8 p=1) still verify; the sign-in
 * rehashes them to argon2id (see `needsRehash`).
 */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;


const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** The one password rule (sign-up, change, reset, CLI): length only, as NIST SP 800-63B advises. */
export function checkPasswordRule(password: string, param = 'password'): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw invalidParam(param, `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`);
  if (password.length > PASSWORD_MAX_LENGTH) throw invalidParam(param, `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`);
}

export async function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, ARGON2_OPTIONS);
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, saltText, hashText] = stored.split('$');
  if (!saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  if (stored.startsWith('$argon2')) return argon2Verify(stored, password).catch(() => false);
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

/** True for hashes of an older scheme: rewrite them once the password has been verified. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$argon2id$');
}

/** Spend the time of one verification, so unknown accounts answer as slowly as known ones. */
let dummyHash: Promise<string> | null = null;
export async function burnVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword('roomtone-no-such-account');
  await verifyPassword(password, await dummyHash);
}
