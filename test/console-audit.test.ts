/**
 * The audit log over real HTTP: what each change records (who, from where, what), rows exactly
 * when the change commits, never editable, kept 13 months, owners and admins only, filters,
 * cursor and exports.
 */
import { describe, expect, it } from 'vitest';
import { db, transaction } from '@/server/platform/db';
import { recordAudit } from '@/server/audit/record-audit';
import { OPERATOR } from '@/server/audit/actor';
import { deleteExpiredAuditEvents } from '@/server/audit/retention';
import { newId } from '@/server/platform/ids';
import { setAutoRecharge } from '@/server/billing/auto-recharge';
import { baseUrl, createTestOrg, testIp } from './support';
import { createMember, mutate, PASSWORD, query, signedIn, signIn, uniqueEmail } from './console-support';

interface AuditRow {
  id: string;
  created_at: number;
  action: string;
  actor: { type: string; label: string; user_id: string | null; api_key_id: string | null };
  ip: string | null;
  user_agent: string | null;
  device: string | null;
  mode: 'test' | 'live' | null;
  target: { type: string; id: string } | null;
  details: Record<string, unknown>;
}

type Page = { data: AuditRow[]; next_cursor: string | null };

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function auditList(organizationId: string, cookie: string, filters: Record<string, unknown> = {}) {
  return query<Page>('audit.list', { organizationId, mode: 'test', limit: 100, ...filters }, cookie);
}

describe('the audit log records each change with who, when and from where', () => {
  it('keys, members, webhook endpoints and settings, with the actor, IP, user agent, mode and target', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const dev = await createMember(org.id, 'developer');
    const ip = testIp();
    const headers = { 'x-forwarded-for': ip, 'user-agent': UA };
    const cookie = (await signIn(owner.email, PASSWORD, ip, baseUrl, { 'user-agent': UA })).cookie!;
    const scope = { organizationId: org.id, mode: 'live' as const };
    const call = <T>(path: string, input: Record<string, unknown>) => mutate<T>(path, { ...scope, ...input }, cookie, { headers });

    const key = await call<{ id: string }>('keys.create', { name: 'Production', permissions: ['renders', 'generations_read'] });
    await call('keys.revoke', { keyId: key.data.id });
    await call('keys.revoke', { keyId: key.data.id }); // already revoked: no second row
    const invitee = uniqueEmail('invitee');
    await call('members.invite', { email: invitee, role: 'admin' });
    await call('members.updateRole', { userId: dev.id, role: 'admin' });
    await call('members.remove', { userId: dev.id });
    const endpoint = await call<{ endpoint: { id: string } }>('webhooks.create', { url: 'https://127.0.0.1/audit-hook', events: ['generation.succeeded'] });
    const endpointId = endpoint.data.endpoint.id;
    await call('webhooks.rotate', { endpointId });
    await call('webhooks.disable', { endpointId });
    await call('webhooks.enable', { endpointId });
    await call('webhooks.delete', { endpointId });
    await call('settings.rename', { name: 'Renamed Studio' });

    const page = await auditList(org.id, cookie);
    expect(page.status).toBe(200);
    const rows = [...page.data.data].reverse();
    expect(rows.map((r) => r.action)).toEqual([
      'signin.succeeded',
      'api_key.created',
      'api_key.revoked',
      'member.invited',
      'member.role_changed',
      'member.removed',
      'webhook_endpoint.created',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.disabled',
      'webhook_endpoint.enabled',
      'webhook_endpoint.deleted',
      'organization.renamed',
    ]);
    for (const row of rows) {
      expect(row.actor).toEqual({ type: 'user', label: owner.email, user_id: owner.id, api_key_id: null });
      expect(row.ip).toBe(ip);
      expect(row.user_agent).toBe(UA);
      expect(row.device).toBe('Chrome 131 on Windows');
    }
    const byAction = new Map(rows.map((r) => [r.action, r]));
    expect(byAction.get('api_key.created')).toMatchObject({ mode: 'live', target: { type: 'api_key', id: key.data.id }, details: { name: 'Production', permissions: ['generations_read', 'renders'] } });
    expect(byAction.get('member.invited')?.details).toEqual({ email: invitee, role: 'admin' });
    expect(byAction.get('member.role_changed')).toMatchObject({ target: { type: 'user', id: dev.id }, details: { from: 'developer', to: 'admin' } });
    expect(byAction.get('webhook_endpoint.created')).toMatchObject({ mode: 'live', target: { id: endpointId }, details: { url: 'https://127.0.0.1/audit-hook', events: ['generation.succeeded'] } });
    expect(byAction.get('organization.renamed')?.details).toEqual({ from: 'Test org', to: 'Renamed Studio' });
    // Never a secret: not the key's, not the endpoint's.
    const raw = JSON.stringify(rows);
    expect(raw).not.toMatch(/rt_live_[0-9A-Za-z]{20}/);
    expect(raw).not.toContain('whsec_');
  });

  it('records sign-ins and refused passwords of the organization’s members, and operator changes from the CLI services', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const ip = testIp();
    expect((await signIn(owner.email, 'not the password!', ip, baseUrl, { 'user-agent': UA })).cookie).toBeNull();
    const cookie = (await signIn(owner.email, PASSWORD, ip, baseUrl, { 'user-agent': UA })).cookie!;
    await setAutoRecharge(org.id, { enabled: true, threshold: 500, amount: 2000 });
    const rows = (await auditList(org.id, cookie)).data.data;
    expect(rows.find((r) => r.action === 'signin.failed')).toMatchObject({ ip, user_agent: UA, actor: { label: owner.email }, details: { method: 'password', reason: 'wrong_password' } });
    expect(rows.find((r) => r.action === 'signin.succeeded')).toMatchObject({ ip, details: { method: 'password', second_factor: 'not_enrolled' } });
    expect(rows.find((r) => r.action === 'auto_recharge.updated')).toMatchObject({
      actor: { type: 'operator', label: 'operator (CLI)' },
      details: { from: { enabled: false, threshold: null, amount: null }, to: { enabled: true, threshold: 500, amount: 2000 } },
    });
  });
});

