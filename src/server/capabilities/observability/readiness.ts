import fs from 'node:fs';
import path from 'node:path';
import cluster from 'node:cluster';
import { config } from '@/server/platform/config';
import { sql } from '@/server/platform/db';
import { askPrimary } from '@/server/platform/primary-ipc';
import { embeddedDatabaseState, type EmbeddedDatabaseState } from '@/server/platform/embedded-database-state';
import { workersRunning } from '@/server/platform/jobs/workers-state';
import { storageHealthy } from '@/server/capabilities/storage/storage-health';

/**
 * GET /readyz: ready to take traffic = the database answers, every migration of this build is
 * applied, the blob store takes a write, and the job workers run (in this process or its
 * primary; with WORKERS_IN_PROCESS=false they run elsewhere and are not checked here).
 * /healthz stays the liveness probe (the process answers).
 *
 * Every check has READINESS_CHECK_MS: a stalled database or bucket (paused, not refusing) makes
 * the check fail in time instead of holding the probe. With the embedded PostgreSQL, its
 * supervisor's state (running, restarting, restarts so far) is reported beside the checks.
 */
export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; storage: boolean; workers: boolean | 'external' };
  embeddedDatabase: EmbeddedDatabaseState | null;
}

export const READINESS_CHECK_MS = 2_000;

function migrationNames(): string[] {
  const dir = path.join(process.cwd(), 'prisma', 'migrations');
  return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
}

/** `work`'s answer, or `fallback` once READINESS_CHECK_MS have passed. */
function bounded<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), READINESS_CHECK_MS);
  });
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

async function databaseChecks(): Promise<{ database: boolean; migrations: boolean }> {
  const applied = await sql<{ migration_name: string }>(`select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null`, []);
  const done = new Set(applied.map((r) => r.migration_name));
  return { database: true, migrations: migrationNames().every((name) => done.has(name)) };
}

async function workersCheck(): Promise<boolean | 'external'> {
  if (!config().WORKERS_IN_PROCESS) return 'external';
  return cluster.isWorker ? (await askPrimary('workers', READINESS_CHECK_MS)) === true : workersRunning();
}

async function embeddedDatabase(): Promise<EmbeddedDatabaseState | null> {
  if (!config().ROOMTONE_EMBEDDED_DATABASE) return null;
  if (!cluster.isWorker) return embeddedDatabaseState();
  return ((await askPrimary('embedded-database', READINESS_CHECK_MS)) as EmbeddedDatabaseState | null) ?? null;
}

export async function readiness(): Promise<Readiness> {
  const [db, storage, workers, embedded] = await Promise.all([
    bounded(databaseChecks(), { database: false, migrations: false }),
    bounded(storageHealthy(), false),
    bounded(workersCheck(), false),
    bounded(embeddedDatabase(), null),
  ]);
  return {
    ready: db.database && db.migrations && storage && workers !== false,
    checks: { ...db, storage, workers },
    embeddedDatabase: embedded,
  };
}
