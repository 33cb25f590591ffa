// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Two-factor sign-in (TOTP + recovery codes), the organization requirement and the sessions
 * list, over real HTTP (/api/auth and /api/trpc) against the production server. Each case has
 * its own user: the sign-in limits (5 attempts a minute per account) count every password,
 * link request and code, as they should.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import jsQR from 'jsqr';
import { db } from '@/server/platform/db';
import { recoveryCodeHash } from '@/server/capabilities/auth/recovery-codes';
import { baseUrl, createTestOrg, testIp } from './support';
import { createMember, mutate, query, signedIn, signIn, uniqueEmail } from './console-support';
import { codeAt, withTwoFactor } from './two-factor-support';

interface Enrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

async function decodeQr(svg: string): Promise<string | null> {
  const { data, info } = await sharp(Buffer.from(svg)).resize({ width: 400, kernel: 'nearest' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null;
}

async function auditActions(organizationId: string, userId: string): Promise<string[]> {
  const rows = await db().auditEvent.findMany({ where: { organizationId, OR: [{ actorUserId: userId }, { targetId: userId }] }, orderBy: { seq: 'asc' } });
  return rows.map((r) => r.action);
}

/** Ask for an e-mail sign-in link and open it: the Cookie header of the session it starts. */
async function signInByLink(email: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  await fetch(`${baseUrl}/api/auth/signin/email`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), 'x-forwarded-for': testIp() },
    body: new URLSearchParams({ csrfToken, email, callbackUrl: `${baseUrl}/` }),
  });
  const mail = await db().mailOutbox.findFirstOrThrow({ where: { to: email }, orderBy: { createdAt: 'desc' } });
  const link = /(http\S+\/api\/auth\/callback\/email\S+)/.exec(mail.body)![1]!;
  const res = await fetch(link, { redirect: 'manual' });
  return res.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='))!.split(';')[0]!;
}

describe('two-factor enrolment', () => {
  it('shows the secret once (text and a QR code drawn here), keeps it sealed, confirms with a code, gives ten recovery codes and ends the other sessions', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const cookie = await signedIn(user.email);
    const other = await signedIn(user.email);

    expect((await query('twoFactor.status', undefined, cookie)).data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    const begun = await mutate<Enrolment>('twoFactor.begin', undefined, cookie);
    expect(begun.status).toBe(200);
    const { secret, otpauth_uri: uri, qr_svg: svg } = begun.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(new URL(uri).pathname)).toBe(`/Roomtone:${user.email}`);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/); // nothing fetched from elsewhere
    expect(await decodeQr(svg)).toBe(uri);

    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.totpPendingSecretEncrypted).toMatch(/^v1:/);
    expect(stored.totpPendingSecretEncrypted).not.toContain(secret);
    expect(stored.totpSecretEncrypted).toBeNull();

    const wrongCode = codeAt(secret) === '000000' ? '111111' : '000000';
    const wrong = await mutate('twoFactor.confirm', { code: wrongCode }, cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({ code: 'parameter_invalid', param: 'code' });
    expect((await query<{ enabled: boolean }>('twoFactor.status', undefined, cookie)).data.enabled).toBe(false);

    const confirmed = await mutate<{ recovery_codes: string[] }>('twoFactor.confirm', { code: codeAt(secret) }, cookie);
    expect(confirmed.status).toBe(200);
    const codes = confirmed.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const rows = await db().recoveryCode.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.codeHash).sort()).toEqual(codes.map(recoveryCodeHash).sort());
    expect(JSON.stringify(rows)).not.toContain(codes[0]);
    const enabled = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(enabled.totpSecretEncrypted).toMatch(/^v1:/);
    expect(enabled.totpPendingSecretEncrypted).toBeNull();

    expect((await query('twoFactor.status', undefined, cookie)).data).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect((await query('me.get', undefined, cookie)).status).toBe(200);
    const ended = await query('me.get', undefined, other);
    expect(ended.status).toBe(401);
    expect(ended.error?.code).toBe('session_missing');

    const again = await mutate('twoFactor.begin', undefined, cookie);
    expect(again.status).toBe(409);
    expect(again.error?.code).toBe('two_factor_already_enabled');
    expect(await auditActions(org.id, user.id)).toContain('two_factor.enabled');
  });
});

