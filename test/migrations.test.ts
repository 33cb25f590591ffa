// @node-lines same: PostgreSQL's and Prisma's own schema tools, not Node's code
// @worker-process shared: migrations on databases of its own, this process's pool closed and DATABASE_URL given back after it (test/file-environment.ts); it starts no server or process
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { recreateDatabase } from '@/server/platform/embedded-postgres';
import { migrateDatabase } from '@/server/tools/migrations/migrate-database';
import { migrationStatus, schemaDrift } from '@/server/tools/migrations/migration-status';
import { requestLogBodyHash } from '@/server/capabilities/requestlog/requestlog';
import { closeDb, db } from '@/server/platform/db';
import { setEnv } from '@/server/platform/config';
import { environmentForThisFile } from './file-environment';
import { referenceDataMirrored, seedReferenceData } from '@/server/tools/seed/seed';

// DATABASE_URL points at a database of this file's for a while: the shared one is given back after it.
environmentForThisFile();

async function emptyDatabase(name: string): Promise<string> {
  const admin = inject('adminDatabaseUrl');
  await recreateDatabase(admin, name);
  return admin.replace(/\/postgres$/, `/${name}`);
}

describe('prisma/migrations', () => {
  it('a fresh database migrates to exactly prisma/schema.prisma (no drift)', async () => {
    const url = await emptyDatabase('roomtone_drift_check');
    const { applied } = await migrateDatabase(url);
    expect(applied.length).toBeGreaterThan(0);
    expect(await schemaDrift(url)).toBe('');
    const status = await migrationStatus(url, { checkDrift: false });
    expect(status.upToDate).toBe(true);
    expect(status.pending).toEqual([]);
    // Applying again is a no-op.
    expect((await migrateDatabase(url)).applied).toEqual([]);
  });

  it('carries the request log bodies already logged into RequestLogBody, keyed as the service keys them', async () => {
    const BODIES_ONCE = '20261128161617_request_log_bodies_once';
    const url = await emptyDatabase('roomtone_bodies_once');
    // The migrations before it, then lines with bodies as they were stored then.
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-migrations-'));
    for (const name of fs.readdirSync('prisma/migrations')) {
      if (name < BODIES_ONCE || name === 'migration_lock.toml') fs.cpSync(path.join('prisma/migrations', name), path.join(before, name), { recursive: true });
    }
    await migrateDatabase(url, { migrationsDir: before });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const asked = JSON.stringify({ query: { note: 'canapé 🛋️' } });
      const answer = JSON.stringify({ object: 'list', data: [] });
      await client.query(`insert into "Organization" (id, name) values ('org_a', 'A'), ('org_b', 'B')`);
      await client.query(
        `insert into "RequestLog" (id, "organizationId", method, path, status, "durationMs", "requestParams", "responseBody", "createdAt") values
          ('req_1', 'org_a', 'GET', '/v1/generations', 200, 1, $1, $2, '2026-11-01 00:00:00'),
          ('req_2', 'org_a', 'GET', '/v1/generations', 200, 1, null, $2, '2026-11-02 00:00:00'),
          ('req_3', 'org_b', 'GET', '/v1/generations', 200, 1, null, $2, '2026-11-03 00:00:00'),
          ('req_4', null, 'GET', '/v1/styles', 401, 1, null, null, '2026-11-04 00:00:00')`,
        [asked, answer],
      );
      // It and the migrations after it.
      const rest = fs.readdirSync('prisma/migrations').filter((name) => name >= BODIES_ONCE && name !== 'migration_lock.toml').sort();
      expect((await migrateDatabase(url)).applied).toEqual(rest);
      expect(rest[0]).toBe(BODIES_ONCE);

      const hex = (organizationId: string | null, text: string) => requestLogBodyHash(organizationId, text);
      const lines = await client.query(`select id, encode("requestParamsHash", 'hex') as params, encode("responseBodyHash", 'hex') as body from "RequestLog" order by id`);
      expect(lines.rows).toEqual([
        { id: 'req_1', params: hex('org_a', asked), body: hex('org_a', answer) },
        { id: 'req_2', params: null, body: hex('org_a', answer) },
        { id: 'req_3', params: null, body: hex('org_b', answer) },
        { id: 'req_4', params: null, body: null },
      ]);
      const bodies = await client.query(`select encode(hash, 'hex') as hash, "organizationId", body, "lastUsedAt"::text from "RequestLogBody" order by "lastUsedAt"`);
      expect(bodies.rows).toEqual([
        { hash: hex('org_a', asked), organizationId: 'org_a', body: asked, lastUsedAt: '2026-11-01 00:00:00' },
        { hash: hex('org_a', answer), organizationId: 'org_a', body: answer, lastUsedAt: '2026-11-02 00:00:00' },
        { hash: hex('org_b', answer), organizationId: 'org_b', body: answer, lastUsedAt: '2026-11-03 00:00:00' },
      ]);
    } finally {
      await client.end();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });

  it('a start mirrors the reference catalogue; a start that finds it mirrored writes no row; a changed row is written back', async () => {
    const admin = inject('adminDatabaseUrl');
    const name = 'roomtone_reference_seed';
    await recreateDatabase(admin, name, { template: inject('migratedTemplate') });
    const url = admin.replace(/\/postgres$/, `/${name}`);
    // The pool of the database before it closes first (a pool that db() only replaces stays open).
    await closeDb();
    setEnv('DATABASE_URL', url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const versions = async () => (await client.query(`select 'style' as t, id, xmin::text from "Style" union all select 'material', id, xmin::text from "EditMaterial" order by 1, 2`)).rows;
    try {
      // The run's template is seeded: start from empty tables, as a first start does.
      await client.query(`delete from "EditMaterial"; delete from "EditMaterialCategory"; delete from "Style"`);
      expect(await referenceDataMirrored(db())).toBe(false);
      await seedReferenceData(db());
      expect(await referenceDataMirrored(db())).toBe(true);
      const written = await versions();
      expect(written.length).toBeGreaterThan(100);
      await seedReferenceData(db());
      expect(await versions()).toEqual(written);

      const { rows: [style] } = await client.query<{ id: string; name: string }>(`select id, name from "Style" order by sort limit 1`);
      const { rows: [material] } = await client.query<{ id: string; sort: number }>(`select id, sort from "EditMaterial" order by sort limit 1`);
      await client.query(`update "Style" set name = 'Renamed by hand' where id = $1`, [style!.id]);
      await client.query(`update "EditMaterial" set sort = 1000000 where id = $1`, [material!.id]);
      expect(await referenceDataMirrored(db())).toBe(false);
      await seedReferenceData(db());
      expect(await referenceDataMirrored(db())).toBe(true);
      expect((await client.query(`select name from "Style" where id = $1`, [style!.id])).rows).toEqual([{ name: style!.name }]);
      expect((await client.query(`select sort from "EditMaterial" where id = $1`, [material!.id])).rows).toEqual([{ sort: material!.sort }]);
    } finally {
      await client.end();
      await closeDb();
    }
  });
});
