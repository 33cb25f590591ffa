import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from './secrets';

/**
 * Secrets the service must read back (webhook signing secrets, TOTP keys) are stored sealed:
 * AES-256-GCM under a key derived from APP_SECRET for the purpose, with the owning row's id as
 * associated data, so a ciphertext copied to another row (or purpose) does not open.
 * Format: "v1:" + base64(iv ‖ tag ‖ ciphertext).
 */
const FORMAT = 'v1';

export function sealSecret(purpose: string, associatedData: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(purpose), iv);
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
}

export function openSecret(purpose: string, associatedData: string, stored: string): string {
  const [format, data] = stored.split(':');
  if (format !== FORMAT || !data) throw new Error('Unknown sealed secret format.');
  const bytes = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', derivedKey(purpose), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
