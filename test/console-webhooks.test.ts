// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * The console's webhook procedures over /api/trpc against the running server: owners and
 * admins only, every endpoint and delivery scoped by the session's organization and mode (the
 * other mode's, or another organization's, is 404 like an id that does not exist), and the
 * screens' operations end to end (create, list with the 24-hour success rate, send a test,
 * the log with its failed filter, resend, disable/enable, rotate, delete). Deliveries go to
 * the test image server on 127.0.0.1:443 (`/status/<code>` answers that status), which the
 * server reaches under DEV_ALLOW_LOOPBACK_URLS; signatures are verified in the e2e test.
 */
import { describe, expect, it } from 'vitest';
import { createTestOrg } from './support';
import { createMember, mutate, query, signedIn } from './console-support';

interface Endpoint {
  id: string;
  url: string;
  mode: string;
  status: string;
  disabled_reason: string | null;
  enabled_events: string[];
  previous_secret_expires_at: number | null;
  success_rate_24h: { attempts: number; succeeded: number; rate: number | null };
}
interface Delivery {
  id: string;
  kind: string;
  status: string;
  event: { id: string; type: string };
  attempt_log: { status_code: number | null; succeeded: boolean; duration_ms: number }[];
}
type Page<T> = { data: T[]; next_cursor: string | null };

const OK_URL = 'https://127.0.0.1/status/204';
const FAILING_URL = 'https://127.0.0.1/status/500';

async function organizationWithRoles() {
  const org = await createTestOrg({ tier: 1 });
  const [owner, admin, developer] = await Promise.all([createMember(org.id, 'owner'), createMember(org.id, 'admin'), createMember(org.id, 'developer')]);
  return {
    org,
    owner: await signedIn(owner.email),
    admin: await signedIn(admin.email),
    developer: await signedIn(developer.email),
  };
}

