// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * The scripted abuse pass: what an attacker tried against the console, replayed through the real
 * server's /api/trpc and /api/auth on every CI run, each step expected to be refused. The
 * account-takeover sequence through the mail outbox, accounts claimed before their owner
 * arrives, sign-up enumeration, the open-redirect corpus, invitation flooding and phishing names.
 * (The attacker reads only their own mailbox: the mail record, filtered by their address.)
 */
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { db } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { newId } from '@/server/platform/ids';
import { INVITATIONS_PER_ORGANIZATION_PER_DAY, INVITATIONS_PER_USER_PER_HOUR } from '@/server/capabilities/members/invite-member';
import { baseUrl, createTestOrg, testIp } from './support';
import {
  createMember,
  lastMailTo,
  linkIn,
  mutate,
  openSignInLink,
  PASSWORD,
  query,
  requestSignInLink,
  signedIn,
  signIn,
  signUpVerified,
  uniqueEmail,
} from './console-support';
import { HOSTILE_CALLBACKS } from './helpers/hostile-callbacks';

type Page<T> = { data: T[]; next_cursor: string | null };
interface Mail {
  to: string;
  subject: string;
  text: string;
}

const ATTACKER_PASSWORD = 'attacker chosen passphrase';
const ip = () => ({ headers: { 'x-forwarded-for': testIp() } });

async function ownerOf(name: string) {
  const org = await createTestOrg({ name });
  const owner = await createMember(org.id, 'owner');
  return { org, owner, cookie: await signedIn(owner.email), scope: { organizationId: org.id, mode: 'test' } };
}

