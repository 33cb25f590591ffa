import { randomFillSync } from 'node:crypto';

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
  | 'dlv'
  | 'lot'
  | 'rch'
  | 'spa'
  | 'att'
  | 'mail'
  | 'ebr'
  | 'inv'
  | 'cp'
  | 'evs'
  | 'ses'
  | 'aud'
  | 'rc';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Bytes from the CSPRNG, drawn 4 KiB at a time: one call into the kernel's generator per
 * request was measured as a visible share of a /v1 read's CPU (bench/). Every byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] as number;
  pool[poolOffset++] = 0; // a secret's bytes do not stay behind in memory
  return byte;
}

/** Random base62 string of `length` characters (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export function newId(prefix: IdPrefix, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}
