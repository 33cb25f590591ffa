// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
/**
 * The request log's detail: what a /v1 request asked and what it answered, redacted (secrets,
 * images, signed URL queries) and kept with the line; refused requests too; an idempotent repeat
 * links the generation of its first request; the path filter matches by prefix; another
 * organization reads nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, api, testIp, type TestOrg } from './support';
import { createMember, query, signedIn } from './console-support';
import { noiseImage, serve } from './images-support';
import { waitFor } from './server-processes';
import { db } from '@/server/platform/db';

const ip = testIp();
let image: string;
let org: TestOrg;
let cookie: string;

beforeAll(async () => {
  image = serve(await noiseImage(320, 240), 'jpg');
  org = await createTestOrg();
  const owner = await createMember(org.id, 'owner');
  cookie = await signedIn(owner.email);
});

interface Detail {
  id: string;
  status: number;
  generation_id: string | null;
  idempotent_repeat: boolean;
  request_params: Record<string, unknown> | null;
  response_body: Record<string, unknown> | null;
}

/** The line's detail once the server's buffered log has written it. */
function detail(requestId: string, as = cookie, organizationId = org.id) {
  return waitFor(`log line ${requestId}`, async () => {
    const res = await query<Detail>('logs.get', { organizationId, mode: 'test', id: requestId }, as);
    return res.status === 200 ? res.data : null;
  }, 20_000);
}

