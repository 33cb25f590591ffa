import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { config } from '@/server/platform/config';
import { randomBase62 } from '@/server/platform/ids';

/**
 * Console sessions are rows (Auth.js database strategy): the cookie carries an opaque token,
 * deleting the row signs the session out everywhere at once. Auth.js creates them for e-mail
 * links; the password sign-in creates them here (Auth.js only writes JWTs for credentials).
 */
export const SESSION_COOKIE_NAMES = ['__Secure-authjs.session-token', 'authjs.session-token'] as const;

/** Extend a session's expiry at most once a day of use (sliding expiry, as Auth.js does). */
const UPDATE_AGE_MS = 24 * 3600 * 1000;

export function sessionMaxAgeSeconds(): number {
  return config().CONSOLE_SESSION_DAYS * 24 * 3600;
}

export async function createSession(userId: string): Promise<{ sessionToken: string; expires: Date }> {
  const expires = new Date(clock.nowMs() + sessionMaxAgeSeconds() * 1000);
  const sessionToken = randomBase62(48);
  await db().session.create({ data: { sessionToken, userId, expires, createdAt: clock.now() } });
  return { sessionToken, expires };
}

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  sessionToken: string;
}

function cookieValues(cookieHeader: string | null): Map<string, string> {
  const values = new Map<string, string>();
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!values.has(name)) values.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return values;
}

/** The signed-in user of a request's Cookie header, or null (no, unknown or expired session). */
export async function sessionUserFromCookies(cookieHeader: string | null): Promise<SessionUser | null> {
  const cookies = cookieValues(cookieHeader);
  const token = SESSION_COOKIE_NAMES.map((name) => cookies.get(name)).find((value) => value !== undefined && value !== '');
  if (!token || token.length > 200) return null;
  const session = await db().session.findUnique({ where: { sessionToken: token }, include: { user: { select: { id: true, email: true, name: true } } } });
  const now = clock.nowMs();
  if (!session || session.expires.getTime() <= now) return null;
  if (session.expires.getTime() - now < sessionMaxAgeSeconds() * 1000 - UPDATE_AGE_MS) {
    await db().session.update({ where: { sessionToken: token }, data: { expires: new Date(now + sessionMaxAgeSeconds() * 1000) } });
  }
  return { id: session.user.id, email: session.user.email, name: session.user.name, sessionToken: token };
}

/** After a password change: every other session of the user ends. */
export async function endOtherSessions(userId: string, keepSessionToken: string | null): Promise<void> {
  await db().session.deleteMany({ where: { userId, ...(keepSessionToken ? { sessionToken: { not: keepSessionToken } } : {}) } });
}
