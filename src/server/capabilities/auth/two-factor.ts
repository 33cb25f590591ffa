import { db, transaction, type DbTx } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { DomainError, invalidParam } from '@/server/platform/errors';
import { openSecret, sealSecret } from '@/server/platform/sealed-secrets';
import { userActor, type AuditActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { recordUserAudit } from '@/server/capabilities/audit/record-audit';
import { base32Decode, base32Encode, matchTotp, newTotpKey, otpauthUri } from './totp';
import { qrCodeSvg } from './qr-code';
import { looksLikeRecoveryCode, replaceRecoveryCodes, spendRecoveryCode } from './recovery-codes';
import { requireAttemptAllowed } from './sign-in-limits';
import { completePendingSession, endOtherSessions, type PendingSession, type SessionUser } from './sessions';

/**
 * Two-factor sign-in with an authenticator app (TOTP) and recovery codes, per user.
 *  - Enrolment: a new key is kept sealed as *pending* and shown once (QR code and text); a code
 *    from the app confirms it, which turns two-factor on and gives the recovery codes (once).
 *  - Sign-in: after the password or e-mail link the session is pending until a code (TOTP or
 *    recovery) is given; every try counts in the sign-in limits (per account and per IP).
 *  - Turning it off or making new recovery codes takes a current code.
 * Every change ends the user's other sessions and is audited.
 */
const TOTP_PURPOSE = 'totp-secrets';
const ISSUER = 'Roomtone';

/** The TOTP key as stored: sealed under APP_SECRET, the user id as associated data. */
export function sealTotpKey(userId: string, key: Buffer): string {
  return sealSecret(TOTP_PURPOSE, userId, base32Encode(key));
}

function openKey(userId: string, sealed: string): string {
  return openSecret(TOTP_PURPOSE, userId, sealed);
}

export interface TwoFactorStatus {
  enabled: boolean;
  enabled_at: number | null;
  recovery_codes_left: number;
}

export async function twoFactorStatus(userId: string): Promise<TwoFactorStatus> {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { totpEnabledAt: true } });
  const left = user.totpEnabledAt ? await db().recoveryCode.count({ where: { userId, usedAt: null } }) : 0;
  return { enabled: user.totpEnabledAt !== null, enabled_at: toUnixSeconds(user.totpEnabledAt), recovery_codes_left: left };
}

/** Start (or restart) enrolment: a new key, shown in this answer only. */
export async function beginTotpEnrolment(user: SessionUser): Promise<{ secret: string; otpauth_uri: string; qr_svg: string }> {
  const key = newTotpKey();
  const updated = await db().user.updateMany({ where: { id: user.id, totpEnabledAt: null }, data: { totpPendingSecretEncrypted: sealTotpKey(user.id, key) } });
  if (updated.count === 0) throw new DomainError('two_factor_already_enabled', 'Two-factor sign-in is already on. Turn it off first to use another authenticator.');
  const uri = otpauthUri(ISSUER, user.email, key);
  return { secret: base32Encode(key), otpauth_uri: uri, qr_svg: qrCodeSvg(uri) };
}

/** The user row locked for the code check: a TOTP step or recovery code is used once, even by two tries at once. */
async function lockedUser(tx: DbTx, userId: string) {
  await tx.$queryRaw`select id from "User" where id = ${userId} for update`;
  return tx.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, totpSecretEncrypted: true, totpEnabledAt: true, totpLastStep: true } });
}

/** Check and use up a code of an enabled user: 'totp', 'recovery_code', or null when it is wrong. */
async function spendSecondFactor(tx: DbTx, userId: string, code: string, options: { recoveryCodes: boolean }): Promise<'totp' | 'recovery_code' | null> {
  const user = await lockedUser(tx, userId);
  if (!user.totpEnabledAt || !user.totpSecretEncrypted) throw new DomainError('two_factor_not_enabled', 'Two-factor sign-in is not on for this account.');
  const trimmed = code.trim();
  if (options.recoveryCodes && looksLikeRecoveryCode(trimmed)) return (await spendRecoveryCode(tx, userId, trimmed)) ? 'recovery_code' : null;
  const step = matchTotp(openKeyBytes(userId, user.totpSecretEncrypted), trimmed, clock.nowMs(), user.totpLastStep === null ? null : Number(user.totpLastStep));
  if (step === null) return null;
  await tx.user.update({ where: { id: userId }, data: { totpLastStep: BigInt(step) } });
  return 'totp';
}

function openKeyBytes(userId: string, sealed: string): Buffer {
  return base32Decode(openKey(userId, sealed));
}

function wrongCode(): DomainError {
  return new DomainError('parameter_invalid', 'This code is not correct (or was already used).', { param: 'code' });
}

