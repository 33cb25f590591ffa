import { createHash } from 'node:crypto';
import { randomBase62 } from '@/server/platform/ids';

/**
 * Tokens of mailed links (password reset, address verification, invitations): 40 random base62
 * characters that travel only in the mail; the database keeps their SHA-256, so a copy of the
 * database opens nothing.
 */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBase62(40);
  return { token, hash: linkTokenHash(token) };
}