describe('two-factor sign-in', () => {
  it('after the password the session grants nothing but the code step; a wrong or replayed code is refused, the right one completes it', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'admin');
    const { secret } = await withTwoFactor(user);

    const first = await signIn(user.email, 'correct horse battery staple');
    const pending = first.cookie!;
    expect(pending).not.toBeNull();
    const session = await db().session.findUniqueOrThrow({ where: { sessionToken: pending.split('=')[1]! } });
    expect(session.secondFactorPending).toBe(true);
    expect(session.expires.getTime()).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 5_000);
    for (const [path, input] of [['me.get', undefined], ['overview.get', { organizationId: org.id, mode: 'test' }], ['sessions.list', undefined]] as const) {
      const refused = await query(path, input, pending);
      expect(refused.status).toBe(401);
      expect(refused.error?.code).toBe('second_factor_required');
    }
    const key = await mutate('keys.create', { organizationId: org.id, mode: 'live', name: 'x', permissions: ['renders'] }, pending);
    expect(key.status).toBe(401);
    expect(key.error?.code).toBe('second_factor_required');
    // Auth.js's own session endpoint does not see it either.
    expect(await (await fetch(`${baseUrl}/api/auth/session`, { headers: { cookie: pending } })).json()).toBeNull();

    const wrong = await mutate('auth.verifySecondFactor', { code: codeAt(secret, 5) }, pending);
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({ code: 'parameter_invalid', param: 'code' });

    const code = codeAt(secret);
    const done = await mutate<{ method: string }>('auth.verifySecondFactor', { code }, pending);
    expect(done.status).toBe(200);
    expect(done.data.method).toBe('totp');
    expect((await query('me.get', undefined, pending)).status).toBe(200);
    const complete = await db().session.findUniqueOrThrow({ where: { sessionToken: pending.split('=')[1]! } });
    expect(complete.secondFactorPending).toBe(false);
    expect(complete.expires.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);

    // The same code a second time (another sign-in) is refused: each step counts once.
    const second = (await signIn(user.email, 'correct horse battery staple')).cookie!;
    const replay = await mutate('auth.verifySecondFactor', { code }, second);
    expect(replay.status).toBe(400);
    expect(replay.error?.param).toBe('code');
    // Without a pending session there is nothing to complete.
    const none = await mutate('auth.verifySecondFactor', { code: codeAt(secret, 1) }, null);
    expect(none.status).toBe(401);
    expect(none.error?.code).toBe('session_missing');

    const actions = await auditActions(org.id, user.id);
    expect(actions.filter((a) => a === 'signin.succeeded')).toHaveLength(2);
    expect(actions.filter((a) => a === 'signin.two_factor_failed')).toHaveLength(2);
    expect(actions.filter((a) => a === 'signin.two_factor_succeeded')).toHaveLength(1);
  });

  it('a recovery code works once, after an e-mail link sign-in too', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const { recoveryCodes } = await withTwoFactor(user);

    const byLink = await signInByLink(user.email);
    const refused = await query('me.get', undefined, byLink);
    expect(refused.error?.code).toBe('second_factor_required');
    const used = await mutate<{ method: string; recovery_codes_left: number }>('auth.verifySecondFactor', { code: recoveryCodes[0] }, byLink);
    expect(used.status).toBe(200);
    expect(used.data).toEqual({ method: 'recovery_code', recovery_codes_left: 9 });
    expect((await query('me.get', undefined, byLink)).status).toBe(200);

    const next = (await signIn(user.email, 'correct horse battery staple')).cookie!;
    const again = await mutate('auth.verifySecondFactor', { code: recoveryCodes[0] }, next);
    expect(again.status).toBe(400);
    expect(again.error?.param).toBe('code');
    const typed = ` ${recoveryCodes[1]!.toUpperCase().replaceAll('-', ' ')} `;
    expect((await mutate('auth.verifySecondFactor', { code: typed }, next)).status).toBe(200);
  });

  it('counts codes in the sign-in limits: past 5 attempts a minute for the account even the right code is refused (429)', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const { secret } = await withTwoFactor(user);
    const pending = (await signIn(user.email, 'correct horse battery staple')).cookie!;
    for (let i = 0; i < 4; i++) {
      expect((await mutate('auth.verifySecondFactor', { code: codeAt(secret, 9) }, pending)).status).toBe(400);
    }
    const blocked = await mutate('auth.verifySecondFactor', { code: codeAt(secret) }, pending);
    expect(blocked.status).toBe(429);
    expect(blocked.error?.code).toBe('rate_limit_exceeded');
    expect((await query('me.get', undefined, pending)).error?.code).toBe('second_factor_required');
  });

  it('new recovery codes replace the old ones (a code of the app is needed) and end the other sessions', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const main = await signedIn(user.email);
    const other = await signedIn(user.email);
    const { secret, recoveryCodes } = await withTwoFactor(user);

    const fresh = await mutate<{ recovery_codes: string[] }>('twoFactor.regenerateRecoveryCodes', { code: codeAt(secret) }, main);
    expect(fresh.status).toBe(200);
    expect(fresh.data.recovery_codes).toHaveLength(10);
    const hashes = (await db().recoveryCode.findMany({ where: { userId: user.id } })).map((r) => r.codeHash);
    expect(hashes.sort()).toEqual(fresh.data.recovery_codes.map(recoveryCodeHash).sort());
    expect(hashes).not.toContain(recoveryCodeHash(recoveryCodes[0]!));
    expect((await query('me.get', undefined, other)).status).toBe(401);
    expect((await query('me.get', undefined, main)).status).toBe(200);
    expect(await auditActions(org.id, user.id)).toContain('two_factor.recovery_codes_regenerated');
  });

  it('turning it off takes a current code (a recovery code will do) and ends the other sessions', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'owner');
    const main = await signedIn(user.email);
    const other = await signedIn(user.email);
    const { recoveryCodes } = await withTwoFactor(user);

    const off = await mutate('twoFactor.disable', { code: recoveryCodes[3] }, main);
    expect(off.status).toBe(200);
    expect((await query('twoFactor.status', undefined, main)).data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    const row = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpSecretEncrypted).toBeNull();
    expect(await db().recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect((await query('me.get', undefined, other)).status).toBe(401);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { organizationId: org.id, action: 'two_factor.disabled' } });
    expect(audit.details).toMatchObject({ confirmed_with: 'recovery_code', other_sessions_ended: 1 });
  });
});

