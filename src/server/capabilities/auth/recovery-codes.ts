import { createHash, randomBytes } from 'node:crypto';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import type { DbTx } from '@/server/platform/db';

/**
 * Recovery codes: ten single-use codes that stand in for the authenticator (a lost phone).
 * 12 base32 letters (60 random bits) each, shown as xxxx-xxxx-xxxx once, kept as SHA-256: with
 * that much entropy a slow hash adds nothing, and a stolen table still gives no code.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const letters = [...bytes].map((b) => ALPHABET[b & 31]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8, 12)}`;
}

/** How a typed code is compared: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z2-7]/g, '');
}

export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

export function looksLikeRecoveryCode(code: string): boolean {
  return normalizeRecoveryCode(code).length === 12;
}

/** Replace the user's recovery codes with a fresh set; the codes are in this answer only. */
export async function replaceRecoveryCodes(tx: DbTx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ id: newId('rc'), userId, codeHash: recoveryCodeHash(code), createdAt: clock.now() })) });
  return codes;
}

/** Use a recovery code: true once per code (the conditional update decides between two tries at once). */
export async function spendRecoveryCode(tx: DbTx, userId: string, code: string): Promise<boolean> {
  const used = await tx.recoveryCode.updateMany({ where: { userId, codeHash: recoveryCodeHash(code), usedAt: null }, data: { usedAt: clock.now() } });
  return used.count === 1;
}