/** Everything a signed-in user can read of the mail record through the console, every page. */
async function consoleMail(cookie: string, scope: object): Promise<Mail[]> {
  const all: Mail[] = [];
  let cursor: string | undefined;
  do {
    const page = await query<Page<Mail> & { enabled: boolean }>('outbox.list', { ...scope, limit: 100, ...(cursor ? { cursor } : {}) }, cookie);
    expect(page.status).toBe(200);
    all.push(...page.data.data);
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

const ACCESS_LINK = /\/api\/auth\/callback\/email|reset-password\?token=|\/invitations\/|verify-email\?token=/;

describe('account takeover through the mail outbox', () => {
  it("an attacker's own organization reads none of the access mail of an address they invite (sign-in link, reset, invitation)", async () => {
    const victim = await ownerOf('Victim org');
    const attacker = await signUpVerified('Attacker org');
    const scope = { organizationId: attacker.organizationId, mode: 'test' };

    // 1. invite the victim, 2. ask for a sign-in link and a password reset for the victim's address.
    const invited = await mutate('members.invite', { ...scope, email: victim.owner.email, role: 'developer' }, attacker.cookie);
    expect(invited.status).toBe(200);
    expect((await requestSignInLink(victim.owner.email)).status).toBe(302);
    expect((await mutate('auth.requestPasswordReset', { email: victim.owner.email }, null, ip())).status).toBe(200);
    // The three messages exist (they reach the victim's mailbox)…
    expect(await db().mailOutbox.count({ where: { to: victim.owner.email, kind: 'access' } })).toBe(3);

    // 3. …and the attacker's console shows none of them, nor any access link at all.
    const seen = await consoleMail(attacker.cookie, scope);
    expect(seen.filter((m) => m.to !== attacker.email)).toEqual([]);
    expect(seen.filter((m) => ACCESS_LINK.test(m.text))).toEqual([]);

    // The victim's own console does not show their access mail either (a shared screen, a
    // colleague at the desk): sign-in links and resets reach the mailbox only.
    expect((await consoleMail(victim.cookie, victim.scope)).filter((m) => ACCESS_LINK.test(m.text))).toEqual([]);

    // 4. The victim's account is untouched: the attacker has no session of theirs.
    expect(await db().session.count({ where: { userId: victim.owner.id } })).toBe(1);
  });

  it('the console shows a user only the notification mail addressed to them', async () => {
    const { org, owner, cookie, scope } = await ownerOf('Notified org');
    const admin = await createMember(org.id, 'admin');
    const now = clock.now();
    await db().mailOutbox.createMany({
      data: [
        { id: newId('mail'), to: owner.email, subject: 'Webhook endpoint disabled: https://hooks.example/a', body: 'notice for the owner', kind: 'notification', createdAt: now },
        { id: newId('mail'), to: admin.email, subject: 'Webhook endpoint disabled: https://hooks.example/b', body: 'notice for the admin', kind: 'notification', createdAt: now },
        { id: newId('mail'), to: owner.email, subject: 'Your Roomtone sign-in link', body: 'http://x/api/auth/callback/email?token=t', kind: 'access', createdAt: now },
      ],
    });
    expect((await consoleMail(cookie, scope)).map((m) => m.text)).toEqual(['notice for the owner']);
    expect((await consoleMail(await signedIn(admin.email), scope)).map((m) => m.text)).toEqual(['notice for the admin']);
  });
});

describe('links in access mail', () => {
  /** A form POST with a Host (and X-Forwarded-Host) of the attacker's choosing. */
  function postWithHost(path: string, host: string, cookie: string, form: URLSearchParams): Promise<number> {
    const url = new URL(`${baseUrl}${path}`);
    const body = form.toString();
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host, 'x-forwarded-host': host, 'x-forwarded-proto': 'https', cookie, origin: `https://${host}`, 'x-forwarded-for': testIp(), 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('a forged Host cannot point a sign-in link at another site: links are built from PUBLIC_BASE_URL', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const status = await postWithHost('/api/auth/signin/email', 'evil.example', cookie, new URLSearchParams({ csrfToken, email: user.email, callbackUrl: 'https://evil.example/' }));
    expect(status).toBe(302);
    const link = linkIn((await lastMailTo(user.email, 'sign-in link')).body, '/api/auth/callback/email');
    expect(new URL(link).origin).toBe(new URL(baseUrl).origin);
    expect(decodeURIComponent(link)).not.toContain('evil.example');
  });
});

describe('accounts claimed before their owner arrives', () => {
  it("a stranger's sign-up with Carol's address gives no password sign-in; Carol's first link sign-in clears that password and ends every session; she accepts her invitation", async () => {
    const carol = uniqueEmail('carol');
    // The attacker signs up with Carol's address and a password of their own.
    const claimed = await mutate('auth.signUp', { email: carol, password: ATTACKER_PASSWORD, organizationName: 'Claimed' }, null, ip());
    expect(claimed.status).toBe(200);
    const attempt = await signIn(carol, ATTACKER_PASSWORD);
    expect(attempt.cookie).toBeNull();
    expect(attempt.location).toContain('code=email_unverified');
    // Carol's mailbox has the confirmation link; without the attacker's password it confirms nothing.
    const confirm = new URL(linkIn((await lastMailTo(carol, 'Confirm your e-mail address')).body, '/verify-email?'));
    const guessed = await mutate('auth.verifyEmail', { token: confirm.searchParams.get('token'), password: PASSWORD }, null, ip());
    expect(guessed.status).toBe(400);
    expect(guessed.error).toMatchObject({ code: 'parameter_invalid', param: 'password' });
    const user = await db().user.findUniqueOrThrow({ where: { email: carol } });
    expect(user.emailVerified).toBeNull();
    // A session the stranger opened before the owner arrived (made here directly: the unconfirmed
    // password opens none).
    await db().session.create({ data: { id: `ses_stale${user.id.slice(4)}`, sessionToken: `stale-${user.id}`, userId: user.id, expires: new Date(Date.now() + 3_600_000) } });
    expect((await query('me.get', undefined, `authjs.session-token=stale-${user.id}`)).status).toBe(200);

    // The real Carol is invited; she signs in by link (her mailbox) and accepts.
    const { scope, cookie: ownerCookie } = await ownerOf('Carol employer');
    expect((await mutate('members.invite', { ...scope, email: carol, role: 'admin' }, ownerCookie)).status).toBe(200);
    const token = /\/invitations\/([0-9A-Za-z]+)/.exec((await lastMailTo(carol, 'Invitation')).body)![1]!;
    expect((await requestSignInLink(carol)).status).toBe(302);
    const signedInByLink = await openSignInLink(linkIn((await lastMailTo(carol, 'sign-in link')).body, '/api/auth/callback/email'));
    expect(signedInByLink.cookie).not.toBeNull();
    expect((await mutate('invitations.accept', { token }, signedInByLink.cookie)).data).toMatchObject({ organization_id: scope.organizationId, role: 'admin' });

    const after = await db().user.findUniqueOrThrow({ where: { email: carol } });
    expect(after.passwordHash).toBeNull();
    expect(after.emailVerified).not.toBeNull();
    expect((await query('me.get', undefined, `authjs.session-token=stale-${user.id}`)).status).toBe(401);
    const refusedNow = await signIn(carol, ATTACKER_PASSWORD);
    expect(refusedNow.cookie).toBeNull();
    expect(refusedNow.location).toContain('error=CredentialsSignin');
    expect(refusedNow.location).not.toContain('too_many_attempts');
    // The attacker's confirmation link is dead too.
    expect((await mutate('auth.verifyEmail', { token: confirm.searchParams.get('token'), password: ATTACKER_PASSWORD }, null, ip())).error).toMatchObject({ param: 'token' });
    // Carol's own session works, and a later link sign-in changes nothing more.
    expect((await query('me.get', undefined, signedInByLink.cookie)).status).toBe(200);
  });

  it('an unverified account accepts no invitation and sends none, even with a session', async () => {
    const { org, scope, cookie: ownerCookie } = await ownerOf('Verification org');
    const member = await createMember(org.id, 'admin');
    const cookie = await signedIn(member.email);
    await db().user.update({ where: { id: member.id }, data: { emailVerified: null } });
    const invite = await mutate('members.invite', { ...scope, email: uniqueEmail('x'), role: 'developer' }, cookie);
    expect(invite.status).toBe(403);
    expect(invite.error?.code).toBe('email_unverified');

    const other = await ownerOf('Inviting org');
    expect((await mutate('members.invite', { ...other.scope, email: member.email, role: 'developer' }, other.cookie)).status).toBe(200);
    const token = /\/invitations\/([0-9A-Za-z]+)/.exec((await lastMailTo(member.email, 'Invitation')).body)![1]!;
    const accept = await mutate('invitations.accept', { token }, cookie);
    expect(accept.status).toBe(403);
    expect(accept.error?.code).toBe('email_unverified');
    expect(await db().membership.count({ where: { organizationId: other.org.id, userId: member.id } })).toBe(0);
    expect((await query('members.list', scope, ownerCookie)).status).toBe(200);
  });

  it('sign-up answers alike whether the address has an account or not; the existing account gets a mail instead', async () => {
    const { owner } = await ownerOf('Existing org');
    const fresh = uniqueEmail('fresh');
    // The requester's free text (a name) never travels in the mail either: no relay for phishing.
    const name = 'Visit https://evil.example/login';
    const taken = await mutate('auth.signUp', { email: owner.email, password: ATTACKER_PASSWORD, name, organizationName: 'Probe' }, null, ip());
    const free = await mutate('auth.signUp', { email: fresh, password: ATTACKER_PASSWORD, name, organizationName: 'Probe' }, null, ip());
    expect([taken.status, taken.data, taken.error]).toEqual([free.status, free.data, free.error]);
    expect(taken.data).toEqual({ status: 'check_email' });
    const told = await lastMailTo(owner.email);
    expect(told.subject).toBe('Your Roomtone account');
    expect(told.body).toContain('already has one');
    for (const mail of [told, await lastMailTo(fresh)]) expect(`${mail.subject}\n${mail.body}`).not.toContain('evil.example');
    // Nothing of the existing account changed: same password, one account.
    expect((await signIn(owner.email, PASSWORD)).cookie).not.toBeNull();
    expect(await db().user.count({ where: { email: owner.email } })).toBe(1);
  });
});

describe('open redirects after sign-in', () => {
  it('Auth.js sends the browser only to our own origin, whatever callbackUrl says (the bypass corpus, through sign-out)', async () => {
    const { cookie } = await ownerOf('Redirect org');
    const origin = new URL(baseUrl).origin;
    for (const hostile of HOSTILE_CALLBACKS) {
      if (!hostile) continue;
      const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      // Sign-out follows callbackUrl like sign-in does and can be asked for freely: it walks the corpus without spending sign-in attempts.
      const res = await fetch(`${baseUrl}/api/auth/signout`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin: baseUrl },
        body: new URLSearchParams({ csrfToken, callbackUrl: hostile }),
      });
      const location = res.headers.get('location') ?? '';
      expect(location, JSON.stringify(hostile)).toBe(`${origin}/`);
    }
    expect((await query('me.get', undefined, cookie)).status).toBe(200);
  });

  it('a password sign-in and an e-mail link with a hostile callbackUrl both land on our origin', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const origin = new URL(baseUrl).origin;
    const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), origin: baseUrl, 'x-forwarded-for': testIp() },
      body: new URLSearchParams({ csrfToken, email: user.email, password: PASSWORD, callbackUrl: '/\t/evil.example/phish' }),
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))).toBe(true);
    expect(new URL(res.headers.get('location')!).origin).toBe(origin);
    expect(res.headers.get('location')).toBe(`${origin}/`);

    expect((await requestSignInLink(user.email, 'https://evil.example/phish')).status).toBe(302);
    const opened = await openSignInLink(linkIn((await lastMailTo(user.email, 'sign-in link')).body, '/api/auth/callback/email'));
    expect(opened.cookie).not.toBeNull();
    expect(opened.location).toBe(`${origin}/`);
  });
});

