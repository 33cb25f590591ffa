// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process, sets no environment, and gives the clock it freezes back
/**
 * The generation reads are written in SQL (prepared statements, no Prisma on the hot path).
 * They must return exactly what Prisma returns for the same rows: dates in UTC to the
 * millisecond, JSON parsed, nulls as null, and the same rows in the same order for every
 * combination of filters and cursor, scoped by organization and mode. The /v1 reads, which
 * read the timestamps as numbers, answer exactly what Prisma's rows serialize to.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/platform/db';
import { getGeneration, listGenerations, readGeneration, readGenerationPage, type Scope } from '@/server/capabilities/generations/generations';
import { GENERATION_VIEW_COLUMNS, toApiGeneration, toApiGenerations } from '@/server/capabilities/generation-object/serialize';
import { clock } from '@/server/platform/clock';
import type { GenerationStatus, GenerationType } from '@/generated/prisma/enums';
import { createTestOrg, refusalOf, type TestOrg } from './support';
import { insertGeneration } from './fixtures';

const select = Object.fromEntries(GENERATION_VIEW_COLUMNS.map((c) => [c, true])) as Record<(typeof GENERATION_VIEW_COLUMNS)[number], true>;

describe('SQL generation reads match Prisma', () => {
  let org: TestOrg;
  let other: TestOrg;
  let scope: Scope;
  const ids: string[] = [];
  const types: GenerationType[] = ['render', 'edit', 'decoration', 'upscale'];
  const statuses: GenerationStatus[] = ['in_progress', 'succeeded', 'failed', 'canceled'];

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    scope = { organizationId: org.id, mode: 'test' };
    // Odd milliseconds and a date far from now: a parser that drops ms or uses local time fails.
    // Rows still in progress are made now, with odd milliseconds too: the server's sweeper
    // re-enqueues an unstarted one a minute after its creation, and a worker would start it
    // between two reads.
    const base = Date.UTC(2026, 0, 31, 23, 59, 58, 7);
    const recent = Date.now() - 12_000 + 7;
    for (let i = 0; i < 12; i++) {
      const status = statuses[(i * 3) % 4]!;
      const g = await insertGeneration({
        organizationId: org.id,
        mode: 'test',
        type: types[i % 4],
        status,
        withOutput: i % 5 === 0,
        metadata: i % 2 ? { order: `o${i}`, note: 'ünïcode ✓' } : {},
        createdAt: new Date((status === 'in_progress' ? recent : base) + i * 1_001 + (i % 3)),
      });
      ids.push(g.id);
    }
    await insertGeneration({ organizationId: org.id, mode: 'live' });
    await insertGeneration({ organizationId: other.id, mode: 'test' });
  });

  it('getGeneration returns the row Prisma returns, and nothing outside the scope', async () => {
    for (const id of ids) {
      const expected = await db().generation.findUniqueOrThrow({ where: { id }, select });
      expect(await getGeneration(scope, id)).toStrictEqual(expected);
    }
    expect(await refusalOf(getGeneration({ organizationId: other.id, mode: 'test' }, ids[0]!))).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect(await refusalOf(getGeneration({ organizationId: org.id, mode: 'live' }, ids[0]!))).toMatchObject({ status: 404, code: 'resource_not_found' });
  });

  it('the /v1 reads answer what Prisma’s rows serialize to: every timestamp the same second', async () => {
    // One second for both sides: the output URLs are signed for it.
    const restore = clock.save();
    clock.set(new Date());
    try {
      for (const id of ids) {
        const expected = await toApiGeneration(await db().generation.findUniqueOrThrow({ where: { id }, select }));
        expect(await readGeneration(scope, id)).toStrictEqual(expected);
      }
      const all = await db().generation.findMany({ where: { organizationId: org.id, mode: 'test' }, orderBy: { seq: 'desc' }, select });
      const page = await readGenerationPage(scope, { limit: 100 });
      expect(page).toStrictEqual({ object: 'list', data: await toApiGenerations(all), has_more: false });
      expect(page.data.map((g) => [g.created_at, g.completed_at, g.expires_at])).toContainEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
    } finally {
      restore();
    }
    expect(await refusalOf(readGeneration({ organizationId: other.id, mode: 'test' }, ids[0]!))).toMatchObject({ status: 404, code: 'resource_not_found' });
  });

  it.each([
    {},
    { type: 'render' as const },
    { status: 'succeeded' as const },
    { type: 'edit' as const, status: 'canceled' as const },
  ])('listGenerations(%o) pages exactly like Prisma, with and without a cursor', async (filters) => {
    const where = { organizationId: org.id, mode: 'test' as const, ...filters };
    const all = await db().generation.findMany({ where, orderBy: { seq: 'desc' }, select });
    expect(all.length).toBeGreaterThan(0);
    const first = await listGenerations(scope, { limit: 2, ...filters });
    expect(first.data).toStrictEqual(all.slice(0, 2));
    expect(first.hasMore).toBe(all.length > 2);
    if (all.length > 1) {
      const rest = await listGenerations(scope, { limit: 100, after: all[0]!.id, ...filters });
      expect(rest.data).toStrictEqual(all.slice(1));
      expect(rest.hasMore).toBe(false);
    }
  });
});
