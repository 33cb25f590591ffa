import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { encode as encodeJwt } from 'next-auth/jwt';
import type { EmailConfig } from 'next-auth/providers/email';
import { PrismaAdapter } from '@auth/prisma-adapter';
import type { Adapter, AdapterUser } from 'next-auth/adapters';
import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { db } from '@/server/platform/db';
import { config } from '@/server/platform/config';
import { ensureAuthSecret } from '@/server/platform/secrets';
import { newId } from '@/server/platform/ids';
import { clock } from '@/server/platform/clock';
import { sessionMaxAgeSeconds, startSession } from '@/server/capabilities/auth/sessions';
import { recordFailedSignIn } from '@/server/capabilities/auth/record-failed-sign-in';
import { currentRequestOrigin, withRequestOrigin } from '@/server/capabilities/audit/current-origin';
import { signInAttemptAllowed } from '@/server/capabilities/auth/sign-in-limits';
import { passwordSignIn } from '@/server/capabilities/auth/verify-credentials';
import { normalizeEmail } from '@/server/capabilities/mail/email-address';
import { sendSignInLink } from '@/server/capabilities/auth/sign-in-link';
import { verifyByLinkSignIn } from '@/server/capabilities/auth/email-verification';
import { safeCallbackPath } from '@/shared/auth/callback-url';
import { clientIp } from '@/server/doors/client-ip';

/**
 * The Auth.js (next-auth v5) door of the console: /api/auth/*. Database sessions through the
 * Prisma adapter; e-mail + password (argon2id) and an e-mail sign-in link through the mail port.
 * Auth.js writes JWTs for credentials sign-ins only; here the jwt callback creates a database
 * session instead and the cookie carries its token, so every console session is a row.
 */
class TooManyAttempts extends CredentialsSignin {
  override code = 'too_many_attempts';
}

/** The right password of an account whose address is not confirmed yet (a link was mailed). */
class EmailUnverified extends CredentialsSignin {
  override code = 'email_unverified';
}

const credentialsSchema = z.object({ email: z.string().trim().min(3).max(320), password: z.string().min(1).max(1000) });

/** Pages of the console (app/), where Auth.js redirects. */
export const CONSOLE_PAGES = { signIn: '/sign-in', verifyRequest: '/sign-in/check-email', error: '/sign-in' } as const;

function adapter(): Adapter {
  const base = PrismaAdapter(db());
  return {
    ...base,
    // Our user ids are prefixed (usr_…); e-mail links only ever sign in existing users, this is a safeguard.
    async createUser(user: AdapterUser) {
      const row = await db().user.create({
        data: { id: newId('usr'), email: normalizeEmail(user.email), name: user.name ?? null, emailVerified: user.emailVerified, createdAt: clock.now() },
      });
      return { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerified, image: row.image };
    },
    // Auth.js calls this with emailVerified when an e-mail link is used: the first such sign-in
    // into an account never verified clears its password and ends its sessions.
    async updateUser(user) {
      if (user.emailVerified && user.id) return verifyByLinkSignIn(user.id);
      return base.updateUser!(user);
    },
    // E-mail link sign-ins: pending until the second factor for users who have one, and audited.
    async createSession(session) {
      return startSession(session, 'email_link', currentRequestOrigin());
    },
    // A session waiting for its second factor is no session to Auth.js either.
    async getSessionAndUser(sessionToken) {
      const found = await base.getSessionAndUser?.(sessionToken);
      if (!found || (found.session as { secondFactorPending?: boolean }).secondFactorPending) return null;
      return found;
    },
  };
}

function emailLinkProvider(): EmailConfig {
  return {
    id: 'email',
    type: 'email',
    name: 'E-mail link',
    maxAge: 15 * 60,
    options: {},
    async sendVerificationRequest({ identifier, url, request }) {
      const email = normalizeEmail(identifier);
      // Counted like a password attempt; an unknown address gets no mail and the same answer.
      if (!(await signInAttemptAllowed(email, clientIp(request)))) return;
      await sendSignInLink(email, url);
    },
  };
}

function authConfig(): NextAuthConfig {
  const c = config();
  return {
    secret: c.AUTH_SECRET ?? ensureAuthSecret(c.dataDir),
    // Requests reach Auth.js with the URL rewritten to PUBLIC_BASE_URL (see handleAuth), so the
    // host in sign-in links is ours, not the caller's Host header.
    trustHost: true,
    basePath: '/api/auth',
    adapter: adapter(),
    session: { strategy: 'database', maxAge: sessionMaxAgeSeconds(), updateAge: 24 * 3600 },
    pages: CONSOLE_PAGES,
    providers: [
      Credentials({
        id: 'credentials',
        name: 'E-mail and password',
        credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, request) {
          const parsed = credentialsSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const email = normalizeEmail(parsed.data.email);
          if (!(await signInAttemptAllowed(email, clientIp(request)))) throw new TooManyAttempts();
          const result = await passwordSignIn(email, parsed.data.password);
          if (result.ok) return result.user;
          if (result.reason === 'invalid') await recordFailedSignIn(email, currentRequestOrigin());
          if (result.reason === 'unverified') throw new EmailUnverified();
          return null;
        },
      }),
      emailLinkProvider(),
    ],
    callbacks: {
      // Where Auth.js sends the browser after sign-in or sign-out: only our own origin.
      redirect({ url, baseUrl }) {
        return `${baseUrl}${safeCallbackPath(url, baseUrl)}`;
      },
      async jwt({ token, user, account }) {
        if (account?.provider === 'credentials' && user?.id) {
          token.sessionToken = (await startSession({ userId: user.id }, 'password', currentRequestOrigin())).sessionToken;
        }
        return token;
      },
    },
    jwt: {
      // The credentials sign-in's "JWT" is the database session's token (see above).
      async encode(params) {
        const sessionToken = params.token?.sessionToken;
        return typeof sessionToken === 'string' ? sessionToken : encodeJwt(params);
      },
    },
  };
}

const nextAuth = NextAuth(() => authConfig());

/** Serve /api/auth/* (a route of http/routes.ts). */
export async function handleAuth(req: Request): Promise<Response> {
  let request = req;
  if (config().AUTH_TRUST_HOST !== 'true' && config().AUTH_TRUST_HOST !== '1') {
    const url = new URL(req.url);
    const external = new URL(config().publicBaseUrl);
    url.protocol = external.protocol;
    url.host = external.host;
    const headers = new Headers(req.headers);
    headers.delete('x-forwarded-host');
    headers.delete('x-forwarded-proto');
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    request = new Request(url, { method: req.method, headers, ...(hasBody ? { body: await req.arrayBuffer() } : {}) });
  }
  const handler = req.method === 'POST' ? nextAuth.handlers.POST : nextAuth.handlers.GET;
  // Sign-ins are audited with where they came from; Auth.js does not hand the request on.
  return withRequestOrigin({ ip: clientIp(req), userAgent: req.headers.get('user-agent') }, () => handler(request as NextRequest));
}
