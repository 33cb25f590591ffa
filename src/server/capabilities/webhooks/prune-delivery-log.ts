import { sql } from '@/server/platform/db';

/** Spec: each endpoint's delivery log is kept 30 days. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;

/**
 * Events older than 30 days go with their deliveries and attempts (cascade); attempts older
 * than 30 days go too. Nothing pending can be that old: retries stop after 72 hours.
 */
export async function pruneDeliveryLog(now: Date): Promise<{ webhook_events_deleted: number; webhook_attempts_deleted: number }> {
  const cutoff = new Date(now.getTime() - DELIVERY_LOG_RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
  const attempts = await sql<{ n: number }>(
    `with gone as (delete from "WebhookAttempt" where "startedAt" < $1::timestamp returning 1) select count(*)::int as n from gone`,
    [cutoff],
  );
  const events = await sql<{ n: number }>(
    `with gone as (delete from "WebhookEvent" where "createdAt" < $1::timestamp returning 1) select count(*)::int as n from gone`,
    [cutoff],
  );
  return { webhook_events_deleted: events[0]?.n ?? 0, webhook_attempts_deleted: attempts[0]?.n ?? 0 };
}