describe('request log bodies', () => {
  it('keeps the parameters and the answer of a creation, with secrets, images and signed queries redacted', async () => {
    const secretish = `${image}?X-Amz-Signature=deadbeef`;
    const created = await api<{ id: string }>('/v1/upscales', {
      key: org.testKey,
      ip,
      body: { image: secretish, scale: 'x2', metadata: { order: '42', access_token: 'tok_should_not_be_logged' } },
    });
    expect(created.status).toBe(200);
    const line = await detail(created.headers.get('request-id')!);
    expect(line.request_params).toEqual({
      body: { image: `${image}?[query redacted]`, scale: 'x2', metadata: { order: '42', access_token: '[redacted]' } },
    });
    expect(line.response_body).toMatchObject({ object: 'generation', id: created.body.id, status: 'succeeded' });
    const output = (line.response_body as { output: { url: string }[] }).output[0]!.url;
    expect(output).toMatch(/\?\[query redacted\]$/);
    expect(line.generation_id).toBe(created.body.id);
    expect(line.idempotent_repeat).toBe(false);
    expect(JSON.stringify(line)).not.toContain('tok_should_not_be_logged');
    expect(JSON.stringify(line)).not.toContain('deadbeef');
  });

  it('keeps them for a refused request too', async () => {
    const refused = await api<{ error: { code: string } }>('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x9' } });
    expect(refused.status).toBe(400);
    const line = await detail(refused.headers.get('request-id')!);
    expect(line.request_params).toEqual({ body: { image, scale: 'x9' } });
    expect(line.response_body).toMatchObject({ error: { code: 'parameter_invalid', param: 'scale' } });
    expect(line.generation_id).toBeNull();
  });

  it('keeps the query and the whole answer of a read served by the fast read path, its signed URLs redacted', async () => {
    await api('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x2' } });
    const listed = await api<{ data: { id: string; output: { url: string }[] }[] }>('/v1/generations?limit=3&status=succeeded', { key: org.testKey, ip });
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    const line = await detail(listed.headers.get('request-id')!);
    expect(line.request_params).toEqual({ query: { limit: '3', status: 'succeeded' } });
    const logged = line.response_body as { object: string; data: { id: string; output: { url: string }[] }[] };
    expect(logged.object).toBe('list');
    expect(logged.data.map((g) => g.id)).toEqual(listed.body.data.map((g) => g.id));
    const url = listed.body.data[0]!.output[0]!.url;
    expect(logged.data[0]!.output[0]!.url).toBe(`${url.slice(0, url.indexOf('?'))}?[query redacted]`);
    expect(JSON.stringify(logged)).not.toContain('signature=');
  });

  it('keeps each line its own bodies, byte for byte, when lines with multi-byte characters share a batch', async () => {
    // The batch carries its bodies back to back in one bytea, located by byte offsets (requestlog.ts):
    // an offset counted in characters would shift every body after the first non-ASCII one.
    // Repeated bodies are carried once and located again.
    const notes = ['canapé vert', '🛋️ sofa', 'canapé vert', '沙发 and ü', 'plain', '🛋️ sofa'];
    const sent = await Promise.all(
      notes.map((note) => api<{ error: { code: string } }>('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x9', metadata: { note } } })),
    );
    for (const [i, res] of sent.entries()) {
      expect(res.status).toBe(400);
      const line = await detail(res.headers.get('request-id')!);
      expect(line.request_params).toEqual({ body: { image, scale: 'x9', metadata: { note: notes[i] } } });
      expect(line.response_body).toMatchObject({ error: { code: 'parameter_invalid', param: 'scale' } });
    }
  });

  it("stores a body its organization's requests repeat once, across batches, and apart from another organization's", async () => {
    // A polled page answers the same until something changes: its body is stored once (RequestLogBody).
    const page = '/v1/generations?limit=2&type=render';
    const first = await api(page, { key: org.testKey, ip });
    await detail(first.headers.get('request-id')!); // written: the next line is in another batch
    const second = await api(page, { key: org.testKey, ip });
    const [one, two] = [await detail(first.headers.get('request-id')!), await detail(second.headers.get('request-id')!)];
    expect(two.response_body).toEqual(one.response_body);
    expect(two.request_params).toEqual({ query: { limit: '2', type: 'render' } });
    const hashes = async (...ids: string[]) =>
      db().requestLog.findMany({ where: { id: { in: ids } }, select: { requestParamsHash: true, responseBodyHash: true } });
    const [a, b] = await hashes(one.id, two.id);
    expect(a!.responseBodyHash).toEqual(b!.responseBodyHash);
    expect(await db().requestLogBody.count({ where: { hash: { in: [a!.responseBodyHash!, a!.requestParamsHash!] } } })).toBe(2);

    // The same request and answer from another organization: bodies of its own.
    const other = await createTestOrg();
    const owner = await createMember(other.id, 'owner');
    const theirs = await api(page, { key: other.testKey, ip });
    const line = await detail(theirs.headers.get('request-id')!, await signedIn(owner.email), other.id);
    expect(line.request_params).toEqual(two.request_params);
    const [c] = await hashes(theirs.headers.get('request-id')!);
    expect(c!.requestParamsHash).not.toEqual(a!.requestParamsHash);
    expect(await db().requestLogBody.findUnique({ where: { hash: c!.requestParamsHash! }, select: { organizationId: true } })).toEqual({ organizationId: other.id });
  });

  it('an idempotent repeat links the generation of its first request', async () => {
    const headers = { 'idempotency-key': `log-repeat-${Date.now()}` };
    const first = await api<{ id: string }>('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x2' }, headers });
    const repeat = await api<{ id: string }>('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x2' }, headers });
    expect(repeat.body.id).toBe(first.body.id);
    const line = await detail(repeat.headers.get('request-id')!);
    expect(line).toMatchObject({ generation_id: first.body.id, idempotent_repeat: true });
    expect(line.request_params).toMatchObject({ idempotency_key: headers['idempotency-key'] });
    const original = await detail(first.headers.get('request-id')!);
    expect(original).toMatchObject({ generation_id: first.body.id, idempotent_repeat: false });
  });

  it('filters paths by prefix, with LIKE wildcards taken literally', async () => {
    const one = await api<{ id: string }>('/v1/upscales', { key: org.testKey, ip, body: { image, scale: 'x2' } });
    const read = await api('/v1/generations/' + one.body.id, { key: org.testKey, ip });
    expect(read.status).toBe(200);
    await detail(read.headers.get('request-id')!);
    const list = async (path: string) => (await query<{ data: { path: string }[] }>('logs.list', { organizationId: org.id, mode: 'test', path, limit: 100 }, cookie)).data.data.map((l) => l.path);
    const prefixed = await list('/v1/generations');
    expect(prefixed).toContain(`/v1/generations/${one.body.id}`);
    expect(prefixed.every((p) => p.startsWith('/v1/generations'))).toBe(true);
    expect(await list('/v1/gen_rations')).toEqual([]);
    expect(await list('/v1/%')).toEqual([]);
  });

  it("another organization's member cannot read a line (404)", async () => {
    const res = await api('/v1/generations', { key: org.testKey, ip });
    const id = res.headers.get('request-id')!;
    await detail(id);
    const other = await createTestOrg();
    const stranger = await createMember(other.id, 'owner');
    const strangerCookie = await signedIn(stranger.email);
    expect((await query('logs.get', { organizationId: other.id, mode: 'test', id }, strangerCookie)).httpStatus).toBe(404);
    expect((await query('logs.get', { organizationId: org.id, mode: 'test', id }, strangerCookie)).httpStatus).toBe(404);
  });
});
