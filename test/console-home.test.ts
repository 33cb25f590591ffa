// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Where a signed-in user lands without a way in: `/` is decided on the server (signed out →
 * sign-in; a member → their first organization; nobody's member → /no-organization, never
 * sign-up, which refuses their address), and an organization they are not (or no longer) a
 * member of says so with the way on (their organizations, sign out), revealing nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { baseUrl, createTestOrg } from './support';
import { createMember, mutate, PASSWORD, signedIn, signIn } from './console-support';
import { withTwoFactor } from './two-factor-support';

async function page(path: string, cookie?: string) {
  const res = await fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

describe('/ and the pages of a user without that organization', () => {
  it('/ signed out: 307 to /sign-in, decided on the server', async () => {
    const res = await page('/');
    expect(res.status).toBe(307);
    expect(res.location).toBe('/sign-in');
  });

  it('/ for a member: their first organization’s test-mode overview', async () => {
    const org = await createTestOrg();
    const member = await createMember(org.id, 'developer');
    const res = await page('/', await signedIn(member.email));
    expect(res.status).toBe(307);
    expect(res.location).toBe(`/o/${org.id}/test/overview`);
  });

  it('/ for a session waiting for its second factor: 307 to the code step, not sign-in nor an organization', async () => {
    const org = await createTestOrg();
    const member = await createMember(org.id, 'developer');
    await withTwoFactor(member);
    const pending = (await signIn(member.email, PASSWORD)).cookie!;
    const res = await page('/', pending);
    expect(res.status).toBe(307);
    expect(res.location).toBe('/sign-in/two-factor');
  });

  it('a member removed from their only organization: / goes to /no-organization, which says so and offers sign-out', async () => {
    const org = await createTestOrg();
    const leaver = await createMember(org.id, 'developer');
    const cookie = await signedIn(leaver.email);
    await db().membership.delete({ where: { organizationId_userId: { organizationId: org.id, userId: leaver.id } } });

    const home = await page('/', cookie);
    expect(home.status).toBe(307);
    expect(home.location).toBe('/no-organization');
    const none = await page('/no-organization', cookie);
    expect(none.status).toBe(200);
    expect(none.body).toContain('You are not a member of any organization');
    expect(none.body).toContain('Sign out');
    expect(none.body).not.toContain('/sign-up');

    // The organization's own pages: what happened, and the way out; nothing of the organization.
    const screen = await page(`/o/${org.id}/test/keys`, cookie);
    expect(screen.status).toBe(200);
    expect(screen.body).toContain('You are not a member of this organization');
    expect(screen.body).toContain('Sign out');
    expect(screen.body).not.toContain('Test org');
    expect(screen.body).not.toContain('Create key');
  });

  it('a user with other organizations is offered them; /no-organization sends them there', async () => {
    const [mine, theirs] = [await createTestOrg({ name: 'My studio' }), await createTestOrg({ name: 'Their studio' })];
    const user = await createMember(mine.id, 'admin');
    const cookie = await signedIn(user.email);
    const foreign = await page(`/o/${theirs.id}/live/overview`, cookie);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toContain('You are not a member of this organization');
    expect(foreign.body).toContain(`/o/${mine.id}/live/overview`);
    expect(foreign.body).toContain('My studio');
    expect(foreign.body).not.toContain('Their studio');
    const none = await page('/no-organization', cookie);
    expect(none.status).toBe(307);
    expect(none.location).toBe(`/o/${mine.id}/test/overview`);
  });

  it('a user without an organization opens one of their own (open sign-up) and lands there; names are checked; sessions only', async () => {
    const org = await createTestOrg();
    const leaver = await createMember(org.id, 'developer');
    const cookie = await signedIn(leaver.email);
    await db().membership.delete({ where: { organizationId_userId: { organizationId: org.id, userId: leaver.id } } });
    const linkName = await mutate('organizations.create', { name: 'Visit https://evil.example' }, cookie);
    expect(linkName.status).toBe(400);
    expect(linkName.error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    expect((await mutate('organizations.create', { name: 'Leaver Studio' }, null)).status).toBe(401);
    const created = await mutate<{ id: string }>('organizations.create', { name: 'Leaver Studio' }, cookie);
    expect(created.status).toBe(200);
    const membership = await db().membership.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: created.data.id, userId: leaver.id } }, include: { organization: true } });
    expect(membership).toMatchObject({ role: 'owner', organization: { name: 'Leaver Studio', tier: 1, balanceCents: 0 } });
    const home = await page('/', cookie);
    expect(home.location).toBe(`/o/${created.data.id}/test/overview`);
  });

  it('/no-organization signed out: to sign-in, coming back there', async () => {
    const res = await page('/no-organization');
    expect(res.status).toBe(307);
    expect(res.location).toBe(`/sign-in?callbackUrl=${encodeURIComponent('/no-organization')}`);
  });
});
