// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it, beforeAll } from 'vitest';
import { api, createKey, createTestOrg, expectErrorShape, testIp, type TestOrg } from './support';

const ip = testIp();
let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
});

type List<T> = { object: string; data: T[]; has_more: boolean };
type Item = { object: string; id: string; name: string; description: string; category?: string };

describe('GET /v1/styles', () => {
  it('lists at least 24 styles in one page', async () => {
    const res = await api<List<Item>>('/v1/styles', { key: org.testKey, ip });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.length).toBeGreaterThanOrEqual(24);
    for (const style of res.body.data) {
      expect(style.object).toBe('style');
      expect(style.name.length).toBeGreaterThan(2);
      expect(style.description.length).toBeGreaterThan(20);
    }
  });

  it('needs the decorations permission, as the spec says (a renders-only key is refused; its render names the valid style ids)', async () => {
    for (const permissions of [['edits', 'generations_read'], ['renders']] as const) {
      const res = await api('/v1/styles', { key: await createKey(org.id, 'test', [...permissions]), ip });
      expect(res.status, permissions.join()).toBe(403);
      expectErrorShape(res.body);
      expect(res.body.error.code).toBe('permission_denied');
    }
    const allowed = await api<List<Item>>('/v1/styles', { key: await createKey(org.id, 'test', ['decorations']), ip });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.length).toBeGreaterThanOrEqual(24);
    const render = await api<{ error: { code: string; param: string; message: string } }>('/v1/renders', {
      method: 'POST',
      key: await createKey(org.id, 'test', ['renders']),
      ip,
      body: { image: 'https://images.example.com/room.jpg', quality: '1k', style: 'no-such-style' },
    });
    expect(render.status).toBe(400);
    expect(render.body.error).toMatchObject({ code: 'parameter_invalid', param: 'style' });
    for (const style of allowed.body.data) expect(render.body.error.message).toContain(style.id);
  });

  it('refuses unknown query parameters', async () => {
    const res = await api('/v1/styles?limit=5', { key: org.testKey, ip });
    expect(res.status).toBe(400);
    expect((res.body as { error: { code: string; param: string } }).error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });
});

describe('GET /v1/edit-material-categories', () => {
  it('lists at least 8 categories, unpaginated; needs edits', async () => {
    const res = await api<List<Item>>('/v1/edit-material-categories', { key: org.testKey, ip });
    expect(res.status).toBe(200);
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.length).toBeGreaterThanOrEqual(8);
    expect(res.body.data.every((c) => c.object === 'edit_material_category')).toBe(true);
    const ids = res.body.data.map((c) => c.id);
    for (const expected of ['flooring', 'paint', 'tiles', 'stone', 'wood', 'fabrics', 'metals']) expect(ids).toContain(expected);
    const key = await createKey(org.id, 'test', ['decorations']);
    expect((await api('/v1/edit-material-categories', { key, ip })).status).toBe(403);
  });
});

