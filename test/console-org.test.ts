// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
import { grantCredit } from '@/server/capabilities/billing/ledger';
import { describe, expect, it } from 'vitest';
import { db, transaction } from '@/server/platform/db';
import { flushRequestLog } from '@/server/capabilities/requestlog/requestlog';
import { api, createTestOrg } from './support';
import { insertGeneration } from './fixtures';
import { waitFor } from './server-processes';
import { createMember, mutate, PASSWORD, query, signedIn, signIn, uniqueEmail } from './console-support';

type Page<T> = { data: T[]; next_cursor: string | null };
interface LogLine {
  id: string;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  api_key: { id: string } | null;
}

/** Log lines are written in batches (250 ms); wait until the line with this id is there. */
/** Each web process writes its log lines in batches of its own: wait for every line asked for. */
async function waitForLogLines(...requestIds: string[]): Promise<void> {
  await flushRequestLog();
  await waitFor(`log lines ${requestIds.join(', ')}`, async () => (await db().requestLog.count({ where: { id: { in: requestIds } } })) === requestIds.length, 30_000);
}

async function ownerOf(name = 'Org') {
  const org = await createTestOrg({ name, tier: 1 });
  const owner = await createMember(org.id, 'owner');
  return { org, owner, cookie: await signedIn(owner.email) };
}

describe('roles and scoping', () => {
  it('applies the roles matrix per procedure and hides organizations the user is not a member of', async () => {
    const { org, cookie: ownerCookie } = await ownerOf();
    const admin = await createMember(org.id, 'admin');
    const developer = await createMember(org.id, 'developer');
    const adminCookie = await signedIn(admin.email);
    const devCookie = await signedIn(developer.email);
    const scope = { organizationId: org.id, mode: 'test' };

    for (const path of ['overview.get', 'settings.get', 'logs.list', 'generations.list', 'keys.list', 'outbox.list']) {
      expect((await query(path, scope, devCookie)).status, path).toBe(200);
    }
    expect((await query('usage.get', { ...scope, days: 7 }, devCookie)).status).toBe(200);
    for (const path of ['billing.get', 'billing.transactions', 'members.list', 'members.invitations']) {
      const refused = await query(path, scope, devCookie);
      expect(refused.status, path).toBe(403);
      expect(refused.error?.code).toBe('permission_denied');
      expect((await query(path, scope, adminCookie)).status, path).toBe(200);
      expect((await query(path, scope, ownerCookie)).status, path).toBe(200);
    }
    const rename = await mutate('settings.rename', { ...scope, name: 'Renamed' }, devCookie);
    expect(rename.status).toBe(403);
    expect((await mutate('settings.rename', { ...scope, name: 'Renamed' }, adminCookie)).status).toBe(200);

    const stranger = await ownerOf('Other org');
    const hidden = await query('overview.get', scope, stranger.cookie);
    expect(hidden.status).toBe(404);
    expect(hidden.error).toMatchObject({ code: 'resource_not_found', param: 'organizationId' });
    const noSession = await query('overview.get', scope, null);
    expect(noSession.status).toBe(401);
  });

  it("never shows another organization's or the other mode's keys, logs or generations", async () => {
    const a = await ownerOf('A');
    const b = await ownerOf('B');
    const genB = await insertGeneration({ organizationId: b.org.id, mode: 'test', status: 'succeeded' });
    const genALive = await insertGeneration({ organizationId: a.org.id, mode: 'live', status: 'succeeded' });
    const genATest = await insertGeneration({ organizationId: a.org.id, mode: 'test', status: 'succeeded' });
    const bCall = await api(`/v1/generations/${genB.id}`, { key: b.org.testKey });
    const aLiveCall = await api('/v1/generations', { key: a.org.liveKey });
    await waitForLogLines(bCall.headers.get('request-id')!);
    await waitForLogLines(aLiveCall.headers.get('request-id')!);

    const testScope = { organizationId: a.org.id, mode: 'test' };
    const gens = await query<Page<{ id: string }>>('generations.list', testScope, a.cookie);
    expect(gens.data.data.map((g) => g.id)).toEqual([genATest.id]);
    const liveGens = await query<Page<{ id: string }>>('generations.list', { ...testScope, mode: 'live' }, a.cookie);
    expect(liveGens.data.data.map((g) => g.id)).toEqual([genALive.id]);
    expect((await query('generations.get', { ...testScope, id: genB.id }, a.cookie)).status).toBe(404);
    expect((await query('generations.get', { ...testScope, id: genALive.id }, a.cookie)).status).toBe(404);

    const testLog = await query<Page<LogLine>>('logs.list', testScope, a.cookie);
    expect(testLog.data.data).toEqual([]);
    const liveLog = await query<Page<LogLine>>('logs.list', { ...testScope, mode: 'live' }, a.cookie);
    expect(liveLog.data.data.map((l) => l.id)).toEqual([aLiveCall.headers.get('request-id')]);
    expect((await query('logs.get', { ...testScope, mode: 'live', id: bCall.headers.get('request-id') }, a.cookie)).status).toBe(404);

    const keys = await query<Page<{ id: string; mode: string }>>('keys.list', testScope, a.cookie);
    expect(keys.data.data.map((k) => k.id)).toEqual([a.org.keyIds.test]);
    const revokeOther = await mutate('keys.revoke', { ...testScope, keyId: b.org.keyIds.test }, a.cookie);
    expect(revokeOther.status).toBe(404);
    const revokeOtherMode = await mutate('keys.revoke', { ...testScope, keyId: a.org.keyIds.live }, a.cookie);
    expect(revokeOtherMode.status).toBe(404);
    expect((await api('/v1/generations', { key: b.org.testKey })).status).toBe(200);
  });
});

