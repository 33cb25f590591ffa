import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { invalidParam } from '@/server/platform/errors';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import { checkPasswordRule, hashPassword } from './password';
import { requireAttemptAllowed } from './sign-in-limits';
import { endOtherSessions } from './sessions';
import { normalizeEmail } from '@/server/capabilities/mail/email-address';
import { userActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { recordUserAudit } from '@/server/capabilities/audit/record-audit';
import { linkTokenHash, newLinkToken } from './link-tokens';

/**
 * Password reset by e-mail link: a random token (its SHA-256 kept in VerificationToken under
 * "password-reset:<userId>"), valid one hour, usable once. Asking answers the same whether the
 * address has an account or not. A reset ends every session of the account, and proves its
 * address (the link was mailed there).
 */
const RESET_TTL_MS = 60 * 60 * 1000;
const IDENTIFIER_PREFIX = 'password-reset:';

export async function requestPasswordReset(emailInput: string, ip: string | null): Promise<void> {
  const email = normalizeEmail(emailInput);
  await requireAttemptAllowed(email, ip);
  const user = await db().user.findUnique({ where: { email }, select: { id: true } });
  if (!user) return;
  const { token, hash } = newLinkToken();
  const identifier = `${IDENTIFIER_PREFIX}${user.id}`;
  await db().$transaction([
    // One live link per account: a new request replaces the previous one.
    db().verificationToken.deleteMany({ where: { identifier } }),
    db().verificationToken.create({ data: { identifier, token: hash, expires: new Date(clock.nowMs() + RESET_TTL_MS) } }),
  ]);
  await sendMail({
    kind: 'access',
    to: email,
    subject: 'Reset your Roomtone password',
    text: `Choose a new password for the Roomtone console with this link (valid one hour, usable once):\n\n${config().publicBaseUrl}/reset-password?token=${token}\n\nIf you did not ask for it, ignore this message; your password stays as it is.`,
  });
}

export async function resetPassword(token: string, password: string, origin: RequestOrigin = { ip: null, userAgent: null }): Promise<void> {
  checkPasswordRule(password);
  const passwordHash = await hashPassword(password);
  const used = await db().$transaction(async (tx) => {
    const row = await tx.verificationToken.findFirst({ where: { token: linkTokenHash(token), identifier: { startsWith: IDENTIFIER_PREFIX } } });
    if (!row) return null;
    await tx.verificationToken.deleteMany({ where: { identifier: row.identifier } });
    if (row.expires.getTime() <= clock.nowMs()) return null;
    const userId = row.identifier.slice(IDENTIFIER_PREFIX.length);
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await tx.user.updateMany({ where: { id: userId, emailVerified: null }, data: { emailVerified: clock.now() } });
    const ended = await endOtherSessions(userId, null, tx);
    await recordUserAudit(tx, userActor({ id: userId }, origin), userId, { action: 'user.password_reset', details: { sessions_ended: ended } });
    return userId;
  });
  if (!used) throw invalidParam('token', 'This reset link is unknown, used or expired. Ask for a new one.');
}
