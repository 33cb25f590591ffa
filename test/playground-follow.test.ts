// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: console requests to the shared server; it starts no server or process, sets no environment, and lifts the holds it places
/**
 * The playground's reads beside a run, over /api/trpc on the production server:
 * `playground.create` with `waitMs` answers at the end like a synchronous /v1 creation;
 * `playground.follow` answers when the generation ends (the worker's notification wakes the
 * waiting request) or at its wait limit, scoped like every member read; the generations list's
 * `generations.waitForEnd` answers when one of its rows ends; `playground.availability` says what
 * each kind does on this installation, and agrees with what /v1 answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createTestOrg, holdGenerations, testIp, type TestOrg } from './support';
import { createMember, mutate, query, signedIn } from './console-support';
import { noiseImage, serve } from './images-support';

const ip = testIp();
let image: string;
let org: TestOrg;
let cookie: string;

interface Followed {
  id: string;
  status: string;
  output: unknown[];
}

beforeAll(async () => {
  image = serve(await noiseImage(320, 240), 'jpg');
  org = await createTestOrg();
  cookie = await signedIn((await createMember(org.id, 'developer')).email);
});

async function backgroundUpscale(key = org.testKey): Promise<string> {
  const res = await api<{ id: string; status: string }>('/v1/upscales', { key, ip, body: { image, scale: 'x2', background: true } });
  expect(res.status).toBe(202);
  return res.body.id;
}

/**
 * Repeats a 10 s wait (the procedures' limit) until `done`, for at most a minute: a wait that
 * runs out first is a valid answer, and a loaded machine may need more than one. An answer
 * not `done` must have come when its wait ran out, never before.
 */
async function waitUntil<T>(wait: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const started = performance.now();
    const answer = await wait();
    if (done(answer) || i === 5) return answer;
    expect(performance.now() - started, 'a wait that answered before its end').toBeGreaterThanOrEqual(9_900);
  }
}

describe('playground.follow', () => {
  it('answers at once with waitMs 0, and when the generation ends with a wait', async () => {
    const release = holdGenerations(org.id);
    const id = await backgroundUpscale();
    const now = await query<Followed>('playground.follow', { organizationId: org.id, mode: 'test', id, waitMs: 0 }, cookie);
    release();
    expect(now.status).toBe(200);
    expect(now.data).toMatchObject({ id, status: 'in_progress', output: [] });
    const ended = await waitUntil(
      () => query<Followed>('playground.follow', { organizationId: org.id, mode: 'test', id, waitMs: 10_000 }, cookie),
      (res) => res.data?.status !== 'in_progress',
    );
    expect(ended.status).toBe(200);
    expect(ended.data.status).toBe('succeeded');
    expect(ended.data.output).toHaveLength(1);
  });

  it('answers with the generation still in progress when the wait ends first', async () => {
    const release = holdGenerations(org.id);
    const id = await backgroundUpscale();
    const res = await query<Followed>('playground.follow', { organizationId: org.id, mode: 'test', id, waitMs: 1 }, cookie);
    release();
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id, status: 'in_progress' });
  });

  it('refuses another organization’s or mode’s generation (404, without waiting) and a wait beyond 10 s', async () => {
    const id = await backgroundUpscale();
    const other = await createTestOrg();
    const stranger = await signedIn((await createMember(other.id, 'owner')).email);
    const foreign = await query('playground.follow', { organizationId: other.id, mode: 'test', id, waitMs: 10_000 }, stranger);
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'resource_not_found' });
    const otherMode = await query('playground.follow', { organizationId: org.id, mode: 'live', id, waitMs: 10_000 }, cookie);
    expect(otherMode.status).toBe(404);
    const notMember = await query('playground.follow', { organizationId: org.id, mode: 'test', id, waitMs: 0 }, stranger);
    expect(notMember.status).toBe(404);
    const tooLong = await query('playground.follow', { organizationId: org.id, mode: 'test', id, waitMs: 10_001 }, cookie);
    expect(tooLong.status).toBe(400);
    expect(tooLong.error).toMatchObject({ code: 'parameter_invalid', param: 'waitMs' });
    expect((await query('playground.follow', { organizationId: org.id, mode: 'test', id, waitMs: 0 }, null)).status).toBe(401);
  });
});