describe('an audit row exists exactly when its change committed', () => {
  it('refused changes write none', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const cookie = await signedIn(owner.email);
    const scope = { organizationId: org.id, mode: 'test' as const };
    const before = await db().auditEvent.count({ where: { organizationId: org.id } });

    expect((await mutate('members.updateRole', { ...scope, userId: owner.id, role: 'admin' }, cookie)).error?.code).toBe('last_owner');
    expect((await mutate('members.remove', { ...scope, userId: owner.id }, cookie)).error?.code).toBe('last_owner');
    expect((await mutate('webhooks.create', { ...scope, url: 'http://127.0.0.1/plain-http', events: ['generation.succeeded'] }, cookie)).error?.param).toBe('url');
    expect((await mutate('keys.revoke', { ...scope, keyId: 'key_doesnotexist' }, cookie)).error?.code).toBe('resource_not_found');
    expect((await mutate('settings.rename', { ...scope, name: '   ' }, cookie)).status).toBe(400);
    expect((await mutate('settings.requireTwoFactor', { ...scope, required: true }, cookie)).error?.code).toBe('two_factor_not_enabled');
    expect((await mutate('settings.requireTwoFactor', { ...scope, required: false }, cookie)).status).toBe(200); // no change: no row

    expect(await db().auditEvent.count({ where: { organizationId: org.id } })).toBe(before);
  });

  it('a transaction that fails after recording rolls its row back with it', async () => {
    const org = await createTestOrg();
    const marker = newId('aud');
    await expect(
      transaction(async (tx) => {
        await recordAudit(tx, OPERATOR, org.id, { action: 'organization.renamed', details: { marker } });
        await tx.organization.update({ where: { id: org.id }, data: { name: 'x' } });
        throw new Error('the change fails after the row was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await db().auditEvent.count({ where: { organizationId: org.id, details: { equals: { marker } } } })).toBe(0);
    expect((await db().organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe('Test org');
  });
});

describe('the audit log is never edited', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE; retention deletes only rows older than 13 months', async () => {
    const org = await createTestOrg();
    const now = new Date();
    const monthsAgo = (n: number) => {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - n);
      return d;
    };
    const old = newId('aud');
    const recent = newId('aud');
    const base = { organizationId: org.id, action: 'organization.renamed', actorType: 'operator', actorLabel: 'operator (CLI)' };
    await db().auditEvent.create({ data: { ...base, id: old, createdAt: new Date(monthsAgo(13).getTime() - 24 * 3600_000) } });
    await db().auditEvent.create({ data: { ...base, id: recent, createdAt: new Date(monthsAgo(12).getTime()) } });

    await expect(db().$executeRaw`update "AuditEvent" set action = 'api_key.created' where id = ${recent}`).rejects.toThrow(/cannot be changed/);
    await expect(db().auditEvent.update({ where: { id: recent }, data: { actorLabel: 'someone else' } })).rejects.toThrow();
    await expect(db().$executeRaw`delete from "AuditEvent" where id = ${recent}`).rejects.toThrow(/only by retention/);
    await expect(db().$executeRaw`delete from "AuditEvent" where id = ${old}`).rejects.toThrow(/only by retention/);
    await expect(db().$executeRawUnsafe('truncate "AuditEvent"')).rejects.toThrow(/cannot be changed/);
    // Even a transaction that declares itself the retention job cannot delete a younger row.
    await expect(
      transaction(async (tx) => {
        await tx.$queryRaw`select set_config('roomtone.audit_retention', 'on', true)`;
        await tx.$executeRaw`delete from "AuditEvent" where id = ${recent}`;
      }),
    ).rejects.toThrow(/only by retention/);

    // A clock moved ahead (maintenance run --now) deletes no younger row either.
    await deleteExpiredAuditEvents(new Date(now.getTime() + 400 * 24 * 3600_000));
    expect(await db().auditEvent.findUnique({ where: { id: recent } })).not.toBeNull();
    await deleteExpiredAuditEvents(now);
    expect(await db().auditEvent.findUnique({ where: { id: old } })).toBeNull();
    expect(await db().auditEvent.findUnique({ where: { id: recent } })).not.toBeNull();
  });
});

describe('who may read it', () => {
  it('owners and admins of the organization only: a developer gets 403, another organization’s admin 404', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const admin = await createMember(org.id, 'admin');
    const dev = await createMember(org.id, 'developer');
    const other = await createTestOrg();
    const outsider = await createMember(other.id, 'admin');
    const [ownerCookie, adminCookie, devCookie, outsiderCookie] = await Promise.all([owner, admin, dev, outsider].map((u) => signedIn(u.email)));

    expect((await auditList(org.id, ownerCookie!)).status).toBe(200);
    const adminView = await auditList(org.id, adminCookie!);
    expect(adminView.status).toBe(200);
    expect(adminView.data.data.every((r) => r.action !== undefined)).toBe(true);
    const devView = await auditList(org.id, devCookie!);
    expect(devView.status).toBe(403);
    expect(devView.error?.code).toBe('permission_denied');
    const devExport = await query('audit.export', { organizationId: org.id, mode: 'test', format: 'csv' }, devCookie!);
    expect(devExport.status).toBe(403);
    const foreign = await auditList(org.id, outsiderCookie!);
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'resource_not_found', param: 'organizationId' });
    // Scoped by organization: the other organization's log holds none of this one's rows.
    const otherOwner = await createMember(other.id, 'owner');
    const otherRows = (await auditList(other.id, await signedIn(otherOwner.email))).data.data;
    expect(otherRows.some((r) => r.actor.user_id === owner.id || r.actor.user_id === admin.id)).toBe(false);
  });
});

