import { createHmac } from 'node:crypto';
import { secretKeyMaterial } from './signing-secret';

/**
 * `webhook-signature` per the Standard Webhooks specification: `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, one per secret, space-separated (newest first during a rotation).
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets.map((s) => `v1,${createHmac('sha256', secretKeyMaterial(s)).update(content).digest('base64')}`).join(' ');
}