describe('two-factor required by an organization', () => {
  it('only an owner with two-factor may require it; members without it are refused until they enrol, in that organization only', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const admin = await createMember(org.id, 'admin');
    const dev = await createMember(org.id, 'developer');
    const elsewhere = await createTestOrg();
    await db().membership.create({ data: { organizationId: elsewhere.id, userId: dev.id, role: 'developer' } });
    const ownerCookie = await signedIn(owner.email);
    const adminCookie = await signedIn(admin.email);
    const devCookie = await signedIn(dev.email);
    const scope = { organizationId: org.id, mode: 'test' as const };

    const byAdmin = await mutate('settings.requireTwoFactor', { ...scope, required: true }, adminCookie);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.error?.code).toBe('permission_denied');
    const without = await mutate('settings.requireTwoFactor', { ...scope, required: true }, ownerCookie);
    expect(without.status).toBe(409);
    expect(without.error).toMatchObject({ code: 'two_factor_not_enabled', param: 'required' });

    await withTwoFactor(owner);
    const required = await mutate<{ require_two_factor: boolean }>('settings.requireTwoFactor', { ...scope, required: true }, ownerCookie);
    expect(required.status).toBe(200);
    expect(required.data.require_two_factor).toBe(true);

    const blocked = await query('overview.get', scope, devCookie);
    expect(blocked.status).toBe(403);
    expect(blocked.error?.code).toBe('two_factor_enrolment_required');
    expect((await query('keys.list', { ...scope, limit: 10 }, adminCookie)).error?.code).toBe('two_factor_enrolment_required');
    expect((await query('overview.get', { organizationId: elsewhere.id, mode: 'test' }, devCookie)).status).toBe(200);
    const me = await query<{ two_factor: { enabled: boolean; required_by: string[] } }>('me.get', undefined, devCookie);
    expect(me.data.two_factor).toEqual({ enabled: false, required_by: [org.id] });

    // Enrolment stays open to them.
    const begun = await mutate<Enrolment>('twoFactor.begin', undefined, devCookie);
    expect((await mutate('twoFactor.confirm', { code: codeAt(begun.data.secret) }, devCookie)).status).toBe(200);
    expect((await query('overview.get', scope, devCookie)).status).toBe(200);
    expect((await query('overview.get', scope, ownerCookie)).status).toBe(200);
    const audit = await db().auditEvent.findFirst({ where: { organizationId: org.id, action: 'organization.two_factor_requirement_changed' } });
    expect(audit).toMatchObject({ actorUserId: owner.id, details: { required: true } });
  });
});

