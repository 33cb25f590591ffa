import { db, transaction } from '@/server/platform/db';
import { invalidParam } from '@/server/platform/errors';
import { userActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { recordUserAudit } from '@/server/capabilities/audit/record-audit';
import { checkPasswordRule, hashPassword, verifyPassword } from './password';
import { endOtherSessions, type SessionUser } from './sessions';

/**
 * Change the signed-in user's password. The current one is required when there is one (an
 * account made through an e-mail link may set its first password). Other sessions end.
 */
export async function changePassword(
  user: SessionUser,
  input: { currentPassword?: string | undefined; newPassword: string },
  origin: RequestOrigin = { ip: null, userAgent: null },
): Promise<void> {
  const row = await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
  if (row.passwordHash && !(await verifyPassword(input.currentPassword ?? '', row.passwordHash))) {
    throw invalidParam('currentPassword', 'The current password is not correct.');
  }
  checkPasswordRule(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const ended = await endOtherSessions(user.id, user.sessionToken, tx);
    await recordUserAudit(tx, userActor(user, origin), user.id, { action: 'user.password_changed', details: { other_sessions_ended: ended } });
  });
}
