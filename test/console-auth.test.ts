// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it } from 'vitest';
import { randomBytes, scryptSync } from 'node:crypto';
import { db } from '@/server/platform/db';
import { newId } from '@/server/platform/ids';
import { api, baseUrl, createTestOrg, testIp } from './support';
import { createMember, lastMailTo, linkIn, mutate, PASSWORD, query, signedIn, signIn, uniqueEmail } from './console-support';

interface Me {
  user: { id: string; email: string; has_password: boolean };
  organizations: { id: string; name: string; role: string }[];
}

describe('console sign-in (Auth.js credentials, database sessions)', () => {
  it('signs in with e-mail and password: an HttpOnly SameSite=Lax session cookie whose session is a database row', async () => {
    const org = await createTestOrg({ name: 'Sign-in org' });
    const user = await createMember(org.id, 'owner');
    const result = await signIn(user.email.toUpperCase(), PASSWORD);
    expect(result.cookie).not.toBeNull();
    const sessionCookie = result.setCookies.find((c) => c.startsWith('authjs.session-token='))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    const token = result.cookie!.split('=')[1]!;
    expect(await db().session.count({ where: { sessionToken: token, userId: user.id } })).toBe(1);

    const me = await query<Me>('me.get', undefined, result.cookie);
    expect(me.status).toBe(200);
    expect(me.data.user.email).toBe(user.email);
    expect(me.data.organizations).toEqual([{ id: org.id, name: 'Sign-in org', role: 'owner' }]);
  });

  it('refuses a wrong password and an unknown account alike (no session)', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    for (const [email, password] of [[user.email, 'wrong password!!'], [uniqueEmail('nobody'), PASSWORD]] as const) {
      const result = await signIn(email, password);
      expect(result.cookie).toBeNull();
      expect(result.location).toContain('error=CredentialsSignin');
    }
  });

  it("still verifies the CLI's older scrypt hashes and rehashes them to argon2id", async () => {
    const org = await createTestOrg();
    const email = uniqueEmail('scrypt');
    const salt = randomBytes(16);
    const hash = scryptSync(PASSWORD, salt, 32);
    const id = newId('usr');
    await db().user.create({ data: { id, email, emailVerified: new Date(), passwordHash: `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}` } });
    await db().membership.create({ data: { organizationId: org.id, userId: id, role: 'admin' } });
    expect((await signIn(email, PASSWORD)).cookie).not.toBeNull();
    const stored = await db().user.findUniqueOrThrow({ where: { id } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await signIn(email, PASSWORD)).cookie).not.toBeNull();
  });

  it('signs out: the session row is deleted and the cookie stops working', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const cookie = await signedIn(user.email);
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`, { headers: { cookie } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const out = await fetch(`${baseUrl}/api/auth/signout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${cookie}; ${csrfCookie}`, origin: baseUrl },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${baseUrl}/` }),
    });
    expect(out.status).toBe(302);
    expect(await db().session.count({ where: { userId: user.id } })).toBe(0);
    const me = await query('me.get', undefined, cookie);
    expect(me.status).toBe(401);
    expect(me.error?.code).toBe('session_missing');
  });

  it('signs in by e-mail link through the mail outbox; unknown addresses get no mail and the same answer', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const stranger = uniqueEmail('stranger');
    for (const email of [user.email, stranger]) {
      const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const res = await fetch(`${baseUrl}/api/auth/signin/email`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), 'x-forwarded-for': testIp() },
        body: new URLSearchParams({ csrfToken, email, callbackUrl: `${baseUrl}/` }),
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${baseUrl}/api/auth/verify-request?provider=email&type=email`);
    }
    expect(await db().mailOutbox.count({ where: { to: stranger } })).toBe(0);
    const mail = await lastMailTo(user.email);
    const link = /(http\S+\/api\/auth\/callback\/email\S+)/.exec(mail.body)?.[1];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${baseUrl}/api/auth/callback/email?`)).toBe(true);
    const res = await fetch(link!, { redirect: 'manual' });
    const session = res.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='));
    expect(session).toBeDefined();
    const me = await query<Me>('me.get', undefined, session!.split(';')[0]!);
    expect(me.data.user.email).toBe(user.email);
    // The link is single-use.
    const again = await fetch(link!, { redirect: 'manual' });
    expect(again.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token=') && !c.includes('Expires=Thu, 01 Jan 1970'))).toBe(false);
  });
});