describe('playground.create with waitMs', () => {
  it('answers with the ended generation when it ends within the wait, at acceptance with waitMs 0, and refuses a wait beyond 10 s', async () => {
    const scope = { organizationId: org.id, mode: 'test' };
    const started = performance.now();
    const waited = await mutate<{ generation: Followed; requestId: string }>('playground.create', { ...scope, kind: 'upscale', body: { image, scale: 'x2' }, waitMs: 10_000 }, cookie);
    const waitedMs = performance.now() - started;
    expect(waited.status).toBe(200);
    // Ended within the wait, or (a loaded machine) answered when the wait ran out and followed to its end.
    let generation = waited.data.generation;
    if (generation.status === 'in_progress') {
      expect(waitedMs, 'answered in progress before its wait ended').toBeGreaterThanOrEqual(9_900);
      const followed = await waitUntil(
        () => query<Followed>('playground.follow', { ...scope, id: generation.id, waitMs: 10_000 }, cookie),
        (res) => res.data?.status !== 'in_progress',
      );
      generation = followed.data;
    }
    expect(generation.status).toBe('succeeded');
    expect(generation.output).toHaveLength(1);
    const release = holdGenerations(org.id);
    const accepted = await mutate<{ generation: Followed }>('playground.create', { ...scope, kind: 'upscale', body: { image, scale: 'x2' }, waitMs: 0 }, cookie);
    release();
    expect(accepted.status).toBe(200);
    expect(accepted.data.generation).toMatchObject({ status: 'in_progress', output: [] });
    const tooLong = await mutate('playground.create', { ...scope, kind: 'upscale', body: { image, scale: 'x2' }, waitMs: 10_001 }, cookie);
    expect(tooLong.status).toBe(400);
    expect(tooLong.error).toMatchObject({ code: 'parameter_invalid', param: 'waitMs' });
  });
});

describe('generations.waitForEnd', () => {
  it('answers ended when one of the rows ends, not ended when the wait runs out, and ignores another organization’s ids', async () => {
    const scope = { organizationId: org.id, mode: 'test' };
    const release = holdGenerations(org.id);
    const [first, second] = [await backgroundUpscale(), await backgroundUpscale()];
    const short = await query<{ ended: boolean }>('generations.waitForEnd', { ...scope, ids: [first, second], waitMs: 1 }, cookie);
    release();
    expect(short.status).toBe(200);
    expect(short.data).toEqual({ ended: false });
    const ended = await waitUntil(
      () => query<{ ended: boolean }>('generations.waitForEnd', { ...scope, ids: [first, second], waitMs: 10_000 }, cookie),
      (res) => res.data?.ended === true,
    );
    expect(ended.data).toEqual({ ended: true });
    const statuses = await Promise.all([first, second].map((id) => query<Followed>('playground.follow', { ...scope, id, waitMs: 0 }, cookie)));
    expect(statuses.map((s) => s.data.status)).toContain('succeeded');

    // A stranger's wait on these ids learns nothing: nothing of theirs to wait on.
    const other = await createTestOrg();
    const stranger = await signedIn((await createMember(other.id, 'owner')).email);
    const foreign = await query<{ ended: boolean }>('generations.waitForEnd', { organizationId: other.id, mode: 'test', ids: [first, second], waitMs: 10_000 }, stranger);
    expect(foreign.status).toBe(200);
    expect(foreign.data).toEqual({ ended: false });
    expect((await query('generations.waitForEnd', { ...scope, ids: [], waitMs: 0 }, cookie)).status).toBe(400);
  });
});

describe('playground.availability', () => {
  it('with no model backend: live renders, decorations and prompt edits unavailable (as /v1 answers), test mode previews them; mask edits and upscales real', async () => {
    const res = await query<{ type: string; editMode: string | null; live: string; test: string; setting: string | null; testSetting: string | null }[]>(
      'playground.availability',
      { organizationId: org.id, mode: 'live' },
      cookie,
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual([
      { type: 'render', editMode: null, live: 'unavailable', test: 'preview', setting: 'ENGINE_RENDER', testSetting: null },
      { type: 'edit', editMode: 'prompt', live: 'unavailable', test: 'preview', setting: 'ENGINE_EDIT_PROMPT', testSetting: null },
      { type: 'edit', editMode: 'mask', live: 'available', test: 'real', setting: null, testSetting: null },
      { type: 'decoration', editMode: null, live: 'unavailable', test: 'preview', setting: 'ENGINE_DECORATION', testSetting: null },
      { type: 'upscale', editMode: null, live: 'available', test: 'real', setting: 'ENGINE_UPSCALE', testSetting: null },
    ]);
    // What it says unavailable, /v1 refuses before any charge.
    const render = await api<{ error: { code: string } }>('/v1/renders', { key: org.liveKey, ip, body: { image, quality: '1k' } });
    expect(render.status).toBe(503);
    expect(render.body.error.code).toBe('mode_unavailable');
    expect((await query('playground.availability', { organizationId: org.id, mode: 'test' }, null)).status).toBe(401);
  });
});
