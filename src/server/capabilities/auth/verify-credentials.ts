import { db } from '@/server/platform/db';
import { burnVerification, hashPassword, needsRehash, verifyPassword } from './password';
import { resendVerificationIfDue } from './email-verification';
import { normalizeEmail } from '@/server/capabilities/mail/email-address';

export interface CredentialsUser {
  id: string;
  email: string;
  name: string | null;
  emailVerified: Date | null;
}

/**
 * E-mail and password → the user, or null. Unknown accounts cost the same time as a wrong
 * password (no account discovery by timing). Old scrypt hashes are upgraded on success.
 */
export async function verifyCredentials(email: string, password: string): Promise<CredentialsUser | null> {
  const user = await db().user.findUnique({ where: { email: normalizeEmail(email) } });
  if (!user?.passwordHash) {
    await burnVerification(password);
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  if (needsRehash(user.passwordHash)) {
    await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified };
}

export type PasswordSignIn = { ok: true; user: { id: string; email: string; name: string | null } } | { ok: false; reason: 'invalid' | 'unverified' };

/**
 * The password sign-in's decision. The right password of an account whose address was never
 * proven does not sign in: its owner gets a (new) confirmation link instead. Only someone who
 * knows the password learns that the account waits for confirmation.
 */
export async function passwordSignIn(email: string, password: string): Promise<PasswordSignIn> {
  const user = await verifyCredentials(email, password);
  if (!user) return { ok: false, reason: 'invalid' };
  if (!user.emailVerified) {
    await resendVerificationIfDue(user);
    return { ok: false, reason: 'unverified' };
  }
  return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
}
