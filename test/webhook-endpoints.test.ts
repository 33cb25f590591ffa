// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: rows through the service layer and CLI commands in this process; the setting it makes is given back after it (test/file-environment.ts); it starts no server or process
import { describe, expect, it } from 'vitest';
import { createTestOrg, refusalOf, rendered } from './support';
import { jsonOf, roomtone as runRoomtone } from './roomtone-cli';
import { db } from '@/server/platform/db';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { getEndpoint, listEndpoints } from '@/server/capabilities/webhooks/endpoints';
import { decryptSecret } from '@/server/capabilities/webhooks/signing-secret';
import { environmentForThisFile } from './file-environment';

environmentForThisFile({ DEV_ALLOW_LOOPBACK_URLS: 'true' });

describe('webhook endpoint rules', () => {
  it.each([
    ['http://127.0.0.1/hook', 'must use https'],
    ['https://127.0.0.1:8443/hook', 'port 443'],
    ['https://user:pw@127.0.0.1/hook', 'credentials'],
    ['https://127.0.0.1/hook#frag', 'fragment'],
    ['https://10.0.0.7/hook', 'private'],
    ['https://127.0.0.2/hook', 'private'],
    ['https://169.254.169.254/latest', 'private'],
    ['https://no-such-host.invalid/hook', 'not a public host name'],
    ['https://localhost/hook', 'not a public host name'],
    ['https://printer.local/hook', 'not a public host name'],
    ['https://intranet/hook', 'not a public host name'],
    ['https://[fd00::1]/hook', 'private'],
    ['not a url', 'not valid'],
  ])('refuses %s with 400 parameter_invalid on url, storing nothing', async (url, message) => {
    const org = await createTestOrg();
    expect(await refusalOf(createEndpoint(db(), { organizationId: org.id }, { mode: 'test', url }))).toMatchObject({
      status: 400,
      code: 'parameter_invalid',
      param: 'url',
      message: expect.stringContaining(message) as unknown,
    });
    expect(await db().webhookEndpoint.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('accepts a syntactically valid public URL without resolving its host: delivery checks it', async () => {
    const org = await createTestOrg();
    // No DNS answers this name (and the tests run without DNS): declaration does not ask.
    const url = 'https://hooks.nowhere-roomtone-test.example/hook';
    const created = await createEndpoint(db(), { organizationId: org.id }, { mode: 'test', url });
    expect(created.endpoint).toMatchObject({ url, status: 'active' });
    expect((await createEndpoint(db(), { organizationId: org.id }, { mode: 'live', url: 'https://8.8.8.8/hook' })).endpoint.url).toBe('https://8.8.8.8/hook');
  });

  it('refuses unknown events, balance events in test mode, an empty list and an unknown mode', async () => {
    const org = await createTestOrg();
    const scope = { organizationId: org.id };
    const url = 'https://127.0.0.1/hook';
    expect(await refusalOf(createEndpoint(db(), scope, { mode: 'test', url, events: ['balance.low'] }))).toMatchObject({ status: 400, param: 'events' });
    expect(await refusalOf(createEndpoint(db(), scope, { mode: 'live', url, events: ['generation.exploded'] }))).toMatchObject({ status: 400, param: 'events' });
    expect(await refusalOf(createEndpoint(db(), scope, { mode: 'live', url, events: [] }))).toMatchObject({ status: 400, param: 'events' });
    expect(await refusalOf(createEndpoint(db(), scope, { mode: 'staging', url }))).toMatchObject({ status: 400, param: 'mode' });
    expect(await db().webhookEndpoint.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('defaults to every event type of the mode; the secret is whsec_, shown once, encrypted at rest', async () => {
    const org = await createTestOrg();
    const scope = { organizationId: org.id };
    const test = await createEndpoint(db(), scope, { mode: 'test', url: 'https://127.0.0.1/a', description: 'staging receiver' });
    expect(test.endpoint).toMatchObject({ mode: 'test', livemode: false, status: 'active', description: 'staging receiver', enabled_events: ['generation.succeeded', 'generation.failed', 'generation.canceled'] });
    expect(test.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(test.secret.slice(6), 'base64')).toHaveLength(32);
    const live = await createEndpoint(db(), scope, { mode: 'live', url: 'https://[::1]/b' });
    expect(live.endpoint.enabled_events).toEqual(['generation.succeeded', 'generation.failed', 'generation.canceled', 'balance.low', 'balance.recharge_failed', 'balance.expiring']);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: test.endpoint.id } });
    expect(row.secretEncrypted).not.toContain(test.secret.slice(6, 20));
    expect(decryptSecret(row.id, row.secretEncrypted)).toBe(test.secret);
    // Bound to its endpoint: the same ciphertext does not open under another id.
    expect(() => decryptSecret(live.endpoint.id, row.secretEncrypted)).toThrow();
    const listed = await listEndpoints(db(), scope);
    expect(listed.map((e) => e.id)).toEqual([test.endpoint.id, live.endpoint.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    expect(JSON.stringify(await getEndpoint(db(), scope, live.endpoint.id))).not.toContain('whsec_');
    expect(await refusalOf(getEndpoint(db(), { organizationId: (await createTestOrg()).id }, live.endpoint.id))).toMatchObject({ status: 404, code: 'resource_not_found' });
  });

  it('at most 20 endpoints per organization, all modes together, even when created at once', async () => {
    const org = await createTestOrg();
    const scope = { organizationId: org.id };
    const results = await Promise.allSettled(
      Array.from({ length: 24 }, (_, i) => createEndpoint(db(), scope, { mode: i % 2 ? 'live' : 'test', url: `https://127.0.0.1/e${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(rendered(r.reason)).toMatchObject({ status: 409, code: 'webhook_endpoint_limit_reached' });
    expect(await db().webhookEndpoint.count({ where: { organizationId: org.id } })).toBe(20);
  });
});

/** A `roomtone` command with --json, in this process (test/roomtone-cli.ts). */
async function roomtone(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  const result = await runRoomtone([...args, '--json'], { DEV_ALLOW_LOOPBACK_URLS: 'true' });
  return { code: result.code, json: jsonOf(result) };
}

describe('roomtone webhooks (CLI)', () => {
  it('create, list, get, rotate, disable, enable, test, deliveries, resend, delete — all with --json', async () => {
    const org = await createTestOrg();
    // The receiver is the test image server (127.0.0.1:443): every POST there answers 404.
    const created = await roomtone('webhooks', 'create', '--org', org.id, '--mode', 'live', '--url', 'https://127.0.0.1/hook', '--events', 'generation.failed,balance.low', '--description', 'CLI');
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ object: 'webhook_endpoint', mode: 'live', enabled_events: ['generation.failed', 'balance.low'], description: 'CLI' });
    expect(created.json.secret).toMatch(/^whsec_/);
    const id = created.json.id as string;

    const bad = await roomtone('webhooks', 'create', '--org', org.id, '--mode', 'live', '--url', 'https://10.0.0.1/x');
    expect(bad).toMatchObject({ code: 1, json: { error: { code: 'parameter_invalid', param: 'url' } } });
    expect((await roomtone('webhooks', 'create', '--org', org.id, '--mode', 'live')).code).toBe(2);

    const list = await roomtone('webhooks', 'list', '--org', org.id);
    expect((list.json.data as { id: string }[]).map((e) => e.id)).toEqual([id]);
    expect(JSON.stringify(list.json)).not.toContain('whsec_');
    expect((await roomtone('webhooks', 'get', '--endpoint', id)).json).toMatchObject({ id, status: 'active' });

    const rotated = await roomtone('webhooks', 'rotate', '--endpoint', id);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);
    expect(rotated.json.previous_secret_expires_at).toEqual(expect.any(Number));

    const test = await roomtone('webhooks', 'test', '--endpoint', id, '--type', 'balance.low');
    expect(test).toMatchObject({ code: 0, json: { object: 'webhook_delivery', kind: 'test', status: 'failed', last_status_code: 404, attempts: 1 } });
    const deliveries = await roomtone('webhooks', 'deliveries', '--endpoint', id);
    const [delivery] = deliveries.json.data as { id: string; attempt_log: unknown[] }[];
    expect(delivery?.attempt_log).toHaveLength(1);
    const resent = await roomtone('webhooks', 'resend', '--delivery', delivery?.id as string);
    expect(resent.json).toMatchObject({ kind: 'resend', attempts: 1, last_status_code: 404 });

    expect((await roomtone('webhooks', 'disable', '--endpoint', id)).json).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    expect((await roomtone('webhooks', 'resend', '--delivery', delivery?.id as string))).toMatchObject({ code: 1, json: { error: { code: 'webhook_endpoint_disabled' } } });
    expect((await roomtone('webhooks', 'enable', '--endpoint', id)).json).toMatchObject({ status: 'active', disabled_reason: null });
    expect((await roomtone('webhooks', 'delete', '--endpoint', id)).json).toMatchObject({ id, deleted: true });
    expect((await roomtone('webhooks', 'get', '--endpoint', id))).toMatchObject({ code: 1, json: { error: { code: 'resource_not_found' } } });
  }, 900_000);
});
