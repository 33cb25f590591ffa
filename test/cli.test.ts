// @node-lines same: the CLI's commands and output; the worker process and its signals run under both lines in test/worker.test.ts
// @worker-process shared: the roomtone bin run to its end (spawnSync) and commands in this process that give the environment back (test/roomtone-cli.ts); it starts no server
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { api, testIp } from './support';
import { jsonOf, roomtone as run } from './roomtone-cli';
import { db } from '@/server/platform/db';

const root = path.resolve(import.meta.dirname, '..');
const ip = testIp();

/** One command in this process (test/roomtone-cli.ts), its JSON document parsed when asked with --json. */
async function roomtone(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stdout: string; stderr: string }> {
  const result = await run(args);
  return { ...result, json: args.includes('--json') ? jsonOf(result) : {} };
}

describe('the roomtone bin (npx roomtone), as a process', () => {
  it('runs a command and exits 0 with one JSON document; bad arguments exit 2 with the message on stderr', () => {
    const bin = (...args: string[]) => spawnSync(process.execPath, [path.join(root, 'bin/roomtone.mjs'), ...args], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 120_000 });
    const created = bin('org', 'create', '--name', 'Bin Interiors', '--json');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ object: 'organization', name: 'Bin Interiors' });
    const refused = bin('teleport');
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain("roomtone: Unknown command 'teleport'");
  });
});

describe('roomtone CLI', () => {
  it('creates an organization with credit, keys that work on /v1, lists and revokes them', async () => {
    const org = await roomtone('org', 'create', '--name', 'CLI Interiors', '--tier', '2', '--credit', '2500', '--json');
    expect(org.code).toBe(0);
    expect(org.json).toMatchObject({ name: 'CLI Interiors', tier: 2, balance_cents: 2500 });
    const orgId = org.json.id as string;
    expect(orgId).toMatch(/^org_/);

    const key = await roomtone('keys', 'create', '--org', orgId, '--mode', 'test', '--json');
    expect(key.code).toBe(0);
    expect(key.json.id).toMatch(/^key_/);
    expect(key.json.secret).toMatch(/^rt_test_[0-9A-Za-z]{40}$/);
    expect(key.json.permissions).toEqual(['decorations', 'edits', 'generations_read', 'renders', 'upscales']);
    const secret = key.json.secret as string;
    expect((await api('/v1/styles', { key: secret, ip })).status).toBe(200);

    const limited = await roomtone('keys', 'create', '--org', orgId, '--mode', 'live', '--permissions', 'generations_read', '--name', 'reader', '--json');
    expect(limited.code).toBe(0);
    expect(limited.json.permissions).toEqual(['generations_read']);
    expect((await api('/v1/styles', { key: limited.json.secret as string, ip })).status).toBe(403);

    const list = await roomtone('keys', 'list', '--org', orgId, '--json');
    expect(list.code).toBe(0);
    const keys = (list.json.data as { id: string; revoked_at: number | null; mode: string }[]);
    expect(keys.map((k) => k.id).sort()).toEqual([key.json.id, limited.json.id].sort());
    expect(JSON.stringify(list.json)).not.toContain(secret);

    const revoke = await roomtone('keys', 'revoke', '--key', key.json.id as string, '--json');
    expect(revoke.code).toBe(0);
    expect(revoke.json).toMatchObject({ id: key.json.id, revoked: true });
    expect((await api('/v1/styles', { key: secret, ip })).status).toBe(401);
    // The operator's changes are in the organization's audit log, with the CLI as the actor.
    const audit = await db().auditEvent.findMany({ where: { organizationId: orgId }, orderBy: { seq: 'asc' } });
    expect(audit.map((e) => [e.action, e.actorType, e.targetId])).toEqual([
      ['organization.created', 'operator', orgId],
      ['balance.credit_granted', 'operator', null],
      ['api_key.created', 'operator', key.json.id],
      ['api_key.created', 'operator', limited.json.id],
      ['api_key.revoked', 'operator', key.json.id],
    ]);

    const credit = await roomtone('credit', 'grant', '--org', orgId, '--amount', '500', '--json');
    expect(credit.code).toBe(0);
    expect(credit.json).toMatchObject({ amount: 500, balance_cents: 3000 });
    expect((await db().organization.findUniqueOrThrow({ where: { id: orgId } })).balanceCents).toBe(3000);
    const grantAudit = await db().auditEvent.findFirstOrThrow({ where: { organizationId: orgId, action: 'balance.credit_granted', targetId: credit.json.id as string } });
    expect(grantAudit).toMatchObject({ actorType: 'operator', mode: 'live', details: { amount: 500, currency: 'eur', expires_at: null, balance_after: 3000 } });

    const user = await roomtone('user', 'create', '--email', 'Designer@Example.com', '--password', 'correct horse battery', '--org', orgId, '--role', 'admin', '--json');
    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ email: 'designer@example.com', role: 'admin', organization: orgId });
    const stored = await db().user.findUniqueOrThrow({ where: { email: 'designer@example.com' } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored.passwordHash).not.toContain('correct horse');
    // The operator vouches for the address: the account signs in with its password at once.
    expect(stored.emailVerified).not.toBeNull();
  });

  it.each([
    [['org', 'create', '--json'], '--name'],
    [['org', 'create', '--name', 'x', '--tier', '7', '--json'], '--tier'],
    [['org', 'create', '--name', 'x', '--credit', '-5', '--json'], '--credit'],
    [['keys', 'create', '--org', 'org_x', '--mode', 'prod', '--json'], '--mode'],
    [['keys', 'create', '--org', 'org_x', '--mode', 'test', '--permissions', 'renders,fly', '--json'], '--permissions'],
    [['credit', 'grant', '--org', 'org_x', '--amount', 'ten', '--json'], '--amount'],
    [['user', 'create', '--email', 'nope', '--password', 'longenough', '--org', 'org_x', '--role', 'owner', '--json'], '--email'],
    [['user', 'create', '--email', 'a@b.co', '--password', 'longenough', '--org', 'org_x', '--role', 'king', '--json'], '--role'],
    [['keys', 'create', '--org', 'org_x', '--mode', 'test', '--colour', 'red', '--json'], 'colour'],
    [['teleport', '--json'], 'Unknown command'],
  ])('refuses bad arguments %j with a clear error and exit code 2', async (args, mention) => {
    const result = await roomtone(...args);
    expect(result.code).toBe(2);
    expect(result.json).toHaveProperty('error.code', 'usage');
    expect(String((result.json.error as { message: string }).message)).toContain(mention);
  });

  it('exits 1 with resource_not_found for an unknown organization or key', async () => {
    const key = await roomtone('keys', 'create', '--org', 'org_doesnotexist', '--mode', 'test', '--json');
    expect(key.code).toBe(1);
    expect(key.json).toHaveProperty('error.code', 'resource_not_found');
    const revoke = await roomtone('keys', 'revoke', '--key', 'key_doesnotexist', '--json');
    expect(revoke.code).toBe(1);
    expect(revoke.json).toHaveProperty('error.code', 'resource_not_found');
  });
});
