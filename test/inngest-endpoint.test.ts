// @node-lines same: the Inngest SDK's HTTP serving: web Request and Response, which run under both lines in test/mcp.test.ts
/**
 * Contract test of /api/inngest: the production server started with
 * JOBS_PROVIDER=inngest, driven over HTTP the way Inngest's executor drives a serve handler
 * (per the SDK's protocol, inngest 4.x): GET introspection, PUT sync (the handler registers its
 * functions with the Inngest API: here a local stand-in, test/inngest-api.ts), then signed POST
 * step executions (`X-Inngest-Signature: t=<unix s>&s=<hex HMAC-SHA256 of canonical JSON body +
 * t, keyed by the signing key without its signkey-<env>- prefix>`), one step per request, each
 * step's result handed back as memoized state, until the run answers 200. A generation
 * admitted through /v1 completes this way on the real database.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { API_ONLY, freshDatabase, startServer, type TestDatabase, type TestProcess } from './server-processes';
import { startInngestApi, type InngestApi, type InngestEvent } from './inngest-api';
import { createTestOrg, type TestOrg } from './support';
import { db } from '@/server/platform/db';
import { storedOutputs } from '@/server/capabilities/generation-object/stored-json';

const EVENT_KEY = 'contract-event-key';
const SIGNING_KEY = 'signkey-test-8f2c1d3e4b5a69788f2c1d3e4b5a69788f2c1d3e4b5a6978';
const FN_GENERATION = 'roomtone-generation-run';

let database: TestDatabase;
let inngest: InngestApi;
let server: TestProcess;
let org: TestOrg;

beforeAll(async () => {
  database = await freshDatabase('inngest_contract');
  inngest = await startInngestApi(EVENT_KEY);
  server = await startServer(database.url, {
    ...API_ONLY,
    JOBS_PROVIDER: 'inngest',
    INNGEST_EVENT_KEY: EVENT_KEY,
    INNGEST_SIGNING_KEY: SIGNING_KEY,
    INNGEST_BASE_URL: inngest.url,
  });
  process.env.DATABASE_URL = database.url; // this file's own reads and fixtures
  process.env.DATA_DIR = database.dataDir;
  org = await createTestOrg({ credit: 1_000 });
});

afterAll(async () => {
  await server?.stop();
  await inngest?.close();
  await database?.drop(); // and its DATA_DIR
});

/** JSON with keys sorted at every level (RFC 8785 for the strings, integers and nulls used here): what the SDK signs. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function sign(body: string, key = SIGNING_KEY, at = Math.floor(Date.now() / 1000)): string {
  const secret = key.replace(/^signkey-\w+-/, '');
  return `t=${at}&s=${createHmac('sha256', secret).update(body + String(at)).digest('hex')}`;
}

interface Op {
  id: string;
  op: string;
  name?: string;
  displayName?: string;
  data?: unknown;
}

/** One signed step-execution request, as the executor sends it. */
async function execute(fnId: string, event: InngestEvent, steps: Record<string, { type: 'data'; data: unknown }>, stack: string[], runId: string, signature?: string) {
  const body = canonical({
    version: 1,
    event,
    events: [event],
    steps,
    ctx: { run_id: runId, attempt: 0, disable_immediate_execution: false, use_api: false, stack: { stack, current: stack.length } },
  });
  const res = await fetch(`${server.url}/api/inngest?fnId=${fnId}&stepId=step`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-inngest-signature': signature ?? sign(body) },
    body,
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('/api/inngest, driven as the Inngest executor drives it', () => {
  it('introspection (GET) answers only a signed request: a cloud-mode app, every job a function, the SDK\'s Next.js handler', async () => {
    const unsigned = await fetch(`${server.url}/api/inngest`);
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toEqual({ message: 'Unauthorized' });
    const res = await fetch(`${server.url}/api/inngest`, { headers: { 'x-inngest-signature': sign('') } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      authentication_succeeded: true,
      app_id: 'roomtone',
      framework: 'nextjs',
      function_count: 7,
      has_event_key: true,
      has_signing_key: true,
      mode: 'cloud',
      api_origin: inngest.url,
      serve_path: '/api/inngest',
    });
  });

  it('a sync (PUT) registers every job definition with its triggers, per-organization concurrency and cancellation', async () => {
    const res = await fetch(`${server.url}/api/inngest`, { method: 'PUT' });
    expect(res.status).toBe(200);
    const [registration] = inngest.registrations();
    expect(registration!.authorization).toMatch(/^Bearer signkey-test-[0-9a-f]{64}$/); // the hashed key, never the key itself
    expect(registration!.authorization).not.toContain(SIGNING_KEY.slice('signkey-test-'.length));
    const body = registration!.body as { url: string; appName: string; functions: { id: string; triggers: unknown[]; concurrency?: unknown; cancel?: unknown; steps: Record<string, { runtime: { url: string } }> }[] };
    expect(body.url).toBe(`${server.url}/api/inngest`);
    expect(body.appName).toBe('roomtone');
    const byId = new Map(body.functions.map((f) => [f.id, f]));
    expect([...byId.keys()].sort()).toEqual(
      ['auto-recharge', 'expiring-credit-notices', 'generation-run', 'retention', 'spend-alert-mail', 'sweeper', 'webhook-delivery'].map((id) => `roomtone-${id}`),
    );
    const generation = byId.get(FN_GENERATION)!;
    expect(generation.triggers).toEqual([{ event: 'roomtone/generation.admitted' }]);
    expect(generation.concurrency).toEqual([{ key: 'event.data.organizationId', limit: 4 }]);
    expect(generation.cancel).toEqual([{ event: 'roomtone/generation.canceled', if: 'async.data.generationId == event.data.generationId' }]);
    expect(Object.values(generation.steps)[0]!.runtime.url).toBe(`${server.url}/api/inngest?fnId=${FN_GENERATION}&stepId=step`);
    expect(byId.get('roomtone-retention')!.triggers).toEqual([{ cron: '* * * * *' }]);
    expect(byId.get('roomtone-sweeper')!.triggers).toEqual([{ cron: '* * * * *' }]);
    expect(byId.get('roomtone-webhook-delivery')!.concurrency).toEqual([{ key: 'event.data.endpointId', limit: 8 }]);
  });

  it('refuses step execution without a valid signature', async () => {
    const event = { name: 'roomtone/generation.admitted', data: { generationId: 'gen_nothing', organizationId: org.id } };
    expect((await execute(FN_GENERATION, event, {}, [], 'run-unsigned', 'garbage')).status).toBe(401);
    const forged = await execute(FN_GENERATION, event, {}, [], 'run-forged', sign('{}', 'signkey-test-00000000000000000000000000000000'));
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.text)).toEqual({ message: 'Unauthorized' });
    // Nothing ran for those: no such generation was touched, no event went out.
    expect(inngest.events('roomtone/generation.ended')).toEqual([]);
  });

  it('a generation admitted through /v1 completes through signed step requests, one step per request, on the real database', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#6a7b8c' } }).png().toBuffer();
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)]), 'room.png');
    form.set('scale', 'x2');
    form.set('background', 'true');
    const created = await fetch(`${server.url}/v1/upscales`, { method: 'POST', headers: { authorization: `Bearer ${org.liveKey}` }, body: form });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    const event = await inngest.waitForEvent('roomtone/generation.admitted', (e) => e.data.generationId === id);
    expect(event).toMatchObject({ id: `generation-${id}`, data: { generationId: id, organizationId: org.id } });

    const steps: Record<string, { type: 'data'; data: unknown }> = {};
    const stack: string[] = [];
    const ran: string[] = [];
    let final: unknown;
    for (let request = 0; request < 10 && final === undefined; request += 1) {
      const res = await execute(FN_GENERATION, event, steps, stack, `run-${id}`);
      // Every answer is signed with the same key (the executor checks it).
      const [, t, s] = /^t=(\d+)&s=([0-9a-f]{64})$/.exec(res.headers.get('x-inngest-signature') ?? '') ?? [];
      expect(s).toBe(createHmac('sha256', SIGNING_KEY.replace(/^signkey-\w+-/, '')).update(res.text + t).digest('hex'));
      if (res.status === 200) {
        final = JSON.parse(res.text);
        break;
      }
      expect(res.status, res.text).toBe(206);
      const ops = JSON.parse(res.text) as Op[];
      expect(ops).toHaveLength(1);
      const [op] = ops;
      expect(op!.op).toBe('StepRun');
      ran.push(op!.displayName ?? op!.name ?? op!.id);
      steps[op!.id] = { type: 'data', data: op!.data ?? null };
      stack.push(op!.id);
    }
    expect(final).toBe('succeeded');
    expect(ran).toEqual(['start', 'generate', 'finish', 'ended']);
    const row = await db().generation.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, amountRefunded: 0 });
    expect(storedOutputs(row.outputs)[0]).toMatchObject({ width: 128, height: 96 });
    const read = await fetch(`${server.url}/v1/generations/${id}`, { headers: { authorization: `Bearer ${org.liveKey}` } });
    expect(await read.json()).toMatchObject({ id, status: 'succeeded' });
    // The run's step.sendEvent went to Inngest's event API.
    await inngest.waitForEvent('roomtone/generation.ended', (e) => e.data.generationId === id && e.data.status === 'succeeded');

    // A replayed request with every step's result memoized runs nothing again: the start is not counted twice.
    const replay = await execute(FN_GENERATION, event, steps, stack, `run-${id}`);
    expect(replay.status).toBe(200);
    expect(await db().generation.findUniqueOrThrow({ where: { id } })).toMatchObject({ attempts: 1 });
  });
});
