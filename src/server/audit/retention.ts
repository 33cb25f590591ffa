import { monthsBefore } from '@/server/platform/clock';
import { sqlTimestamp, transaction } from '@/server/platform/db';

/** The audit log keeps 13 months, counted as calendar months. */
export const AUDIT_RETENTION_MONTHS = 13;

/**
 * The only deletion of audit rows: those older than 13 months. The database trigger lets a
 * DELETE through only for rows older than the cutoff this transaction declares.
 */
export async function deleteExpiredAuditEvents(now: Date): Promise<number> {
  const cutoff = monthsBefore(now, AUDIT_RETENTION_MONTHS);
  return transaction(async (tx) => {
    await tx.$queryRaw`select set_config('roomtone.audit_retention_before', ${sqlTimestamp(cutoff)}, true)`;
    return (await tx.auditEvent.deleteMany({ where: { createdAt: { lte: cutoff } } })).count;
  });
}