describe('API keys and the request log', () => {
  it('creates a key (secret once) that works on /v1, logs its calls, finds a failed one by request-id, and revokes it (401 at once)', async () => {
    const { org, cookie } = await ownerOf();
    const scope = { organizationId: org.id, mode: 'live' };
    const created = await mutate<{ id: string; secret: string; mode: string; permissions: string[] }>(
      'keys.create',
      { ...scope, name: 'Server', permissions: ['generations_read', 'upscales'] },
      cookie,
    );
    expect(created.status).toBe(200);
    expect(created.data.secret).toMatch(/^rt_live_[0-9A-Za-z]{40}$/);
    expect(created.data.permissions).toEqual(['generations_read', 'upscales']);
    const listed = await query<Page<Record<string, unknown>>>('keys.list', scope, cookie);
    const row = listed.data.data.find((k) => k.id === created.data.id)!;
    expect(row).toMatchObject({ name: 'Server', created_by: expect.any(String), can_revoke: true });
    expect(JSON.stringify(listed.data)).not.toContain(created.data.secret);

    const ok = await api('/v1/generations', { key: created.data.secret });
    expect(ok.status).toBe(200);
    const failed = await api('/v1/generations/gen_doesnotexist', { key: created.data.secret });
    expect(failed.status).toBe(404);
    const failedId = failed.headers.get('request-id')!;
    await waitForLogLines(failedId);

    const found = await query<Page<LogLine>>('logs.list', { ...scope, requestId: failedId }, cookie);
    expect(found.data.data).toHaveLength(1);
    expect(found.data.data[0]).toMatchObject({ id: failedId, method: 'GET', path: '/v1/generations/gen_doesnotexist', status: 404, error_code: 'resource_not_found', api_key: { id: created.data.id } });
    const detail = await query<{ error_message: string; generation_id: string | null; ip: string | null }>('logs.get', { ...scope, id: failedId }, cookie);
    expect(detail.data.error_message).toContain('gen_doesnotexist');
    expect(detail.data.generation_id).toBeNull();
    const errorsOnly = await query<Page<LogLine>>('logs.list', { ...scope, statusClass: '4xx', apiKeyId: created.data.id }, cookie);
    expect(errorsOnly.data.data.map((l) => l.id)).toEqual([failedId]);
    const overview = await query<{ recent_errors: { error_code: string; path: string; sample_request_id: string; count: number }[] }>('overview.get', scope, cookie);
    expect(overview.data.recent_errors[0]).toMatchObject({ error_code: 'resource_not_found', path: '/v1/generations/gen_doesnotexist', sample_request_id: failedId, count: 1 });

    const revoked = await mutate('keys.revoke', { ...scope, keyId: created.data.id }, cookie);
    expect(revoked.status).toBe(200);
    const after = await api('/v1/generations', { key: created.data.secret });
    expect(after.status).toBe(401);
    expect((after.body as { error: { code: string } }).error.code).toBe('api_key_invalid');
  });

  it('links a log line to the generation its request created, and pages the log with a cursor, newest first', async () => {
    const { org, cookie } = await ownerOf();
    const scope = { organizationId: org.id, mode: 'test' };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api('/v1/generations?limit=1', { key: org.testKey });
      ids.push(res.headers.get('request-id')!);
    }
    await waitForLogLines(...ids);
    const first = await query<Page<LogLine>>('logs.list', { ...scope, limit: 2 }, cookie);
    expect(first.data.data.map((l) => l.id)).toEqual([ids[4], ids[3]]);
    const second = await query<Page<LogLine>>('logs.list', { ...scope, limit: 2, cursor: first.data.next_cursor }, cookie);
    expect(second.data.data.map((l) => l.id)).toEqual([ids[2], ids[1]]);
    const third = await query<Page<LogLine>>('logs.list', { ...scope, limit: 2, cursor: second.data.next_cursor }, cookie);
    expect(third.data.data.map((l) => l.id)).toEqual([ids[0]]);
    expect(third.data.next_cursor).toBeNull();

    const generation = await insertGeneration({ organizationId: org.id, mode: 'test', status: 'succeeded' });
    await db().generation.update({ where: { id: generation.id }, data: { requestId: ids[0] } });
    const detail = await query<{ generation_id: string | null }>('logs.get', { ...scope, id: ids[0] }, cookie);
    expect(detail.data.generation_id).toBe(generation.id);
  });

  it('lets a developer create keys and revoke only their own', async () => {
    const { org, cookie: ownerCookie } = await ownerOf();
    const developer = await createMember(org.id, 'developer');
    const devCookie = await signedIn(developer.email);
    const scope = { organizationId: org.id, mode: 'test' };
    const own = await mutate<{ id: string }>('keys.create', { ...scope, name: 'Mine', permissions: ['renders'] }, devCookie);
    expect(own.status).toBe(200);
    const ownersKey = await mutate<{ id: string }>('keys.create', { ...scope, name: 'Owner', permissions: ['renders'] }, ownerCookie);
    const listed = await query<Page<{ id: string; can_revoke: boolean }>>('keys.list', scope, devCookie);
    expect(listed.data.data.find((k) => k.id === ownersKey.data.id)?.can_revoke).toBe(false);
    const refused = await mutate('keys.revoke', { ...scope, keyId: ownersKey.data.id }, devCookie);
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe('permission_denied');
    expect((await mutate('keys.revoke', { ...scope, keyId: own.data.id }, devCookie)).status).toBe(200);
    expect((await mutate('keys.revoke', { ...scope, keyId: ownersKey.data.id }, ownerCookie)).status).toBe(200);
  });
});

