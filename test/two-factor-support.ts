/** Two-factor fixtures for integration tests: a user with an authenticator, and the codes an app would show. */
import { db, transaction } from '@/server/platform/db';
import { base32Decode, base32Encode, newTotpKey, totp, totpStep } from '@/server/capabilities/auth/totp';
import { sealTotpKey } from '@/server/capabilities/auth/two-factor';
import { replaceRecoveryCodes } from '@/server/capabilities/auth/recovery-codes';
import type { SessionUser } from '@/server/capabilities/auth/sessions';

/** The code an app shows `offsetSteps` 30-second steps from now. */
export function codeAt(secret: string, offsetSteps = 0): string {
  return totp(base32Decode(secret), Date.now() + offsetSteps * 30_000);
}

/** The session user behind a Cookie header of a complete session (for service-level calls). */
export async function sessionUserOf(cookie: string): Promise<SessionUser> {
  const token = cookie.split('=')[1]!;
  const session = await db().session.findUniqueOrThrow({ where: { sessionToken: token }, include: { user: true } });
  return { id: session.userId, email: session.user.email, name: session.user.name, sessionToken: token, sessionId: session.id, twoFactorEnabled: session.user.totpEnabledAt !== null };
}

/**
 * A user with two-factor sign-in on, stored as enrolment stores it (sealed key, hashed recovery
 * codes), without spending sign-in attempts: the last used step is the one before now, so the
 * codes of now and of the next step are still good for the test. The enrolment itself is tested
 * through the API (test/console-two-factor.test.ts).
 */
export async function withTwoFactor(user: { id: string }): Promise<{ secret: string; recoveryCodes: string[] }> {
  const key = newTotpKey();
  const recoveryCodes = await transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { totpSecretEncrypted: sealTotpKey(user.id, key), totpEnabledAt: new Date(), totpLastStep: BigInt(totpStep(Date.now()) - 1) } });
    return replaceRecoveryCodes(tx, user.id);
  });
  return { secret: base32Encode(key), recoveryCodes };
}