describe('invitations as a spam and phishing relay', () => {
  it(`floods are cut: ${INVITATIONS_PER_USER_PER_HOUR} per user per hour, ${INVITATIONS_PER_ORGANIZATION_PER_DAY} per organization per day; nothing is mailed beyond`, async () => {
    const { org, scope, cookie } = await ownerOf('Flooding org');
    const sent: string[] = [];
    const invite = async (as: string) => {
      const email = uniqueEmail('target');
      const result = await mutate('members.invite', { ...scope, email, role: 'developer' }, as);
      if (result.status === 200) sent.push(email);
      return { result, email };
    };
    for (let i = 0; i < INVITATIONS_PER_USER_PER_HOUR; i++) expect((await invite(cookie)).result.status).toBe(200);
    const refused = await invite(cookie);
    expect(refused.result.status).toBe(429);
    expect(refused.result.error?.code).toBe('rate_limit_exceeded');
    expect(await db().mailOutbox.count({ where: { to: refused.email } })).toBe(0);

    // Other admins of the organization share its daily limit.
    const admins = await Promise.all([1, 2].map(async () => signedIn((await createMember(org.id, 'admin')).email)));
    for (let i = 0; i < INVITATIONS_PER_ORGANIZATION_PER_DAY - INVITATIONS_PER_USER_PER_HOUR; i++) {
      expect((await invite(admins[Math.floor(i / INVITATIONS_PER_USER_PER_HOUR)]!)).result.status).toBe(200);
    }
    const orgRefused = await invite(admins[1]!);
    expect(orgRefused.result.status).toBe(429);
    expect(orgRefused.result.error?.code).toBe('rate_limit_exceeded');
    expect(sent).toHaveLength(INVITATIONS_PER_ORGANIZATION_PER_DAY);
    expect(await db().invitation.count({ where: { organizationId: org.id } })).toBe(INVITATIONS_PER_ORGANIZATION_PER_DAY);
  });

  it('organization names cannot carry links (sign-up, rename); mail never quotes an older one that does', async () => {
    const phishing = 'ACCOUNT SUSPENDED - verify at https://evil.example/login';
    for (const name of [phishing, 'evil.example/login', 'Write to security@evil.example', 'www.evil.example']) {
      const signUp = await mutate('auth.signUp', { email: uniqueEmail('phish'), password: PASSWORD, organizationName: name }, null, ip());
      expect(signUp.status, name).toBe(400);
      expect(signUp.error).toMatchObject({ code: 'parameter_invalid', param: 'organizationName' });
    }
    const { org, scope, cookie } = await ownerOf('Renamed org');
    const rename = await mutate('settings.rename', { ...scope, name: phishing }, cookie);
    expect(rename.status).toBe(400);
    expect(rename.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });

    // A name saved before the rule existed is not quoted in mail.
    await db().organization.update({ where: { id: org.id }, data: { name: phishing } });
    const target = uniqueEmail('target');
    expect((await mutate('members.invite', { ...scope, email: target, role: 'developer' }, cookie)).status).toBe(200);
    const mail = await lastMailTo(target);
    expect(`${mail.subject}\n${mail.body}`).not.toContain('evil.example');
    expect(mail.subject).toContain(org.id);
  });

  it('invitations are listed and revocable; a revoked link is dead; removing the inviter ends theirs', async () => {
    const { org, owner, scope, cookie } = await ownerOf('Revoking org');
    const admin = await createMember(org.id, 'admin');
    const adminCookie = await signedIn(admin.email);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    const invited = await mutate<{ id: string }>('members.invite', { ...scope, email: first, role: 'developer' }, cookie);
    await mutate('members.invite', { ...scope, email: second, role: 'developer' }, adminCookie);
    const tokenOf = async (email: string) => /\/invitations\/([0-9A-Za-z]+)/.exec((await lastMailTo(email, 'Invitation')).body)![1]!;
    const firstToken = await tokenOf(first);
    const secondToken = await tokenOf(second);

    const listed = await query<Page<{ id: string; email: string; invited_by: string }>>('members.invitations', scope, cookie);
    expect(listed.data.data.map((i) => [i.email, i.invited_by])).toEqual([
      [second, admin.email],
      [first, owner.email],
    ]);
    const developer = await signedIn((await createMember(org.id, 'developer')).email);
    expect((await query('members.invitations', scope, developer)).status).toBe(403);
    expect((await mutate('members.revokeInvitation', { ...scope, invitationId: invited.data.id }, developer)).status).toBe(403);
    const stranger = await ownerOf('Stranger org');
    const foreign = await mutate('members.revokeInvitation', { ...stranger.scope, invitationId: invited.data.id }, stranger.cookie);
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'resource_not_found', param: 'invitationId' });

    expect((await mutate('members.revokeInvitation', { ...scope, invitationId: invited.data.id }, cookie)).status).toBe(200);
    const dead = await query('invitations.get', { token: firstToken }, null);
    expect(dead.status).toBe(404);
    expect(dead.error).toMatchObject({ code: 'invitation_invalid', param: 'token' });
    const joined = await mutate('auth.signUp', { email: first, password: PASSWORD, invitationToken: firstToken }, null, ip());
    expect(joined.status).toBe(404);
    expect(await db().user.count({ where: { email: first } })).toBe(0);

    // The admin who sent the second invitation is removed: it ends with them.
    expect((await query('invitations.get', { token: secondToken }, null)).status).toBe(200);
    expect((await mutate('members.remove', { ...scope, userId: admin.id }, cookie)).status).toBe(200);
    expect((await query('invitations.get', { token: secondToken }, null)).status).toBe(404);
    expect((await query<Page<unknown>>('members.invitations', scope, cookie)).data.data).toEqual([]);
  });
});