describe('console webhook procedures', () => {
  it('admit owners and admins only; developers get 403 permission_denied and nothing is created', async () => {
    const { org, owner, admin, developer } = await organizationWithRoles();
    const scope = { organizationId: org.id, mode: 'test' };
    const created = await mutate<{ endpoint: Endpoint; secret: string }>('webhooks.create', { ...scope, url: OK_URL, events: ['generation.succeeded'] }, owner);
    expect(created.status).toBe(200);
    const endpointId = created.data.endpoint.id;

    for (const cookie of [owner, admin]) {
      expect((await query('webhooks.list', scope, cookie)).status).toBe(200);
      expect((await query('webhooks.deliveries', { ...scope, endpointId }, cookie)).status).toBe(200);
    }
    for (const [path, input] of [
      ['webhooks.list', scope],
      ['webhooks.get', { ...scope, endpointId }],
      ['webhooks.deliveries', { ...scope, endpointId }],
    ] as const) {
      const refused = await query(path, input, developer);
      expect(refused.status, path).toBe(403);
      expect(refused.error?.code, path).toBe('permission_denied');
    }
    for (const [path, input] of [
      ['webhooks.create', { ...scope, url: OK_URL, events: ['generation.succeeded'] }],
      ['webhooks.rotate', { ...scope, endpointId }],
      ['webhooks.disable', { ...scope, endpointId }],
      ['webhooks.delete', { ...scope, endpointId }],
      ['webhooks.sendTest', { ...scope, endpointId, type: 'generation.succeeded' }],
    ] as const) {
      const refused = await mutate(path, input, developer);
      expect(refused.status, path).toBe(403);
      expect(refused.error?.code, path).toBe('permission_denied');
    }
    const listed = await query<{ data: Endpoint[] }>('webhooks.list', scope, admin);
    expect(listed.data.data.map((e) => e.id)).toEqual([endpointId]);
    expect(listed.data.data[0]).toMatchObject({ status: 'active', success_rate_24h: { attempts: 0, succeeded: 0, rate: null } });
    // No session at all: 401.
    expect((await query('webhooks.list', scope, null)).error?.code).toBe('session_missing');
  });

  it('scope every endpoint and delivery by the session organization and the mode', async () => {
    const { org, owner } = await organizationWithRoles();
    const test = { organizationId: org.id, mode: 'test' };
    const live = { organizationId: org.id, mode: 'live' };
    const created = await mutate<{ endpoint: Endpoint; secret: string }>('webhooks.create', { ...test, url: OK_URL, events: ['generation.succeeded', 'generation.failed'], description: 'Receiver' }, owner);
    expect(created.data.endpoint).toMatchObject({ mode: 'test', url: OK_URL, enabled_events: ['generation.succeeded', 'generation.failed'], status: 'active' });
    expect(created.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const endpointId = created.data.endpoint.id;
    const sent = await mutate<Delivery>('webhooks.sendTest', { ...test, endpointId, type: 'generation.succeeded' }, owner);
    expect(sent.status).toBe(200);

    // The live console sees none of the test mode's endpoints.
    expect((await query<{ data: Endpoint[] }>('webhooks.list', live, owner)).data.data).toEqual([]);
    for (const [path, input] of [
      ['webhooks.get', { ...live, endpointId }],
      ['webhooks.deliveries', { ...live, endpointId }],
    ] as const) {
      const hidden = await query(path, input, owner);
      expect(hidden.status, path).toBe(404);
      expect(hidden.error, path).toMatchObject({ code: 'resource_not_found', param: 'endpoint' });
    }
    for (const [path, input, param] of [
      ['webhooks.rotate', { ...live, endpointId }, 'endpoint'],
      ['webhooks.disable', { ...live, endpointId }, 'endpoint'],
      ['webhooks.delete', { ...live, endpointId }, 'endpoint'],
      ['webhooks.sendTest', { ...live, endpointId, type: 'generation.succeeded' }, 'endpoint'],
      ['webhooks.resend', { ...live, deliveryId: sent.data.id }, 'delivery'],
    ] as const) {
      const hidden = await mutate(path, input, owner);
      expect(hidden.status, path).toBe(404);
      expect(hidden.error, path).toMatchObject({ code: 'resource_not_found', param });
    }

    // Another organization's owner, in their own organization's scope, finds nothing either.
    const other = await organizationWithRoles();
    const otherScope = { organizationId: other.org.id, mode: 'test' };
    expect((await query('webhooks.get', { ...otherScope, endpointId }, other.owner)).status).toBe(404);
    expect((await mutate('webhooks.resend', { ...otherScope, deliveryId: sent.data.id }, other.owner)).status).toBe(404);
    expect((await mutate('webhooks.delete', { ...otherScope, endpointId }, other.owner)).status).toBe(404);
    // ... and naming this organization is 404 for a non-member.
    const stranger = await query('webhooks.list', test, other.owner);
    expect(stranger.status).toBe(404);
    expect(stranger.error?.code).toBe('resource_not_found');

    // Still there, untouched, in its own scope.
    expect((await query<Endpoint>('webhooks.get', { ...test, endpointId }, owner)).data.status).toBe('active');
  });

  it('refuse a bad endpoint with the spec error and its param, creating nothing', async () => {
    const { org, admin } = await organizationWithRoles();
    const scope = { organizationId: org.id, mode: 'test' };
    const http = await mutate('webhooks.create', { ...scope, url: 'http://127.0.0.1/hook', events: ['generation.succeeded'] }, admin);
    expect(http.status).toBe(400);
    expect(http.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    const balanceInTest = await mutate('webhooks.create', { ...scope, url: OK_URL, events: ['balance.low'] }, admin);
    expect(balanceInTest.status).toBe(400);
    expect(balanceInTest.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    const noEvents = await mutate('webhooks.create', { ...scope, url: OK_URL, events: [] }, admin);
    expect(noEvents.status).toBe(400);
    expect(noEvents.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    expect((await query<{ data: Endpoint[] }>('webhooks.list', scope, admin)).data.data).toEqual([]);
    // A live endpoint may follow balance events.
    const live = await mutate<{ endpoint: Endpoint }>('webhooks.create', { organizationId: org.id, mode: 'live', url: OK_URL, events: ['balance.low'] }, admin);
    expect(live.status).toBe(200);
    expect(live.data.endpoint).toMatchObject({ mode: 'live', enabled_events: ['balance.low'] });
  });

  it('send a test, read the log and filter failures, resend, disable/enable, rotate, delete', async () => {
    const { org, admin } = await organizationWithRoles();
    const scope = { organizationId: org.id, mode: 'test' };
    const good = (await mutate<{ endpoint: Endpoint }>('webhooks.create', { ...scope, url: OK_URL, events: ['generation.succeeded'] }, admin)).data.endpoint;
    const bad = (await mutate<{ endpoint: Endpoint }>('webhooks.create', { ...scope, url: FAILING_URL, events: ['generation.failed'] }, admin)).data.endpoint;

    const notFollowed = await mutate('webhooks.sendTest', { ...scope, endpointId: good.id, type: 'generation.failed' }, admin);
    expect(notFollowed.status).toBe(400);
    expect(notFollowed.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });

    const test = await mutate<Delivery>('webhooks.sendTest', { ...scope, endpointId: good.id, type: 'generation.succeeded' }, admin);
    expect(test.data).toMatchObject({ kind: 'test', status: 'succeeded', event: { type: 'generation.succeeded' } });
    expect(test.data.attempt_log).toMatchObject([{ status_code: 204, succeeded: true }]);
    const failed = await mutate<Delivery>('webhooks.sendTest', { ...scope, endpointId: bad.id, type: 'generation.failed' }, admin);
    expect(failed.data).toMatchObject({ kind: 'test', status: 'failed' });
    expect(failed.data.attempt_log).toMatchObject([{ status_code: 500, succeeded: false }]);

    const resent = await mutate<Delivery>('webhooks.resend', { ...scope, deliveryId: test.data.id }, admin);
    expect(resent.data).toMatchObject({ kind: 'resend', status: 'succeeded', event: { id: test.data.event.id } });

    const log = await query<Page<Delivery>>('webhooks.deliveries', { ...scope, endpointId: good.id }, admin);
    expect(log.data.data.map((d) => d.id)).toEqual([resent.data.id, test.data.id]);
    expect((await query<Page<Delivery>>('webhooks.deliveries', { ...scope, endpointId: good.id, failedOnly: true }, admin)).data.data).toEqual([]);
    const badFailures = await query<Page<Delivery>>('webhooks.deliveries', { ...scope, endpointId: bad.id, failedOnly: true }, admin);
    expect(badFailures.data.data.map((d) => d.id)).toEqual([failed.data.id]);
    // Cursor pages: one per page, newest first.
    const first = await query<Page<Delivery>>('webhooks.deliveries', { ...scope, endpointId: good.id, limit: 1 }, admin);
    expect(first.data.data.map((d) => d.id)).toEqual([resent.data.id]);
    const second = await query<Page<Delivery>>('webhooks.deliveries', { ...scope, endpointId: good.id, limit: 1, cursor: first.data.next_cursor }, admin);
    expect(second.data).toEqual({ data: [expect.objectContaining({ id: test.data.id })], next_cursor: null });

    const listed = (await query<{ data: Endpoint[] }>('webhooks.list', scope, admin)).data.data;
    expect(listed.find((e) => e.id === good.id)?.success_rate_24h).toEqual({ attempts: 2, succeeded: 2, rate: 1 });
    expect(listed.find((e) => e.id === bad.id)?.success_rate_24h).toEqual({ attempts: 1, succeeded: 0, rate: 0 });

    const disabled = await mutate<Endpoint>('webhooks.disable', { ...scope, endpointId: good.id }, admin);
    expect(disabled.data).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    const refused = await mutate('webhooks.resend', { ...scope, deliveryId: test.data.id }, admin);
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'webhook_endpoint_disabled', param: 'endpoint' });
    expect((await mutate<Endpoint>('webhooks.enable', { ...scope, endpointId: good.id }, admin)).data).toMatchObject({ status: 'active', disabled_reason: null });

    const rotated = await mutate<{ endpoint: Endpoint; secret: string }>('webhooks.rotate', { ...scope, endpointId: good.id }, admin);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.endpoint.previous_secret_expires_at).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
    expect(JSON.stringify((await query('webhooks.get', { ...scope, endpointId: good.id }, admin)).data)).not.toContain(rotated.data.secret);

    expect((await mutate('webhooks.delete', { ...scope, endpointId: good.id }, admin)).data).toEqual({ id: good.id, deleted: true });
    expect((await query('webhooks.get', { ...scope, endpointId: good.id }, admin)).status).toBe(404);
    expect((await query<{ data: Endpoint[] }>('webhooks.list', scope, admin)).data.data.map((e) => e.id)).toEqual([bad.id]);
  });
});
