// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Organizations and invitations from the console: a user creates another organization; a
 * pending invitation is resent (new link, the old one ends) or its link copied. The copied link
 * is not the mailed one: it admits only an already confirmed account of the invited address, so
 * an inviter holding it cannot open an account in the invitee's name.
 */
import { describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { ORGANIZATIONS_PER_USER_PER_DAY } from '@/server/capabilities/orgs/create-my-organization';
import { createTestOrg, testIp } from './support';
import { createMember, lastMailTo, linkIn, mutate, PASSWORD, query, signedIn, uniqueEmail } from './console-support';

const ip = testIp();

describe('creating another organization', () => {
  it('a signed-in user creates one and owns it; it has no credit and appears among theirs', async () => {
    const org = await createTestOrg();
    const dev = await createMember(org.id, 'developer');
    const cookie = await signedIn(dev.email);
    const created = await mutate<{ id: string; name: string }>('organizations.create', { name: '  Second studio ' }, cookie);
    expect(created.status, JSON.stringify(created)).toBe(200);
    expect(created.data.name).toBe('Second studio');
    const me = await query<{ organizations: { id: string; role: string }[] }>('me.get', undefined, cookie);
    expect(me.data.organizations).toEqual(expect.arrayContaining([{ id: org.id, name: 'Test org', role: 'developer' }, { id: created.data.id, name: 'Second studio', role: 'owner' }]));
    expect((await db().organization.findUniqueOrThrow({ where: { id: created.data.id } })).balanceCents).toBe(0);
    // Owner there, so the owner's screens answer.
    expect((await query('billing.get', { organizationId: created.data.id, mode: 'test' }, cookie)).status).toBe(200);
    // In the new organization's audit log, by its creator.
    const audit = await db().auditEvent.findMany({ where: { organizationId: created.data.id } });
    expect(audit.map((a) => [a.action, a.actorUserId, a.targetId])).toEqual([['organization.created', dev.id, created.data.id]]);
  });

  it('refuses a bad name (param name), a signed-out caller, an unconfirmed address, and more than the daily number', async () => {
    const org = await createTestOrg();
    const user = await createMember(org.id, 'developer');
    const cookie = await signedIn(user.email);
    const bad = await mutate('organizations.create', { name: '' }, cookie);
    expect(bad.httpStatus).toBe(400);
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    const signedOut = await mutate('organizations.create', { name: 'Nope' }, null);
    expect(signedOut.httpStatus).toBe(401);

    await db().user.update({ where: { id: user.id }, data: { emailVerified: null } });
    const unverified = await mutate('organizations.create', { name: 'Unverified' }, cookie);
    expect(unverified.error).toMatchObject({ code: 'email_unverified' });
    await db().user.update({ where: { id: user.id }, data: { emailVerified: new Date() } });

    // One through the procedure, the rest of the day's number owned already (creating them here
    // would meet the sign-up attempt limit per minute first, which the same call also applies).
    expect((await mutate('organizations.create', { name: 'Org 0' }, cookie)).status).toBe(200);
    for (let i = 1; i < ORGANIZATIONS_PER_USER_PER_DAY; i++) {
      const owned = await createTestOrg();
      await db().membership.create({ data: { organizationId: owned.id, userId: user.id, role: 'owner', createdAt: new Date() } });
    }
    const limited = await mutate('organizations.create', { name: 'One too many' }, cookie);
    expect(limited.httpStatus).toBe(429);
    expect(limited.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(limited.error?.message).toMatch(/a day/);
    expect(await db().membership.count({ where: { userId: user.id, role: 'owner' } })).toBe(ORGANIZATIONS_PER_USER_PER_DAY);
  });
});

async function invite(orgId: string, cookie: string, email: string, role = 'developer'): Promise<{ id: string; token: string }> {
  const sent = await mutate<{ id: string }>('members.invite', { organizationId: orgId, mode: 'test', email, role }, cookie);
  expect(sent.status, JSON.stringify(sent)).toBe(200);
  const link = linkIn((await lastMailTo(email, 'Invitation to join')).body, '/invitations/');
  return { id: sent.data.id, token: link.split('/').pop()! };
}

const preview = (token: string) => query<{ link: string; email: string }>('invitations.get', { token }, null);

describe('resending an invitation', () => {
  it('mails a new link valid 7 days; the previous link stops working', async () => {
    const org = await createTestOrg();
    const admin = await createMember(org.id, 'admin');
    const cookie = await signedIn(admin.email);
    const email = uniqueEmail('invitee');
    const first = await invite(org.id, cookie, email);
    const resent = await mutate<{ id: string; email: string }>('members.resendInvitation', { organizationId: org.id, mode: 'test', invitationId: first.id }, cookie);
    expect(resent.status, JSON.stringify(resent)).toBe(200);
    expect(resent.data.email).toBe(email);
    expect(resent.data.id).not.toBe(first.id);
    const token = linkIn((await lastMailTo(email, 'Invitation to join')).body, '/invitations/').split('/').pop()!;
    expect(token).not.toBe(first.token);
    expect((await preview(first.token)).error).toMatchObject({ code: 'invitation_invalid' });
    expect((await preview(token)).data).toMatchObject({ email, link: 'mailed' });
    const pending = await query<{ data: { id: string }[] }>('members.invitations', { organizationId: org.id, mode: 'test' }, cookie);
    expect(pending.data.data.map((i) => i.id)).toEqual([resent.data.id]);
  });

  it("a developer cannot resend (403); another organization's admin finds nothing (404)", async () => {
    const org = await createTestOrg();
    const admin = await createMember(org.id, 'admin');
    const first = await invite(org.id, await signedIn(admin.email), uniqueEmail('invitee'));
    const dev = await createMember(org.id, 'developer');
    const asDev = await mutate('members.resendInvitation', { organizationId: org.id, mode: 'test', invitationId: first.id }, await signedIn(dev.email));
    expect(asDev.httpStatus).toBe(403);
    const other = await createTestOrg();
    const stranger = await createMember(other.id, 'admin');
    const asStranger = await mutate('members.resendInvitation', { organizationId: other.id, mode: 'test', invitationId: first.id }, await signedIn(stranger.email));
    expect(asStranger.httpStatus).toBe(404);
    expect(asStranger.error).toMatchObject({ code: 'resource_not_found', param: 'invitationId' });
  });
});

describe('copying an invitation link', () => {
  it('gives a link that shows the invitation but cannot open an account in the invitee’s name', async () => {
    const org = await createTestOrg();
    const admin = await createMember(org.id, 'admin');
    const cookie = await signedIn(admin.email);
    const email = uniqueEmail('invitee');
    const mailed = await invite(org.id, cookie, email);
    const copied = await mutate<{ url: string }>('members.invitationLink', { organizationId: org.id, mode: 'test', invitationId: mailed.id }, cookie);
    expect(copied.status, JSON.stringify(copied)).toBe(200);
    const shared = copied.data.url.split('/').pop()!;
    expect(shared).not.toBe(mailed.token);
    expect((await preview(shared)).data).toMatchObject({ email, link: 'shared' });

    // The inviter (or whoever they gave it to) tries to sign up as the invitee through it.
    const attempt = await mutate('auth.signUp', { email, password: PASSWORD, invitationToken: shared }, null, { headers: { 'x-forwarded-for': ip } });
    expect(attempt.httpStatus).toBe(403);
    expect(attempt.error).toMatchObject({ code: 'permission_denied', param: 'invitationToken' });
    expect(await db().user.findUnique({ where: { email } })).toBeNull();

    // The mailed link still signs the invitee up (it proves the address).
    const joined = await mutate<{ status: string }>('auth.signUp', { email, password: PASSWORD, invitationToken: mailed.token }, null, { headers: { 'x-forwarded-for': ip } });
    expect(joined.data).toMatchObject({ status: 'joined' });
  });

  it('admits a confirmed account of the invited address only; a new copy or a revocation ends it', async () => {
    const org = await createTestOrg();
    const admin = await createMember(org.id, 'admin');
    const cookie = await signedIn(admin.email);
    const elsewhere = await createTestOrg();
    const invitee = await createMember(elsewhere.id, 'developer');
    const mailed = await invite(org.id, cookie, invitee.email);
    const link = async () => (await mutate<{ url: string }>('members.invitationLink', { organizationId: org.id, mode: 'test', invitationId: mailed.id }, cookie)).data.url.split('/').pop()!;
    const old = await link();
    const shared = await link();
    expect((await preview(old)).error).toMatchObject({ code: 'invitation_invalid' });

    const someoneElse = await createMember(elsewhere.id, 'developer');
    const wrong = await mutate('invitations.accept', { token: shared }, await signedIn(someoneElse.email));
    expect(wrong.httpStatus).toBe(403);
    const inviteeCookie = await signedIn(invitee.email);
    await db().user.update({ where: { id: invitee.id }, data: { emailVerified: null } });
    expect((await mutate('invitations.accept', { token: shared }, inviteeCookie)).error).toMatchObject({ code: 'email_unverified' });
    await db().user.update({ where: { id: invitee.id }, data: { emailVerified: new Date() } });
    const accepted = await mutate<{ organization_id: string; role: string }>('invitations.accept', { token: shared }, inviteeCookie);
    expect(accepted.data).toEqual({ organization_id: org.id, role: 'developer' });

    const second = await invite(org.id, cookie, uniqueEmail('invitee'));
    const secondLink = (await mutate<{ url: string }>('members.invitationLink', { organizationId: org.id, mode: 'test', invitationId: second.id }, cookie)).data.url.split('/').pop()!;
    await mutate('members.revokeInvitation', { organizationId: org.id, mode: 'test', invitationId: second.id }, cookie);
    expect((await preview(secondLink)).error).toMatchObject({ code: 'invitation_invalid' });
  });

  it("a developer cannot copy links; an admin cannot copy an owner invitation's link; other organizations find nothing", async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const ownerInvite = await invite(org.id, await signedIn(owner.email), uniqueEmail('future-owner'), 'owner');
    const admin = await createMember(org.id, 'admin');
    const asAdmin = await mutate('members.invitationLink', { organizationId: org.id, mode: 'test', invitationId: ownerInvite.id }, await signedIn(admin.email));
    expect(asAdmin.httpStatus).toBe(403);
    const dev = await createMember(org.id, 'developer');
    expect((await mutate('members.invitationLink', { organizationId: org.id, mode: 'test', invitationId: ownerInvite.id }, await signedIn(dev.email))).httpStatus).toBe(403);
    const other = await createTestOrg();
    const stranger = await createMember(other.id, 'owner');
    const asStranger = await mutate('members.invitationLink', { organizationId: other.id, mode: 'test', invitationId: ownerInvite.id }, await signedIn(stranger.email));
    expect(asStranger.httpStatus).toBe(404);
    expect(await db().invitation.findUniqueOrThrow({ where: { id: ownerInvite.id } })).toMatchObject({ shareTokenHash: null });
  });
});
