// @node-lines same: node-postgres's statements against PostgreSQL; the database client runs under both lines in every integration file of that pass
// @worker-process shared: statements through this process's database pool, which it closes after them; it starts no server or process and sets no environment
/**
 * `sql()` (platform/db.ts) runs each statement as a prepared pg Query of its own and keeps,
 * per statement, what pg makes of its RowDescription (the parsers, the empty row): the rows
 * must be exactly what pg builds, on every execution, in both timestamp modes, and a statement
 * whose rows are described otherwise must be read by its own description.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { closeDb, databaseUrl, sql } from '@/server/platform/db';

afterAll(async () => {
  await closeDb();
});

const ROW = `select 7::int as small, 'x'::text as name, null::text as missing, '2026-01-02 03:04:05.678'::timestamp as at,
  9007199254740993::int8 as big, '{"k":[1,"two"]}'::jsonb as doc, 1.5::float8 as ratio, true as yes
  from generate_series(1, $1::int) as n`;

describe('sql() statements', () => {
  it('reads every execution’s rows as node-postgres does, in both timestamp modes', async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const reference = (await client.query(ROW, [2])).rows as Record<string, unknown>[];
      for (let i = 0; i < 3; i++) {
        const rows = await sql<Record<string, unknown>>(ROW, [2]);
        expect(rows).toHaveLength(2);
        for (const [j, row] of rows.entries()) {
          expect(Object.keys(row)).toEqual(Object.keys(reference[j] as object));
          expect(row).toStrictEqual({ ...reference[j], at: new Date('2026-01-02T03:04:05.678Z'), big: 9007199254740993n });
        }
        const epoch = await sql<Record<string, unknown>>(ROW, [1], 'epochMs');
        expect(epoch).toStrictEqual([{ ...reference[0], at: Date.UTC(2026, 0, 2, 3, 4, 5, 678), big: 9007199254740993n }]);
      }
    } finally {
      await client.end();
    }
  });

  it('reads each statement by its own columns, one after the other on the same connections', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await sql('select 1::int as a, 2::int as b', [])).toStrictEqual([{ a: 1, b: 2 }]);
      expect(await sql('select $1::text as b, $2::int as a', ['x', 3])).toStrictEqual([{ b: 'x', a: 3 }]);
      expect(await sql('select 1 where false', [])).toStrictEqual([]);
      expect(await sql('select null::timestamp as a', [], 'epochMs')).toStrictEqual([{ a: null }]);
    }
  });

  it('fails a statement with PostgreSQL’s error and goes on', async () => {
    await expect(sql('select 1/$1::int as a', [0])).rejects.toMatchObject({ code: '22012' });
    expect(await sql('select 1/$1::int as a', [1])).toStrictEqual([{ a: 1 }]);
  });
});
