import { randomBytes } from 'node:crypto';

/** Every prefixed id is made here: gen_, mat_, file_, evt_, whsec_, req_, org_, key_, ... */
export type IdPrefix =
  | 'gen'
  | 'mat'
  | 'file'
  | 'evt'
  | 'whsec'
  | 'req'
  | 'org'
  | 'key'
  | 'usr'
  | 'btx'
  | 'we'
  | 'dlv';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string of `length` characters (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytes(length * 2);
    for (const byte of bytes) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: IdPrefix, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}
