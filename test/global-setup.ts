/**
 * Test harness: one embedded PostgreSQL (fast settings) under .data/test, a fresh database
 * migrated from prisma/migrations, and the real production server started as a child process
 * (the same `scripts/start.mjs` as `npm start`). Tests talk to it over HTTP and reach the
 * service layer through the same database. Both projects that need the server (`integration`
 * and `machine-alone`, vitest.config.ts) name this file: the first to call starts everything,
 * the others share it, and the last teardown stops it.
 */
import path from 'node:path';
import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, recreateDatabase, dropDatabase } from '../src/server/platform/embedded-postgres';
import { migrateDatabase } from '../src/server/tools/migrations/migrate-database';
import { ensureProductionBuild } from '../src/server/platform/build';
import { ensureSdkBuild } from './sdk-build';
import { startImageServer } from './image-server';
import { freePort } from '../src/server/platform/ports';
import { startProcess } from './start-server';
import { setEnv } from '@/server/platform/config';
import { closeDb, databaseUrl as databaseUrlOf, db } from '@/server/platform/db';
import { seedReferenceData } from '@/server/tools/seed/seed';

const root = path.resolve(import.meta.dirname, '..');

interface Harness {
  provided: { baseUrl: string; databaseUrl: string; adminDatabaseUrl: string; migratedTemplate: string; imageOrigin: string; wwwDir: string; engineHoldsDir: string };
  cleanUp(): Promise<void>;
}

/** Process-wide (each project may load this module on its own). */
const shared = globalThis as { roomtoneHarness?: Promise<Harness>; roomtoneHarnessUsers?: number };

export default async function setup(project: TestProject) {
  shared.roomtoneHarnessUsers = (shared.roomtoneHarnessUsers ?? 0) + 1;
  shared.roomtoneHarness ??= startHarness();
  const harness = await shared.roomtoneHarness;
  for (const [name, value] of Object.entries(harness.provided)) project.provide(name as keyof Harness['provided'], value);
  return async () => {
    shared.roomtoneHarnessUsers = (shared.roomtoneHarnessUsers ?? 1) - 1;
    if (shared.roomtoneHarnessUsers === 0) await harness.cleanUp();
  };
}

async function startHarness(): Promise<Harness> {
  const dataDir = path.join(root, '.data', 'test');
  fs.mkdirSync(dataDir, { recursive: true });
  process.env.LOG_LEVEL ??= 'warn';
  process.env.DATA_DIR = dataDir;
  setEnv('APP_SECRET', 'roomtone-test-secret-0123456789abcdefghijklmnop');

  const cluster = await startEmbeddedPostgres(dataDir, { fast: true, database: 'postgres' });
  // What has started, stopped in reverse order at the end, or at once when setup fails (so a
  // failed setup leaves no cluster running for the next run to trip over).
  const cleanups: Array<() => Promise<unknown>> = [() => cluster.stop()];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  try {
    const adminUrl = cluster.url;
    // One database per run, so two runs on one machine never share (or drop) each other's data.
    const database = `roomtone_test_${process.pid}`;
    const databaseUrl = adminUrl.replace(/\/postgres$/, `/${database}`);
    // Migrated and seeded once, then never connected to: the databases of their own that files
    // take (freshDatabase) and the shared one are copies, so no test process or server start
    // migrates or writes the reference data.
    const template = `roomtone_migrated_${process.pid}`;
    await recreateDatabase(adminUrl, template);
    cleanups.push(() => dropDatabase(adminUrl, template));
    setEnv('DATABASE_URL', adminUrl.replace(/\/postgres$/, `/${template}`));
    await migrateDatabase(databaseUrlOf());
    await seedReferenceData(db()); // so the servers' starts on the copies find it mirrored
    await closeDb();
    await recreateDatabase(adminUrl, database, { template });
    cleanups.push(() => dropDatabase(adminUrl, database));
    await migrateDatabase(databaseUrl);
    setEnv('DATABASE_URL', databaseUrl);

    if (process.env.SKIP_BUILD !== '1') {
      ensureProductionBuild(root);
      ensureSdkBuild();
    }

    const images = await startImageServer(dataDir);
    cleanups.push(() => images.close());
    fs.rmSync(images.wwwDir, { recursive: true, force: true });
    fs.mkdirSync(images.wwwDir, { recursive: true });
    // Test files (forked after this) trust the test CA too: they deliver webhooks themselves.
    process.env.NODE_EXTRA_CA_CERTS = images.caPath;

    // Per-organization engine holds (test/support.ts holdGenerations): only the tests that need a
    // generation to stay in progress make theirs slow; every other generation runs at full speed.
    const engineHoldsDir = path.join(dataDir, `engine-holds-${process.pid}`);
    fs.mkdirSync(engineHoldsDir, { recursive: true });
    cleanups.push(async () => fs.rmSync(engineHoldsDir, { recursive: true, force: true }));

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = await startProcess({
      name: 'the test server',
      port,
      // Two web processes under a primary, as `npm start` runs on 2 cores: the tests go through
      // both (rate-limit tests send over 100 parallel connections, spread over the two).
      processes: 2,
      // `npm start`'s flags alone, not TEST_NODE_FLAGS: this server lives for the whole run and
      // serves thousands of queries, where V8's optimised Prisma wasm pays for itself.
      echoEnv: 'TEST_SERVER_LOGS',
      env: {
        DATABASE_URL: databaseUrl,
        SKIP_BUILD: '1',
        SEED_DEMO: 'false',
        TRUST_PROXY: 'true',
        NODE_ENV: 'production',
        DEV_ALLOW_LOOPBACK_URLS: 'true',
        NODE_EXTRA_CA_CERTS: images.caPath,
        // Jobs finish fast here; tests that need a window to cancel in hold their organization's.
        UPSCALE_METHOD: 'lanczos3',
        BUILTIN_ENGINE_HOLDS_DIR: engineHoldsDir,
        WORKER_CONCURRENCY: '2',
        // /metrics is on only with a token (test/ops.test.ts).
        METRICS_TOKEN: 'roomtone-test-metrics-token-0123456789',
        // MCP creation tools wait this long (spec 50 s): short, so test/mcp.test.ts sees both ends
        // (a slow image host makes a creation outlast it deterministically).
        MCP_CREATION_WAIT_MS: '8000',
        // Image downloads give up after this (spec 30 s, the default; safe-http.test.ts checks it):
        // half, so test/creations-images.test.ts waits 15 s for a host that never answers.
        DOWNLOAD_DEADLINE_MS: '15000',
      },
    });
    cleanups.push(() => server.stop());

    process.env.TEST_BASE_URL = baseUrl;
    return { provided: { baseUrl, databaseUrl, adminDatabaseUrl: adminUrl, migratedTemplate: template, imageOrigin: images.origin, wwwDir: images.wwwDir, engineHoldsDir }, cleanUp };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    adminDatabaseUrl: string;
    /** A migrated database nobody connects to, to copy (recreateDatabase's `template`). */
    migratedTemplate: string;
    imageOrigin: string;
    wwwDir: string;
    engineHoldsDir: string;
  }
}
