import fs from 'node:fs';
import path from 'node:path';
import cluster from 'node:cluster';
import { config } from '@/server/platform/config';
import { sql } from '@/server/platform/db';
import { askPrimary } from '@/server/platform/primary-ipc';
import { workersRunning } from '@/server/jobs/workers-state';

/**
 * GET /readyz: ready to take traffic = the database answers, every migration of this build is
 * applied, and the job workers run (in this process or its primary; with
 * WORKERS_IN_PROCESS=false they run elsewhere and are not checked here). /healthz stays the
 * liveness probe (the process answers).
 */
export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; workers: boolean | 'external' };
}

function migrationNames(): string[] {
  const dir = path.join(process.cwd(), 'prisma', 'migrations');
  return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
}

export async function readiness(): Promise<Readiness> {
  let database = false;
  let migrations = false;
  try {
    const applied = await sql<{ migration_name: string }>(`select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null`, []);
    database = true;
    const done = new Set(applied.map((r) => r.migration_name));
    migrations = migrationNames().every((name) => done.has(name));
  } catch {
    // database unreachable (or not migrated at all): not ready
  }
  let workers: boolean | 'external' = 'external';
  if (config().WORKERS_IN_PROCESS) workers = cluster.isWorker ? (await askPrimary('workers', 3000)) === true : workersRunning();
  return { ready: database && migrations && workers !== false, checks: { database, migrations, workers } };
}