describe('members and invitations', () => {
  it('invites by e-mail; a new person signs up through the invitation and an existing user accepts it; each gets the invited role', async () => {
    const { org, owner, cookie } = await ownerOf('Inviting org');
    const scope = { organizationId: org.id, mode: 'test' };
    const newcomer = uniqueEmail('newcomer');
    const invited = await mutate<{ id: string; role: string }>('members.invite', { ...scope, email: newcomer, role: 'developer' }, cookie);
    expect(invited.status).toBe(200);
    const mail = await db().mailOutbox.findFirstOrThrow({ where: { to: newcomer }, orderBy: { createdAt: 'desc' } });
    const token = /\/invitations\/([0-9A-Za-z]+)/.exec(mail.body)![1]!;
    const preview = await query<{ organization: { name: string }; role: string; status: string; account_exists: boolean; invited_by: string }>('invitations.get', { token }, null);
    expect(preview.data).toMatchObject({ organization: { name: 'Inviting org' }, role: 'developer', status: 'pending', account_exists: false, invited_by: owner.email });
    // The invitation reaches the invitee's mailbox only, never the inviter's console.
    const outbox = await query<{ enabled: boolean; data: { to: string }[] }>('outbox.list', scope, cookie);
    expect(outbox.data.enabled).toBe(true);
    expect(outbox.data.data.map((m) => m.to)).not.toContain(newcomer);

    const joined = await mutate('auth.signUp', { email: newcomer, password: PASSWORD, invitationToken: token }, null);
    expect(joined.data).toEqual({ status: 'joined', organization_id: org.id, role: 'developer' });
    const newcomerCookie = await signedIn(newcomer);
    const me = await query<{ organizations: { id: string; role: string }[] }>('me.get', undefined, newcomerCookie);
    expect(me.data.organizations).toEqual([{ id: org.id, name: 'Inviting org', role: 'developer' }]);
    expect((await query('members.list', scope, newcomerCookie)).status).toBe(403);
    const reused = await mutate('invitations.accept', { token }, newcomerCookie);
    expect(reused.status).toBe(409);

    // An existing user of another organization accepts with their session.
    const other = await ownerOf('Elsewhere');
    const invited2 = await mutate('members.invite', { ...scope, email: other.owner.email, role: 'admin' }, cookie);
    expect(invited2.status).toBe(200);
    const mail2 = await db().mailOutbox.findFirstOrThrow({ where: { to: other.owner.email }, orderBy: { createdAt: 'desc' } });
    const token2 = /\/invitations\/([0-9A-Za-z]+)/.exec(mail2.body)![1]!;
    expect((await mutate('invitations.accept', { token: token2 }, newcomerCookie)).error?.code).toBe('permission_denied');
    const accepted = await mutate('invitations.accept', { token: token2 }, other.cookie);
    expect(accepted.data).toEqual({ organization_id: org.id, role: 'admin' });
    const members = await query<Page<{ email: string; role: string }>>('members.list', scope, cookie);
    expect(members.data.data.map((m) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [newcomer, 'developer'],
      [other.owner.email, 'admin'],
    ]);
    const again = await mutate('members.invite', { ...scope, email: newcomer, role: 'admin' }, cookie);
    expect(again.error).toMatchObject({ code: 'already_member', param: 'email' });
  });

  it('keeps at least one owner, and only owners grant or take away the owner role', async () => {
    const { org, owner, cookie } = await ownerOf();
    const admin = await createMember(org.id, 'admin');
    const adminCookie = await signedIn(admin.email);
    const scope = { organizationId: org.id, mode: 'test' };

    const demoteLast = await mutate('members.updateRole', { ...scope, userId: owner.id, role: 'admin' }, cookie);
    expect(demoteLast.status).toBe(409);
    expect(demoteLast.error?.code).toBe('last_owner');
    const removeLast = await mutate('members.remove', { ...scope, userId: owner.id }, cookie);
    expect(removeLast.error?.code).toBe('last_owner');

    expect((await mutate('members.updateRole', { ...scope, userId: admin.id, role: 'owner' }, adminCookie)).error?.code).toBe('permission_denied');
    expect((await mutate('members.remove', { ...scope, userId: owner.id }, adminCookie)).error?.code).toBe('permission_denied');
    expect((await mutate('members.invite', { ...scope, email: uniqueEmail('x'), role: 'owner' }, adminCookie)).error).toMatchObject({ code: 'permission_denied', param: 'role' });

    expect((await mutate('members.updateRole', { ...scope, userId: admin.id, role: 'owner' }, cookie)).status).toBe(200);
    const removed = await mutate('members.remove', { ...scope, userId: owner.id }, adminCookie);
    expect(removed.status).toBe(200);
    expect(await db().membership.count({ where: { organizationId: org.id, role: 'owner' } })).toBe(1);
    expect((await query('overview.get', scope, cookie)).status).toBe(404);
    expect((await signIn(owner.email, PASSWORD)).cookie).not.toBeNull();
  });
});

