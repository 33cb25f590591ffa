import { db, transaction } from '@/server/platform/db';
import { userActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { recordUserAudit } from '@/server/capabilities/audit/record-audit';

/**
 * A refused password for an existing account goes to the audit log of its organizations (an
 * unknown address has no organization to tell, and no row). Attempts refused by the sign-in
 * limits are not recorded: they were never checked, and an attacker could fill the log with them.
 */
export async function recordFailedSignIn(email: string, origin: RequestOrigin): Promise<void> {
  const user = await db().user.findUnique({ where: { email }, select: { id: true, email: true } });
  if (!user) return;
  await transaction((tx) => recordUserAudit(tx, userActor(user, origin), user.id, { action: 'signin.failed', details: { method: 'password', reason: 'wrong_password' } }));
}
