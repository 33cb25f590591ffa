import { describe, expect, it } from 'vitest';
import { closeDb, db, isDatabaseUnavailable, sql, transaction } from './db';
import { setEnv } from './config';

describe('isDatabaseUnavailable', () => {
  it('recognises an unreachable database whoever reports it: sql(), Prisma queries, raw queries and transactions', async () => {
    setEnv('DATABASE_URL', 'postgresql://postgres:x@127.0.0.1:1/nothing_listens_here');
    try {
      const failures = await Promise.all(
        [() => sql('select 1', []), () => db().$queryRaw`select 1`, () => db().style.findMany(), () => transaction((tx) => tx.style.findMany())].map((run) =>
          run().then(
            () => null,
            (error: unknown) => error,
          ),
        ),
      );
      for (const error of failures) {
        expect(error).not.toBeNull();
        expect(isDatabaseUnavailable(error)).toBe(true);
      }
    } finally {
      await closeDb();
    }
  });

  it('leaves every other failure alone', () => {
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isDatabaseUnavailable({ code: 'P2002', meta: { target: ['id'] } })).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
