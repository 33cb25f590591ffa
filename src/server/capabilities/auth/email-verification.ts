import { db, transaction } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import { linkTokenHash, newLinkToken } from './link-tokens';
import { verifyPassword } from './password';
import { requireAttemptAllowed } from './sign-in-limits';
import { endOtherSessions } from './sessions';

/**
 * Proving an account's address. Until it is proven, the password does not sign in and no
 * invitation can be accepted: otherwise anyone could sign up with someone else's address and a
 * password of their own, and wait for the real owner to be invited.
 *
 * The verification link (24 hours, single use, its SHA-256 kept in VerificationToken under
 * "verify-email:<userId>") asks for the account's password too: a link mailed to the real owner
 * after someone else signed up with their address must not confirm that stranger's password.
 * A sign-in link, a password reset or an invitation link prove the address as well.
 */
const VERIFY_TTL_MS = 24 * 3600 * 1000;
/** A refused password sign-in of an unverified account mails a new link at most this often. */
const RESEND_AFTER_MS = 10 * 60 * 1000;
const IDENTIFIER_PREFIX = 'verify-email:';

const identifierOf = (userId: string) => `${IDENTIFIER_PREFIX}${userId}`;

export async function sendVerificationMail(user: { id: string; email: string }): Promise<void> {
  const { token, hash } = newLinkToken();
  const identifier = identifierOf(user.id);
  await db().$transaction([
    // One live link per account: a new one replaces the previous one.
    db().verificationToken.deleteMany({ where: { identifier } }),
    db().verificationToken.create({ data: { identifier, token: hash, expires: new Date(clock.nowMs() + VERIFY_TTL_MS) } }),
  ]);
  await sendMail({
    kind: 'access',
    to: user.email,
    subject: 'Confirm your e-mail address for Roomtone',
    text:
      `Confirm this address for your Roomtone console account with this link (valid 24 hours, usable once); it asks for the password you chose:\n\n` +
      `${config().publicBaseUrl}/verify-email?token=${token}\n\n` +
      'If you did not create an account, ignore this message: nobody can sign in with this address until it is confirmed.',
  });
}

/** After a refused password sign-in of an unverified account: a fresh link, unless one was sent just now. */
export async function resendVerificationIfDue(user: { id: string; email: string }): Promise<void> {
  const live = await db().verificationToken.findFirst({ where: { identifier: identifierOf(user.id) }, orderBy: { expires: 'desc' } });
  if (live && live.expires.getTime() - VERIFY_TTL_MS > clock.nowMs() - RESEND_AFTER_MS) return;
  await sendVerificationMail(user);
}

function invalidLink(): DomainError {
  return new DomainError('parameter_invalid', 'This confirmation link is unknown, used or expired. Sign in with your password to get a new one.', { param: 'token' });
}

/**
 * The verification page: the link's token and the account's password. A wrong password leaves
 * the link usable (and counts as a sign-in attempt); the right one uses it up and verifies the
 * address. Returns the address, for the page to sign in with.
 */
export async function verifyEmail(token: string, password: string, ip: string | null): Promise<{ email: string }> {
  const hash = linkTokenHash(token);
  const row = await db().verificationToken.findFirst({ where: { token: hash, identifier: { startsWith: IDENTIFIER_PREFIX } } });
  const user = row ? await db().user.findUnique({ where: { id: row.identifier.slice(IDENTIFIER_PREFIX.length) } }) : null;
  // An unusable link answers at once: it says nothing about accounts, and costs no hashing.
  if (!row || !user || row.expires.getTime() <= clock.nowMs()) throw invalidLink();
  await requireAttemptAllowed(user.email, ip);
  if (!(await verifyPassword(password, user.passwordHash))) throw invalidParam('password', 'The password is not correct.');
  await transaction(async (tx) => {
    const used = await tx.verificationToken.deleteMany({ where: { identifier: row.identifier, token: hash } });
    if (used.count !== 1) throw invalidLink();
    await tx.user.updateMany({ where: { id: user.id, emailVerified: null }, data: { emailVerified: clock.now() } });
  });
  return { email: user.email };
}

/**
 * A sign-in link was used (Auth.js marks the address verified). The first time an account is
 * proven this way, whatever was set up before the owner arrived goes: the password (someone else
 * may have chosen it at sign-up) and every session. The owner sets a password of their own.
 */
export async function verifyByLinkSignIn(userId: string) {
  return transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ emailVerified: Date | null }[]>`select "emailVerified" from "User" where id = ${userId} for update`;
    if (locked && locked.emailVerified === null) {
      await endOtherSessions(userId, null, tx);
      await tx.verificationToken.deleteMany({ where: { identifier: identifierOf(userId) } });
      await tx.user.update({ where: { id: userId }, data: { emailVerified: clock.now(), passwordHash: null } });
    }
    return tx.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, name: true, emailVerified: true, image: true } });
  });
}

/** Invitations are accepted, and sent, only by accounts whose address is proven. */
export function requireVerified(account: { emailVerified: Date | null }, action: string): void {
  if (!account.emailVerified) {
    throw new DomainError('email_unverified', `Confirm your e-mail address before you ${action}: use the link we mailed you, or sign in with an e-mail link.`);
  }
}
