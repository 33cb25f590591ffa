import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from '@/server/platform/sealed-secrets';

/**
 * Signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks key material).
 * They must stay readable to sign, so they are stored encrypted with AES-256-GCM under a key
 * derived from APP_SECRET; the endpoint id is the associated data, so a ciphertext copied to
 * another endpoint does not decrypt.
 */
const PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

const PURPOSE = 'webhook-signing-secrets';

export function encryptSecret(endpointId: string, secret: string): string {
  return sealSecret(PURPOSE, endpointId, secret);
}

export function decryptSecret(endpointId: string, stored: string): string {
  return openSecret(PURPOSE, endpointId, stored);
}

/** Standard Webhooks: the HMAC key is the base64-decoded part after `whsec_`. */
export function secretKeyMaterial(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}
