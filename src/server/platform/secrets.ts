// Server code only: a client component that imports this fails the build.
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import { config, setEnv } from './config';

/**
 * APP_SECRET keys signed file URLs, the encryption of webhook secrets and console sessions.
 * Zero-setup: generated once into DATA_DIR/app-secret (0600) and exported to the environment.
 */
export function ensureAppSecret(dataDir: string): string {
  const configured = config().APP_SECRET;
  if (configured) return configured;
  const file = path.join(dataDir, 'app-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  setEnv('APP_SECRET', secret);
  return secret;
}

/** AUTH_SECRET (Auth.js) the same way: DATA_DIR/auth-secret (0600) unless set. */
export function ensureAuthSecret(dataDir: string): string {
  const configured = config().AUTH_SECRET;
  if (configured) return configured;
  const file = path.join(dataDir, 'auth-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process wrote it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  setEnv('AUTH_SECRET', secret);
  return secret;
}

export function appSecret(): string {
  const secret = config().APP_SECRET;
  if (!secret) throw new Error('APP_SECRET is not set (the launcher sets it from DATA_DIR).');
  return secret;
}

/** Each purpose's key and the secret it was derived from (a changed APP_SECRET derives it again). */
const derivedKeys = new Map<string, { secret: string; key: Buffer }>();

/**
 * A sub-key per purpose, so one leaked derived key does not expose the others. Looked up per
 * signed URL (a list page signs about twenty): by purpose alone, with the secret compared,
 * no memo string is built and hashed per call.
 */
export function derivedKey(purpose: string): Buffer {
  const secret = appSecret();
  const known = derivedKeys.get(purpose);
  if (known && known.secret === secret) return known.key;
  const key = createHmac('sha256', secret).update(purpose).digest();
  derivedKeys.set(purpose, { secret, key });
  return key;
}
