// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * Editing a webhook endpoint from the console (`webhooks.update`): URL, description and events
 * under the creation's rules, the secret kept, the change in the audit log with before and
 * after; developers and other organizations refused. And the attempt panel's payload
 * (`webhooks.payload`), scoped like every delivery.
 */
import { describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { createTestOrg } from './support';
import { createMember, mutate, query, signedIn } from './console-support';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
}

const OK_URL = 'https://127.0.0.1/status/204';
const OTHER_URL = 'https://127.0.0.1/status/202';

async function endpointOfNewOrganization() {
  const org = await createTestOrg({ tier: 1 });
  const owner = await createMember(org.id, 'owner');
  const cookie = await signedIn(owner.email);
  const scope = { organizationId: org.id, mode: 'test' as const };
  const created = await mutate<{ endpoint: Endpoint; secret: string }>('webhooks.create', { ...scope, url: OK_URL, events: ['generation.succeeded'], description: 'first' }, cookie);
  expect(created.status, JSON.stringify(created)).toBe(200);
  return { org, cookie, scope, endpoint: created.data.endpoint };
}

describe('editing a webhook endpoint', () => {
  it('changes URL, description and events; the secret stays; the audit log has before and after', async () => {
    const { org, cookie, scope, endpoint } = await endpointOfNewOrganization();
    const before = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const edited = await mutate<Endpoint>(
      'webhooks.update',
      { ...scope, endpointId: endpoint.id, url: OTHER_URL, description: '  staging receiver ', events: ['generation.succeeded', 'generation.failed'] },
      cookie,
    );
    expect(edited.status, JSON.stringify(edited)).toBe(200);
    expect(edited.data).toMatchObject({ id: endpoint.id, url: OTHER_URL, description: 'staging receiver' });
    expect([...edited.data.enabled_events].sort()).toEqual(['generation.failed', 'generation.succeeded']);
    const after = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after.secretEncrypted).toBe(before.secretEncrypted);

    const audit = await db().auditEvent.findMany({ where: { organizationId: org.id, action: 'webhook_endpoint.updated' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'user', mode: 'test', targetType: 'webhook_endpoint', targetId: endpoint.id });
    expect(audit[0]!.details).toMatchObject({ url: { from: OK_URL, to: OTHER_URL }, description: { from: 'first', to: 'staging receiver' } });
    expect(JSON.stringify(audit[0]!.details)).not.toMatch(/whsec_/);

    // An empty description clears it.
    const cleared = await mutate<Endpoint>('webhooks.update', { ...scope, endpointId: endpoint.id, description: '' }, cookie);
    expect(cleared.data.description).toBeNull();
  });

  it('refuses what creation refuses, with the field named, and changes nothing', async () => {
    const { org, cookie, scope, endpoint } = await endpointOfNewOrganization();
    const plainHttp = await mutate('webhooks.update', { ...scope, endpointId: endpoint.id, url: 'http://127.0.0.1/status/204' }, cookie);
    expect(plainHttp.status).toBe(400);
    expect(plainHttp.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    const noEvents = await mutate('webhooks.update', { ...scope, endpointId: endpoint.id, events: [] }, cookie);
    expect(noEvents.status).toBe(400);
    expect(noEvents.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    const liveEvent = await mutate('webhooks.update', { ...scope, endpointId: endpoint.id, events: ['balance.low'] }, cookie);
    expect(liveEvent.status).toBe(400);
    expect(liveEvent.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ url: OK_URL, description: 'first', eventTypes: ['generation.succeeded'] });
    expect(await db().auditEvent.count({ where: { organizationId: org.id, action: 'webhook_endpoint.updated' } })).toBe(0);
  });

  it("a developer is refused (403); another organization's admin and the other mode find nothing (404)", async () => {
    const { org, scope, endpoint } = await endpointOfNewOrganization();
    const developer = await signedIn((await createMember(org.id, 'developer')).email);
    const byDeveloper = await mutate('webhooks.update', { ...scope, endpointId: endpoint.id, url: OTHER_URL }, developer);
    expect(byDeveloper.status).toBe(403);
    expect(byDeveloper.error?.code).toBe('permission_denied');

    const live = await mutate('webhooks.update', { ...scope, mode: 'live', endpointId: endpoint.id, url: OTHER_URL }, await signedIn((await createMember(org.id, 'admin')).email));
    expect(live.status).toBe(404);

    const stranger = await createTestOrg();
    const strangerAdmin = await signedIn((await createMember(stranger.id, 'admin')).email);
    const viaOwn = await mutate('webhooks.update', { organizationId: stranger.id, mode: 'test', endpointId: endpoint.id, url: OTHER_URL }, strangerAdmin);
    expect(viaOwn.status).toBe(404);
    expect(viaOwn.error?.code).toBe('resource_not_found');
    const viaTheirs = await mutate('webhooks.update', { ...scope, endpointId: endpoint.id, url: OTHER_URL }, strangerAdmin);
    expect(viaTheirs.status).toBe(404);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url).toBe(OK_URL);
  });

  it("the attempt panel's payload is the event as sent, to the endpoint's organization only", async () => {
    const { org, cookie, scope, endpoint } = await endpointOfNewOrganization();
    const sent = await mutate<{ id: string; event: { id: string } }>('webhooks.sendTest', { ...scope, endpointId: endpoint.id, type: 'generation.succeeded' }, cookie);
    expect(sent.status, JSON.stringify(sent)).toBe(200);
    const payload = await query<{ payload: string | null }>('webhooks.payload', { ...scope, deliveryId: sent.data.id }, cookie);
    expect(payload.status, JSON.stringify(payload)).toBe(200);
    expect(JSON.parse(payload.data.payload!)).toMatchObject({ id: sent.data.event.id, type: 'generation.succeeded' });

    const developer = await signedIn((await createMember(org.id, 'developer')).email);
    expect((await query('webhooks.payload', { ...scope, deliveryId: sent.data.id }, developer)).status).toBe(403);
    const stranger = await createTestOrg();
    const strangerOwner = await signedIn((await createMember(stranger.id, 'owner')).email);
    const foreign = await query('webhooks.payload', { organizationId: stranger.id, mode: 'test', deliveryId: sent.data.id }, strangerOwner);
    expect(foreign.status).toBe(404);
  });
});