async function auditFailure(actor: AuditActor, userId: string, action: 'signin.two_factor_failed'): Promise<void> {
  await transaction((tx) => recordUserAudit(tx, actor, userId, { action }));
}

/** Confirm enrolment with a code from the app: two-factor is on; the recovery codes are in this answer only. */
export async function confirmTotpEnrolment(user: SessionUser, code: string, origin: RequestOrigin): Promise<{ recovery_codes: string[] }> {
  await requireAttemptAllowed(user.email, origin.ip);
  return transaction(async (tx) => {
    await tx.$queryRaw`select id from "User" where id = ${user.id} for update`;
    const row = await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { totpEnabledAt: true, totpPendingSecretEncrypted: true } });
    if (row.totpEnabledAt) throw new DomainError('two_factor_already_enabled', 'Two-factor sign-in is already on.');
    if (!row.totpPendingSecretEncrypted) throw invalidParam('code', 'Start the set-up first: no authenticator is waiting for confirmation.');
    const step = matchTotp(openKeyBytes(user.id, row.totpPendingSecretEncrypted), code, clock.nowMs(), null);
    if (step === null) throw wrongCode();
    await tx.user.update({
      where: { id: user.id },
      data: { totpSecretEncrypted: row.totpPendingSecretEncrypted, totpPendingSecretEncrypted: null, totpEnabledAt: clock.now(), totpLastStep: BigInt(step) },
    });
    const codes = await replaceRecoveryCodes(tx, user.id);
    const ended = await endOtherSessions(user.id, user.sessionToken, tx);
    await recordUserAudit(tx, userActor(user, origin), user.id, { action: 'two_factor.enabled', details: { method: 'totp', other_sessions_ended: ended } });
    return { recovery_codes: codes };
  });
}

/** Turn two-factor off (a current code or a recovery code is needed). */
export async function disableTwoFactor(user: SessionUser, code: string, origin: RequestOrigin): Promise<{ enabled: false }> {
  await requireAttemptAllowed(user.email, origin.ip);
  const done = await transaction(async (tx) => {
    const used = await spendSecondFactor(tx, user.id, code, { recoveryCodes: true });
    if (!used) return false;
    await tx.user.update({ where: { id: user.id }, data: { totpSecretEncrypted: null, totpPendingSecretEncrypted: null, totpEnabledAt: null, totpLastStep: null } });
    await tx.recoveryCode.deleteMany({ where: { userId: user.id } });
    const ended = await endOtherSessions(user.id, user.sessionToken, tx);
    await recordUserAudit(tx, userActor(user, origin), user.id, { action: 'two_factor.disabled', details: { confirmed_with: used, other_sessions_ended: ended } });
    return true;
  });
  if (!done) throw wrongCode();
  return { enabled: false };
}

/** New recovery codes (the old ones stop working); a current authenticator code is needed. */
export async function regenerateRecoveryCodes(user: SessionUser, code: string, origin: RequestOrigin): Promise<{ recovery_codes: string[] }> {
  await requireAttemptAllowed(user.email, origin.ip);
  const codes = await transaction(async (tx) => {
    if (!(await spendSecondFactor(tx, user.id, code, { recoveryCodes: false }))) return null;
    const fresh = await replaceRecoveryCodes(tx, user.id);
    const ended = await endOtherSessions(user.id, user.sessionToken, tx);
    await recordUserAudit(tx, userActor(user, origin), user.id, { action: 'two_factor.recovery_codes_regenerated', details: { other_sessions_ended: ended } });
    return fresh;
  });
  if (!codes) throw wrongCode();
  return { recovery_codes: codes };
}

/**
 * The sign-in's second step: a code from the app or a recovery code turns the pending session
 * into a complete one. Counted in the sign-in limits; a wrong code is audited.
 */
export async function verifySecondFactor(pending: PendingSession, code: string, origin: RequestOrigin): Promise<{ method: 'totp' | 'recovery_code'; recovery_codes_left: number }> {
  await requireAttemptAllowed(pending.email, origin.ip);
  const actor = userActor({ id: pending.userId, email: pending.email }, origin);
  const method = await transaction(async (tx) => {
    const used = await spendSecondFactor(tx, pending.userId, code, { recoveryCodes: true });
    if (!used) return null;
    if (!(await completePendingSession(tx, pending.sessionToken))) {
      throw new DomainError('session_missing', 'This sign-in expired: sign in again.');
    }
    await recordUserAudit(tx, actor, pending.userId, { action: 'signin.two_factor_succeeded', details: { method: used, session_id: pending.sessionId } });
    return used;
  });
  if (!method) {
    await auditFailure(actor, pending.userId, 'signin.two_factor_failed');
    throw wrongCode();
  }
  return { method, recovery_codes_left: await db().recoveryCode.count({ where: { userId: pending.userId, usedAt: null } }) };
}