describe('filters, pages and exports', () => {
  it('filters by actor, action and time range, pages with a cursor, and exports the same rows as CSV and JSON', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const admin = await createMember(org.id, 'admin');
    const ownerCookie = await signedIn(owner.email);
    // A user agent is whatever the client sends: here one a spreadsheet would run as a formula.
    const adminCookie = (await signIn(admin.email, PASSWORD, testIp(), baseUrl, { 'user-agent': '=2+5' })).cookie!;
    const scope = { organizationId: org.id, mode: 'test' as const };
    for (let i = 0; i < 3; i++) await mutate('keys.create', { ...scope, name: `owner key ${i}`, permissions: ['renders'] }, ownerCookie);
    await mutate('keys.create', { ...scope, name: 'admin key', permissions: ['renders'] }, adminCookie);
    await mutate('settings.rename', { ...scope, name: '=SUM(A1,"x")' }, adminCookie);

    const byOwner = (await auditList(org.id, ownerCookie, { actor: owner.email.toUpperCase(), action: 'api_key.created' })).data.data;
    expect(byOwner.map((r) => r.details.name)).toEqual(['owner key 2', 'owner key 1', 'owner key 0']);
    expect((await auditList(org.id, ownerCookie, { actor: admin.id, action: 'api_key.created' })).data.data.map((r) => r.details.name)).toEqual(['admin key']);
    const all = (await auditList(org.id, ownerCookie)).data.data;
    expect(all.length).toBeGreaterThanOrEqual(7);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await auditList(org.id, ownerCookie, { from: future })).data.data).toEqual([]);
    expect((await auditList(org.id, ownerCookie, { to: all.at(-1)!.created_at })).data.data).toEqual([]);
    expect((await auditList(org.id, ownerCookie, { from: all.at(-1)!.created_at, to: future })).data.data).toHaveLength(all.length);
    const badAction = await auditList(org.id, ownerCookie, { action: 'everything' });
    expect(badAction.status).toBe(400);
    expect(badAction.error?.code).toBe('parameter_invalid');

    const first = await query<Page>('audit.list', { ...scope, limit: 2 }, ownerCookie);
    expect(first.data.data).toHaveLength(2);
    const second = await query<Page>('audit.list', { ...scope, limit: 100, cursor: first.data.next_cursor }, ownerCookie);
    expect([...first.data.data, ...second.data.data].map((r) => r.id)).toEqual(all.map((r) => r.id));

    interface Export {
      filename: string;
      content_type: string;
      content: string;
      rows: number;
      truncated: boolean;
    }
    const json = await query<Export>('audit.export', { ...scope, format: 'json', action: 'api_key.created' }, adminCookie);
    expect(json.status).toBe(200);
    expect(json.data).toMatchObject({ content_type: 'application/json', rows: 4, truncated: false });
    expect(json.data.filename).toMatch(new RegExp(`^audit-log-${org.id}-.*\\.json$`));
    const parsed = JSON.parse(json.data.content) as { data: AuditRow[] };
    expect(parsed.data.map((r) => r.id)).toEqual((await auditList(org.id, ownerCookie, { action: 'api_key.created' })).data.data.map((r) => r.id));

    const csv = await query<Export>('audit.export', { ...scope, format: 'csv', actor: admin.email }, adminCookie);
    expect(csv.data.content_type).toBe('text/csv');
    const lines = csv.data.content.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,time_utc,action,actor_type,actor,actor_user_id,actor_api_key_id,ip,user_agent,mode,target_type,target_id,details');
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['organization.renamed', 'api_key.created', 'signin.succeeded']);
    expect(csv.data.rows).toBe(3);
    // Formulas stay text: the agent's cell gets a leading apostrophe; JSON details are quoted.
    const signInLine = lines.find((l) => l.includes(',signin.succeeded,'))!;
    expect(signInLine).toContain(",'=2+5,");
    for (const line of lines) expect(line.split(',').some((cell) => /^[=+@]/.test(cell))).toBe(false);
    expect(csv.data.content).toContain('""to"":""=SUM(A1,\\""x\\"")""');
  });
});
