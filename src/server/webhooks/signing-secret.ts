import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from '@/server/platform/secrets';

/**
 * Signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks key material).
 * They must stay readable to sign, so they are stored encrypted with AES-256-GCM under a key
 * derived from APP_SECRET; the endpoint id is the associated data, so a ciphertext copied to
 * another endpoint does not decrypt.
 */
const PREFIX = 'whsec_';
const FORMAT = 'v1';

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

function key(): Buffer {
  return derivedKey('webhook-signing-secrets');
}

export function encryptSecret(endpointId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  cipher.setAAD(Buffer.from(endpointId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
}

export function decryptSecret(endpointId: string, stored: string): string {
  const [format, data] = stored.split(':');
  if (format !== FORMAT || !data) throw new Error('Unknown webhook secret format.');
  const bytes = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key(), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(endpointId));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** Standard Webhooks: the HMAC key is the base64-decoded part after `whsec_`. */
export function secretKeyMaterial(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}
