import { db, transaction } from '@/server/platform/db';
import { clock, toUnixSeconds } from '@/server/platform/clock';
import { DomainError } from '@/server/platform/errors';
import { userActor, type RequestOrigin } from '@/server/capabilities/audit/actor';
import { recordUserAudit } from '@/server/capabilities/audit/record-audit';
import { deviceName } from '@/server/capabilities/audit/device-name';
import { endOtherSessions, type SessionUser } from './sessions';

/** What the user sees of one of their sessions (never its token). */
export interface SessionView {
  id: string;
  device: string;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_seen_at: number | null;
  expires_at: number;
  /** The session this list was asked from. */
  current: boolean;
  /** Signed in with the password or a link, but the two-factor code was not given (yet). */
  pending_second_factor: boolean;
}

/** The user's live sessions, the most recently used first. */
export async function listSessions(user: SessionUser): Promise<{ data: SessionView[] }> {
  const rows = await db().session.findMany({
    where: { userId: user.id, expires: { gt: clock.now() } },
    orderBy: [{ lastSeenAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
    take: 200,
  });
  return {
    data: rows.map((s) => ({
      id: s.id,
      device: deviceName(s.userAgent),
      user_agent: s.userAgent,
      ip: s.ip,
      created_at: toUnixSeconds(s.createdAt),
      last_seen_at: toUnixSeconds(s.lastSeenAt),
      expires_at: toUnixSeconds(s.expires),
      current: s.sessionToken === user.sessionToken,
      pending_second_factor: s.secondFactorPending,
    })),
  };
}

/** Sign out one of the user's other sessions. Another user's session, or this one, is not found here. */
export async function endSession(user: SessionUser, sessionId: string, origin: RequestOrigin): Promise<{ id: string; ended: true }> {
  await transaction(async (tx) => {
    const ended = await tx.session.deleteMany({ where: { id: sessionId, userId: user.id, sessionToken: { not: user.sessionToken } } });
    if (ended.count === 0) throw new DomainError('resource_not_found', `No other session ${sessionId} of yours.`, { param: 'sessionId' });
    await recordUserAudit(tx, userActor(user, origin), user.id, { action: 'session.ended', details: { session_id: sessionId } });
  });
  return { id: sessionId, ended: true };
}

/** Sign out every session of the user but this one. */
export async function endOtherSessionsOf(user: SessionUser, origin: RequestOrigin): Promise<{ ended: number }> {
  const ended = await transaction(async (tx) => {
    const count = await endOtherSessions(user.id, user.sessionToken, tx);
    await recordUserAudit(tx, userActor(user, origin), user.id, { action: 'session.ended_others', details: { count } });
    return count;
  });
  return { ended };
}
