import { db, transaction, type DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { newId, randomBase62 } from '@/server/platform/ids';
import type { RequestOrigin } from '@/server/capabilities/audit/actor';
import { userActor } from '@/server/capabilities/audit/actor';
import { recordUserAudit } from '@/server/capabilities/audit/record-audit';

/**
 * Console sessions are rows (Auth.js database strategy): the cookie carries an opaque token,
 * deleting the row signs the session out everywhere at once. Auth.js creates them for e-mail
 * links (through our adapter); the password sign-in creates them here (Auth.js only writes JWTs
 * for credentials). Both go through `startSession`.
 *
 * A user with two-factor sign-in gets a *pending* session first: it grants nothing but the code
 * step (every reader below treats it as signed out) and lasts 10 minutes unless the code comes.
 */
export const SESSION_COOKIE_NAMES = ['__Secure-authjs.session-token', 'authjs.session-token'] as const;

/** Extend a session's expiry at most once a day of use (sliding expiry, as Auth.js does). */
const UPDATE_AGE_MS = 24 * 3600 * 1000;
/** How long a pending session waits for its second factor. */
export const SECOND_FACTOR_WINDOW_MS = 10 * 60 * 1000;
/** "Last seen" (and its IP and user agent) is written at most once a minute per session. */
const LAST_SEEN_EVERY_MS = 60 * 1000;

export type SignInMethod = 'password' | 'email_link';

export function sessionMaxAgeSeconds(): number {
  return config().CONSOLE_SESSION_DAYS * 24 * 3600;
}

function fullExpiry(): Date {
  return new Date(clock.nowMs() + sessionMaxAgeSeconds() * 1000);
}

/**
 * Open a session after a first factor (password or e-mail link): pending when the user has
 * two-factor sign-in, complete otherwise. The sign-in's audit row commits with it.
 */
export async function startSession(
  input: { userId: string; sessionToken?: string | undefined; expires?: Date | undefined },
  method: SignInMethod,
  origin: RequestOrigin,
): Promise<{ sessionToken: string; userId: string; expires: Date }> {
  return transaction(async (tx) => {
    const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { id: true, email: true, totpEnabledAt: true } });
    const pending = user.totpEnabledAt !== null;
    const now = clock.now();
    const session = await tx.session.create({
      data: {
        id: newId('ses'),
        sessionToken: input.sessionToken ?? randomBase62(48),
        userId: user.id,
        expires: pending ? new Date(now.getTime() + SECOND_FACTOR_WINDOW_MS) : (input.expires ?? fullExpiry()),
        createdAt: now,
        secondFactorPending: pending,
        ip: origin.ip,
        userAgent: origin.userAgent,
        lastSeenAt: now,
      },
    });
    await recordUserAudit(tx, userActor(user, origin), user.id, {
      action: 'signin.succeeded',
      details: { method, second_factor: pending ? 'required' : 'not_enrolled', session_id: session.id },
    });
    return { sessionToken: session.sessionToken, userId: session.userId, expires: session.expires };
  });
}

/** A complete session: its user may use the console. */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  sessionToken: string;
  sessionId: string;
  twoFactorEnabled: boolean;
}

/** A session waiting for its second factor: it may only give the code (or sign out). */
export interface PendingSession {
  sessionToken: string;
  sessionId: string;
  userId: string;
  email: string;
}

function cookieValues(cookieHeader: string | null): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!values.has(name)) {
      try {
        values.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
      } catch {
        // A malformed cookie value is no session.
      }
    }
  }
  return values;
}

export function sessionTokenFromCookies(cookieHeader: string | null): string | null {
  const cookies = cookieValues(cookieHeader);
  const token = SESSION_COOKIE_NAMES.map((name) => cookies.get(name)).find((value) => value !== undefined && value !== '');
  return token && token.length <= 200 ? token : null;
}

/**
 * The session of a request's Cookie header: a complete one (`user`), a pending one, or neither
 * (no, unknown or expired session). Refreshes the sliding expiry and, at most once a minute,
 * where it was last seen from (`origin`; an unknown IP or agent does not overwrite a known one).
 */
export async function readConsoleSession(
  cookieHeader: string | null,
  origin: RequestOrigin = { ip: null, userAgent: null },
): Promise<{ user: SessionUser | null; pending: PendingSession | null }> {
  const token = sessionTokenFromCookies(cookieHeader);
  if (!token) return { user: null, pending: null };
  const session = await db().session.findUnique({ where: { sessionToken: token }, include: { user: { select: { id: true, email: true, name: true, totpEnabledAt: true } } } });
  const now = clock.nowMs();
  if (!session || session.expires.getTime() <= now) return { user: null, pending: null };
  if (session.secondFactorPending) {
    return { user: null, pending: { sessionToken: token, sessionId: session.id, userId: session.userId, email: session.user.email } };
  }
  const extend = session.expires.getTime() - now < sessionMaxAgeSeconds() * 1000 - UPDATE_AGE_MS;
  const seen = !session.lastSeenAt || now - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS;
  if (extend || seen) {
    await db().session.updateMany({
      where: { sessionToken: token },
      data: {
        ...(extend ? { expires: new Date(now + sessionMaxAgeSeconds() * 1000) } : {}),
        ...(seen ? { lastSeenAt: new Date(now), ...(origin.ip ? { ip: origin.ip } : {}), ...(origin.userAgent ? { userAgent: origin.userAgent.slice(0, 400) } : {}) } : {}),
      },
    });
  }
  const user = session.user;
  return {
    user: { id: user.id, email: user.email, name: user.name, sessionToken: token, sessionId: session.id, twoFactorEnabled: user.totpEnabledAt !== null },
    pending: null,
  };
}

/** The signed-in user of a request's Cookie header, or null (no, unknown, expired or pending session). */
export async function sessionUserFromCookies(cookieHeader: string | null, origin?: RequestOrigin): Promise<SessionUser | null> {
  return (await readConsoleSession(cookieHeader, origin)).user;
}

/** A pending session becomes complete once its second factor is given: full lifetime from now. */
export async function completePendingSession(tx: DbTx, sessionToken: string): Promise<boolean> {
  const done = await tx.session.updateMany({
    where: { sessionToken, secondFactorPending: true, expires: { gt: clock.now() } },
    data: { secondFactorPending: false, expires: fullExpiry(), lastSeenAt: clock.now() },
  });
  return done.count === 1;
}

/**
 * Every other session of the user ends (a password change or reset, a two-factor change, "sign
 * out other sessions"; also the first link sign-in into an unverified account). Returns how many.
 */
export async function endOtherSessions(userId: string, keepSessionToken: string | null, client: DbTx = db()): Promise<number> {
  const ended = await client.session.deleteMany({ where: { userId, ...(keepSessionToken ? { sessionToken: { not: keepSessionToken } } : {}) } });
  return ended.count;
}