describe('the auth boundary', () => {
  it('API keys never work on /api/trpc; session cookies never work on /v1', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const cookie = await signedIn(user.email);

    const withKey = await query('overview.get', { organizationId: org.id, mode: 'test' }, null, { authorization: `Bearer ${org.testKey}` });
    expect(withKey.status).toBe(401);
    expect(withKey.error?.code).toBe('session_missing');

    const withCookie = await api('/v1/generations', { headers: { cookie } });
    expect(withCookie.status).toBe(401);
    expect((withCookie.body as { error: { code: string } }).error.code).toBe('api_key_missing');
  });

  it('refuses mutations from another origin or without one (CSRF), before any procedure runs', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const cookie = await signedIn(user.email);
    const input = { organizationId: org.id, mode: 'test', name: 'csrf', permissions: ['renders'] };
    for (const origin of ['https://evil.example', null]) {
      const refused = await mutate('keys.create', input, cookie, { origin });
      expect(refused.status).toBe(403);
      expect(refused.error?.code).toBe('cross_site_request_refused');
    }
    expect(await db().apiKey.count({ where: { organizationId: org.id, name: 'csrf' } })).toBe(0);
    const ok = await mutate('keys.create', input, cookie);
    expect(ok.status).toBe(200);
  });

  it('limits sign-in attempts per account (5/min, from any IP) and per IP (20/min, over any accounts)', async () => {
    const org = await createTestOrg();
    const target = await createMember(org.id, 'owner');
    for (let i = 0; i < 5; i++) {
      const attempt = await signIn(target.email, 'wrong password!!', testIp());
      expect(attempt.location).toContain('error=CredentialsSignin');
    }
    // Now even the right password, from a fresh IP, is refused for this account.
    const locked = await signIn(target.email, PASSWORD, testIp());
    expect(locked.cookie).toBeNull();
    expect(locked.location).toContain('code=too_many_attempts');

    const ip = testIp();
    for (let i = 0; i < 20; i++) {
      const attempt = await signIn(uniqueEmail('spray'), PASSWORD, ip);
      expect(attempt.location).not.toContain('too_many_attempts');
    }
    const other = await createMember(org.id, 'developer');
    const blocked = await signIn(other.email, PASSWORD, ip);
    expect(blocked.cookie).toBeNull();
    expect(blocked.location).toContain('code=too_many_attempts');
    expect((await signIn(other.email, PASSWORD, testIp())).cookie).not.toBeNull();
  });
});

