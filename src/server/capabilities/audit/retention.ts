import { monthsBefore } from '@/server/platform/clock';
import { transaction } from '@/server/platform/db';

/** The audit log keeps 13 months, counted as calendar months. */
export const AUDIT_RETENTION_MONTHS = 13;

/**
 * The only deletion of audit rows: those older than 13 months. The database trigger lets a
 * DELETE through only inside a transaction that declares itself the retention job, and only
 * for rows 13 months old by the database's own clock (so a clock moved ahead, as
 * `maintenance run --now` does, deletes no younger row).
 */
export async function deleteExpiredAuditEvents(now: Date): Promise<number> {
  const cutoff = monthsBefore(now, AUDIT_RETENTION_MONTHS);
  return transaction(async (tx) => {
    await tx.$queryRaw`select set_config('roomtone.audit_retention', 'on', true)`;
    return tx.$executeRaw`delete from "AuditEvent"
      where "createdAt" <= least(${cutoff}::timestamp(3), (now() at time zone 'UTC') - interval '13 months')`;
  });
}