describe('overview: getting started', () => {
  type GettingStarted = { complete: boolean; steps: Record<string, boolean>; test_key_prefix: string | null; base_url: string };
  const stepsOf = async (scope: { organizationId: string; mode: string }, cookie: string) =>
    (await query<{ getting_started: GettingStarted }>('overview.get', scope, cookie)).data.getting_started;

  it('ticks each step from the organization’s own state, not another’s', async () => {
    const org = await createTestOrg({ name: 'New', tier: 1, credit: 0 });
    const cookie = await signedIn((await createMember(org.id, 'owner')).email);
    const other = await ownerOf('Busy neighbour');
    const scope = { organizationId: org.id, mode: 'test' };
    const none = { create_key: true, first_call: false, playground: false, webhook: false, add_credit: false, go_live: false };

    const first = await stepsOf(scope, cookie);
    expect(first.steps).toEqual(none); // createTestOrg made its keys
    expect(first.complete).toBe(false);
    expect(org.testKey.startsWith(first.test_key_prefix!)).toBe(true);
    expect(first.test_key_prefix).toMatch(/^rt_test_/);
    expect(first.base_url).toMatch(/^https?:\/\/[^/]+$/);

    // The neighbour's calls, playground runs, credit and endpoints tick nothing here.
    const theirCall = await api('/v1/styles', { key: other.org.liveKey });
    expect(theirCall.status).toBe(200);
    const theirs = await insertGeneration({ organizationId: other.org.id, mode: 'test', type: 'upscale', status: 'succeeded' });
    await db().generation.update({ where: { id: theirs.id }, data: { channel: 'console' } });
    await waitForLogLines(theirCall.headers.get('request-id')!);
    expect((await stepsOf(scope, cookie)).steps).toEqual(none);

    // An API generation is not the playground; a console one is.
    const viaApi = await insertGeneration({ organizationId: org.id, mode: 'test', type: 'upscale', status: 'succeeded' });
    expect((await stepsOf(scope, cookie)).steps.playground).toBe(false);
    await db().generation.update({ where: { id: viaApi.id }, data: { channel: 'console' } });
    expect((await stepsOf(scope, cookie)).steps.playground).toBe(true);

    await transaction((tx) => grantCredit(tx, org.id, 1_000));
    expect((await stepsOf(scope, cookie)).steps.add_credit).toBe(true);

    const testCall = await api('/v1/styles', { key: org.testKey });
    expect(testCall.status).toBe(200);
    await waitForLogLines(testCall.headers.get('request-id')!);
    const afterTest = await stepsOf(scope, cookie);
    expect(afterTest.steps).toMatchObject({ first_call: true, go_live: false });
    const liveCall = await api('/v1/styles', { key: org.liveKey });
    expect(liveCall.status).toBe(200);
    await waitForLogLines(liveCall.headers.get('request-id')!);
    expect((await stepsOf(scope, cookie)).steps.go_live).toBe(true);

    const endpoint = await mutate('webhooks.create', { ...scope, url: 'https://127.0.0.1/getting-started', events: ['generation.succeeded'] }, cookie);
    expect(endpoint.status).toBe(200);
    const done = await stepsOf({ ...scope, mode: 'live' }, cookie);
    expect(done.steps).toEqual({ create_key: true, first_call: true, playground: true, webhook: true, add_credit: true, go_live: true });
    expect(done.complete).toBe(true);
  });
});