describe('accounts', () => {
  it('signs up with a new organization (owner) confirmed by a mailed link and the password; refuses short passwords', async () => {
    const email = uniqueEmail('founder');
    const created = await mutate<{ status: string }>('auth.signUp', { email, password: PASSWORD, organizationName: 'Atelier Nord' }, null, {
      headers: { 'x-forwarded-for': testIp() },
    });
    expect(created.status).toBe(200);
    expect(created.data).toEqual({ status: 'check_email' });
    // Not before the address is confirmed.
    expect((await signIn(email, PASSWORD)).location).toContain('code=email_unverified');
    const link = new URL(linkIn((await lastMailTo(email, 'Confirm your e-mail address')).body, '/verify-email?'));
    expect(link.origin).toBe(new URL(baseUrl).origin);
    const token = link.searchParams.get('token');
    const verified = await mutate<{ email: string }>('auth.verifyEmail', { token, password: PASSWORD }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(verified.data).toEqual({ email });
    const cookie = await signedIn(email);
    const me = await query<Me>('me.get', undefined, cookie);
    expect(me.data.organizations).toMatchObject([{ name: 'Atelier Nord', role: 'owner' }]);
    // The link is used up.
    const reused = await mutate('auth.verifyEmail', { token, password: PASSWORD }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(reused.status).toBe(400);
    expect(reused.error).toMatchObject({ code: 'parameter_invalid', param: 'token' });

    const short = await mutate('auth.signUp', { email: uniqueEmail('short'), password: 'short', organizationName: 'X' }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(short.status).toBe(400);
    expect(short.error).toMatchObject({ code: 'parameter_invalid', param: 'password' });
    const noOrg = await mutate('auth.signUp', { email: uniqueEmail('noorg'), password: PASSWORD }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(noOrg.status).toBe(400);
    expect(noOrg.error).toMatchObject({ code: 'parameter_invalid', param: 'organizationName' });
  });

  it('the confirmation link expires after 24 hours; a refused password sign-in mails a new one (at most every 10 minutes)', async () => {
    const email = uniqueEmail('late');
    await mutate('auth.signUp', { email, password: PASSWORD, organizationName: 'Late org' }, null, { headers: { 'x-forwarded-for': testIp() } });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const identifier = `verify-email:${user.id}`;
    const first = await db().verificationToken.findFirstOrThrow({ where: { identifier } });
    const token = new URL(linkIn((await lastMailTo(email, 'Confirm')).body, '/verify-email?')).searchParams.get('token');
    // Sent a moment ago: a refused sign-in sends no second link yet.
    expect((await signIn(email, PASSWORD)).location).toContain('code=email_unverified');
    expect(await db().mailOutbox.count({ where: { to: email, subject: { contains: 'Confirm' } } })).toBe(1);
    // A day later (the stored expiry moved back, as the clock would move on).
    await db().verificationToken.updateMany({ where: { identifier }, data: { expires: new Date(Date.now() - 1000) } });
    const expired = await mutate('auth.verifyEmail', { token, password: PASSWORD }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(expired.error).toMatchObject({ code: 'parameter_invalid', param: 'token' });
    expect((await signIn(email, PASSWORD)).location).toContain('code=email_unverified');
    expect(await db().mailOutbox.count({ where: { to: email, subject: { contains: 'Confirm' } } })).toBe(2);
    expect((await db().verificationToken.findFirstOrThrow({ where: { identifier } })).token).not.toBe(first.token);
  });

  it('changes the password: the current one is checked, other sessions end, the new one signs in', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'admin');
    const cookie = await signedIn(user.email);
    const otherDevice = await signedIn(user.email);
    const wrong = await mutate('me.changePassword', { currentPassword: 'not the password', newPassword: 'a brand new passphrase' }, cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({ code: 'parameter_invalid', param: 'currentPassword' });
    const changed = await mutate('me.changePassword', { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' }, cookie);
    expect(changed.status).toBe(200);
    expect((await query('me.get', undefined, cookie)).status).toBe(200);
    expect((await query('me.get', undefined, otherDevice)).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).cookie).toBeNull();
    expect((await signIn(user.email, 'a brand new passphrase')).cookie).not.toBeNull();
  });

  it('resets a password by e-mail link (once), ending every session and confirming the address', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const cookie = await signedIn(user.email);
    // Its address was never confirmed (say, a session from before confirmations existed): the reset link proves it.
    await db().user.update({ where: { id: user.id }, data: { emailVerified: null } });
    const asked = await mutate('auth.requestPasswordReset', { email: user.email }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(asked.status).toBe(200);
    const unknown = await mutate('auth.requestPasswordReset', { email: uniqueEmail('ghost') }, null, { headers: { 'x-forwarded-for': testIp() } });
    expect(unknown.status).toBe(200);
    const mail = await lastMailTo(user.email);
    const token = /reset-password\?token=([0-9A-Za-z]+)/.exec(mail.body)?.[1];
    expect(token).toBeDefined();
    const reset = await mutate('auth.resetPassword', { token, password: 'reset passphrase 42' }, null);
    expect(reset.status).toBe(200);
    expect((await query('me.get', undefined, cookie)).status).toBe(401);
    expect((await signIn(user.email, 'reset passphrase 42')).cookie).not.toBeNull();
    const reused = await mutate('auth.resetPassword', { token, password: 'another passphrase' }, null);
    expect(reused.status).toBe(400);
    expect(reused.error).toMatchObject({ code: 'parameter_invalid', param: 'token' });
  });
});
