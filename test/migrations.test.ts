import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { recreateDatabase } from '@/server/platform/embedded-postgres';
import { applyMigrations, migrationStatus, schemaDrift } from '@/server/platform/migrations';

describe('prisma/migrations', () => {
  it('a fresh database migrates to exactly prisma/schema.prisma (no drift)', async () => {
    const admin = inject('adminDatabaseUrl');
    await recreateDatabase(admin, 'roomtone_drift_check');
    const url = admin.replace(/\/postgres$/, '/roomtone_drift_check');
    const { applied } = await applyMigrations(url);
    expect(applied.length).toBeGreaterThan(0);
    expect(await schemaDrift(url)).toBe('');
    const status = await migrationStatus(url, { checkDrift: false });
    expect(status.upToDate).toBe(true);
    expect(status.pending).toEqual([]);
    // Applying again is a no-op.
    expect((await applyMigrations(url)).applied).toEqual([]);
  });
});