describe('overview, generations, usage and billing', () => {
  it('reads seeded data: generations today by status, usage per day, spend, ledger rows, cancel', async () => {
    const { org, cookie } = await ownerOf();
    const live = { organizationId: org.id, mode: 'live' };
    const yesterday = new Date(Date.now() - 86_400_000);
    await insertGeneration({ organizationId: org.id, mode: 'live', type: 'render', status: 'succeeded', costAmount: 30 });
    await insertGeneration({ organizationId: org.id, mode: 'live', type: 'edit', status: 'failed', costAmount: 25 });
    await insertGeneration({ organizationId: org.id, mode: 'live', type: 'upscale', status: 'succeeded', costAmount: 10, createdAt: yesterday });
    const pending = await insertGeneration({ organizationId: org.id, mode: 'live', type: 'upscale', status: 'in_progress', costAmount: 10 });

    const overview = await query<{ generations_today: Record<string, number>; balance_cents: number; month_spend_cents: number }>('overview.get', live, cookie);
    expect(overview.data.generations_today).toEqual({ in_progress: 1, succeeded: 1, failed: 1, canceled: 0 });
    expect(overview.data.balance_cents).toBe(10_000 - 30 - 25 - 10 - 10);

    const usage = await query<{ days: { date: string; total: number; by_type: Record<string, number>; spend_cents: number }[]; totals: { generations: number; spend_cents: number }; charged: boolean }>('usage.get', { ...live, days: 7 }, cookie);
    expect(usage.data.days).toHaveLength(7);
    const today = usage.data.days[6]!;
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.total).toBe(3);
    expect(today.by_type).toEqual({ render: 1, edit: 1, decoration: 0, upscale: 1 });
    expect(today.spend_cents).toBe(30 + 10); // the failed edit was refunded in full
    expect(usage.data.days[5]!.total).toBe(1);
    expect(usage.data.totals).toMatchObject({ generations: 4, spend_cents: 50 });
    expect(usage.data.charged).toBe(true);

    const canceled = await mutate<{ status: string }>('generations.cancel', { ...live, id: pending.id }, cookie);
    expect(canceled.data.status).toBe('canceled');
    const again = await mutate('generations.cancel', { ...live, id: pending.id }, cookie);
    expect(again.status).toBe(409);
    expect(again.error?.code).toBe('generation_not_cancelable');
    const detail = await query<{ id: string; started_at: number | null; channel: string }>('generations.get', { ...live, id: pending.id }, cookie);
    expect(detail.data).toMatchObject({ id: pending.id, started_at: null, channel: 'v1' });

    // A credit with an expiry is a lot the billing view lists (the initial credit never expires).
    await transaction((tx) => grantCredit(tx, org.id, 500, 'Promotional credit', new Date(Date.now() + 10 * 86_400_000)));
    const billing = await query<{ balance_cents: number; expiring_credits: { amount_cents: number; remaining_cents: number }[] }>('billing.get', live, cookie);
    expect(billing.data.balance_cents).toBe(10_000 - 30 - 25 - 10 + 500);
    expect(billing.data.expiring_credits.map((c) => [c.amount_cents, c.remaining_cents])).toEqual([[500, 500]]);
    const ledger = await query<Page<{ type: string; amount_cents: number }>>('billing.transactions', { ...live, limit: 3 }, cookie);
    expect(ledger.data.data.map((t) => t.type)).toEqual(['credit', 'refund', 'charge']);
    expect(ledger.data.next_cursor).not.toBeNull();
    const rest = await query<Page<{ type: string }>>('billing.transactions', { ...live, limit: 10, cursor: ledger.data.next_cursor }, cookie);
    expect(rest.data.data.map((t) => t.type)).toEqual(['charge', 'charge', 'charge', 'credit']);
  });
});
