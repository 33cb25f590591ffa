import { db } from '@/server/platform/db';
import { burnVerification, hashPassword, needsRehash, verifyPassword } from './password';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * E-mail and password → the user, or null. Unknown accounts cost the same time as a wrong
 * password (no account discovery by timing). Old scrypt hashes are upgraded on success.
 */
export async function verifyCredentials(email: string, password: string): Promise<{ id: string; email: string; name: string | null } | null> {
  const user = await db().user.findUnique({ where: { email: normalizeEmail(email) } });
  if (!user?.passwordHash) {
    await burnVerification(password);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  if (needsRehash(user.passwordHash)) {
    await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return { id: user.id, email: user.email, name: user.name };
}