describe('GET /v1/edit-materials', () => {
  it('paginates through at least 80 materials in at least 8 categories, 20 per page by default', async () => {
    const first = await api<List<Item>>('/v1/edit-materials', { key: org.testKey, ip });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.has_more).toBe(true);
    const all: Item[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { body: List<Item> } = await api<List<Item>>(`/v1/edit-materials?limit=100${after ? `&after=${after}` : ''}`, { key: org.testKey, ip });
      expect(page.body, JSON.stringify(page.body)).toHaveProperty('data');
      all.push(...page.body.data);
      if (!page.body.has_more) break;
      after = page.body.data.at(-1)!.id;
    }
    expect(all.length).toBeGreaterThanOrEqual(80);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(new Set(all.map((m) => m.category)).size).toBeGreaterThanOrEqual(8);
    for (const m of all) {
      expect(m.object).toBe('edit_material');
      expect(m.id).toMatch(/^mat_/);
    }
    // Walking with small pages gives the same sequence.
    const walked: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: { body: List<Item> } = await api<List<Item>>(`/v1/edit-materials?limit=37${cursor ? `&after=${cursor}` : ''}`, { key: org.testKey, ip });
      walked.push(...page.body.data.map((m) => m.id));
      if (!page.body.has_more) break;
      cursor = page.body.data.at(-1)!.id;
    }
    expect(walked).toEqual(all.map((m) => m.id));
  });

  it('filters by category and searches by name or category', async () => {
    const wood = await api<List<Item>>('/v1/edit-materials?category=wood&limit=100', { key: org.testKey, ip });
    expect(wood.status).toBe(200);
    expect(wood.body.data.length).toBeGreaterThan(0);
    expect(wood.body.data.every((m) => m.category === 'wood')).toBe(true);
    const oak = await api<List<Item>>('/v1/edit-materials?search=OAK&limit=100', { key: org.testKey, ip });
    expect(oak.body.data.length).toBeGreaterThan(0);
    expect(oak.body.data.every((m) => /oak/i.test(m.name) || /oak/i.test(m.category ?? ''))).toBe(true);
    const byCategory = await api<List<Item>>('/v1/edit-materials?search=tiles&limit=100', { key: org.testKey, ip });
    expect(byCategory.body.data.some((m) => m.category === 'tiles')).toBe(true);
    const none = await api<List<Item>>('/v1/edit-materials?search=zzzzzz', { key: org.testKey, ip });
    expect(none.body).toMatchObject({ data: [], has_more: false });
  });

  it('a search lists name matches before category matches, and its pages follow that order', async () => {
    const all = await api<List<Item>>('/v1/edit-materials?search=leather&limit=100', { key: org.testKey, ip });
    expect(all.status).toBe(200);
    const names = all.body.data.map((m) => m.name);
    // "Fabrics & leather" makes every fabric match; the two leathers by name come first.
    expect(names.slice(0, 2)).toEqual(['Cognac Leather', 'Black Leather']);
    expect(names.length).toBeGreaterThan(2);
    expect(names.slice(2).some((n) => /leather/i.test(n))).toBe(false);
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await api<List<Item>>(`/v1/edit-materials?search=leather&limit=2${cursor ? `&after=${cursor}` : ''}`, { key: org.testKey, ip });
      expect(page.status).toBe(200);
      walked.push(...page.body.data.map((m) => m.id));
      if (!page.body.has_more) break;
      cursor = page.body.data.at(-1)!.id;
    }
    expect(walked).toEqual(all.body.data.map((m) => m.id));
  });

  it.each([
    ['category=spaceship', 'category'],
    ['limit=0', 'limit'],
    ['limit=500', 'limit'],
    ['after=mat_nope', 'after'],
    ['after=gen_abc', 'after'],
    ['sort=name', 'sort'],
  ])('refuses ?%s with 400 parameter_invalid param %s', async (query, param) => {
    const res = await api(`/v1/edit-materials?${query}`, { key: org.testKey, ip });
    expect(res.status).toBe(400);
    expectErrorShape(res.body);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param });
  });
});

describe('withdrawn materials', () => {
  it('are never listed', async () => {
    const EDIT_MATERIALS = (await import('@/server/capabilities/reference/catalog')).catalog().materials;
    const withdrawn = EDIT_MATERIALS.filter((m) => m.withdrawn).map((m) => m.id);
    expect(withdrawn.length).toBeGreaterThan(0);
    const listed: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { body: List<Item> } = await api<List<Item>>(`/v1/edit-materials?limit=100${after ? `&after=${after}` : ''}`, { key: org.testKey, ip });
      listed.push(...page.body.data.map((m) => m.id));
      if (!page.body.has_more) break;
      after = page.body.data.at(-1)!.id;
    }
    for (const id of withdrawn) expect(listed).not.toContain(id);
    expect(listed.length).toBe(EDIT_MATERIALS.length - withdrawn.length);
  });
});