describe('sessions', () => {
  it('lists the user’s sessions (device, IP, last seen, this one marked), ends one or all others, never another user’s', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const stranger = await createMember(org.id, 'developer', uniqueEmail('stranger'));
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
    const here = (await signIn(user.email, 'correct horse battery staple', '198.51.100.7', baseUrl, { 'user-agent': firefox })).cookie!;
    const phone = (await signIn(user.email, 'correct horse battery staple', '198.51.100.8', baseUrl, { 'user-agent': iphone })).cookie!;
    const third = (await signIn(user.email, 'correct horse battery staple', '198.51.100.9', baseUrl, { 'user-agent': 'curl/8.5.0' })).cookie!;
    const strangerCookie = await signedIn(stranger.email);

    interface SessionRow {
      id: string;
      device: string;
      ip: string | null;
      current: boolean;
      last_seen_at: number | null;
      pending_second_factor: boolean;
    }
    const list = await query<{ data: SessionRow[] }>('sessions.list', undefined, here);
    expect(list.status).toBe(200);
    expect(list.data.data).toHaveLength(3);
    const byIp = new Map(list.data.data.map((s) => [s.ip, s]));
    expect(byIp.get('198.51.100.7')).toMatchObject({ device: 'Firefox 133 on Linux', current: true, pending_second_factor: false });
    expect(byIp.get('198.51.100.8')).toMatchObject({ device: 'Safari 18 on iOS', current: false });
    expect(byIp.get('198.51.100.9')).toMatchObject({ device: 'curl 8', current: false });
    for (const s of list.data.data) expect(s.last_seen_at).toBeGreaterThan(Date.now() / 1000 - 300);
    const raw = JSON.stringify(list.data);
    for (const cookie of [here, phone, third]) expect(raw).not.toContain(cookie.split('=')[1]);

    const phoneId = byIp.get('198.51.100.8')!.id;
    const foreign = await mutate('sessions.end', { sessionId: phoneId }, strangerCookie);
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'resource_not_found', param: 'sessionId' });
    expect((await query('me.get', undefined, phone)).status).toBe(200);
    const own = await mutate('sessions.end', { sessionId: byIp.get('198.51.100.7')!.id }, here);
    expect(own.status).toBe(404);

    expect((await mutate('sessions.end', { sessionId: phoneId }, here)).status).toBe(200);
    expect((await query('me.get', undefined, phone)).status).toBe(401);
    expect((await query<{ data: SessionRow[] }>('sessions.list', undefined, here)).data.data).toHaveLength(2);

    const others = await mutate<{ ended: number }>('sessions.endOthers', undefined, here);
    expect(others.data).toEqual({ ended: 1 });
    expect((await query('me.get', undefined, third)).status).toBe(401);
    expect((await query('me.get', undefined, here)).status).toBe(200);
    expect((await query('me.get', undefined, strangerCookie)).status).toBe(200);

    const actions = await auditActions(org.id, user.id);
    expect(actions).toContain('session.ended');
    expect(actions).toContain('session.ended_others');
  });

  it('lists a session waiting for its second factor as such (someone knows the password)', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const { secret } = await withTwoFactor(user);
    const mine = (await signIn(user.email, 'correct horse battery staple')).cookie!;
    expect((await mutate('auth.verifySecondFactor', { code: codeAt(secret) }, mine)).status).toBe(200);
    await signIn(user.email, 'correct horse battery staple', '192.0.2.44');
    const list = await query<{ data: { ip: string; pending_second_factor: boolean }[] }>('sessions.list', undefined, mine);
    expect(list.data.data.find((s) => s.ip === '192.0.2.44')?.pending_second_factor).toBe(true);
  });
});
