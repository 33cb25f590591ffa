import type { DbTx } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { listEndpoints, type ApiWebhookEndpoint, type EndpointScope } from './endpoints';

export const SUCCESS_RATE_WINDOW_MS = 24 * 3600 * 1000;

export interface SuccessRate {
  /** Attempts started in the last 24 hours (automatic, resends and tests alike: what the log shows). */
  attempts: number;
  succeeded: number;
  /** succeeded / attempts, or null without attempts. */
  rate: number | null;
}

/** Each endpoint's share of successful attempts over the last 24 hours (one grouped query). */
export async function successRates(tx: DbTx, endpointIds: string[]): Promise<Map<string, SuccessRate>> {
  const groups = await tx.webhookAttempt.groupBy({
    by: ['endpointId', 'succeeded'],
    where: { endpointId: { in: endpointIds }, startedAt: { gte: new Date(clock.nowMs() - SUCCESS_RATE_WINDOW_MS) } },
    _count: { _all: true },
  });
  const rates = new Map<string, SuccessRate>(endpointIds.map((id) => [id, { attempts: 0, succeeded: 0, rate: null }]));
  for (const group of groups) {
    const rate = rates.get(group.endpointId);
    if (!rate) continue;
    rate.attempts += group._count._all;
    if (group.succeeded) rate.succeeded += group._count._all;
  }
  for (const rate of rates.values()) rate.rate = rate.attempts > 0 ? rate.succeeded / rate.attempts : null;
  return rates;
}

/** The endpoints of a scope (the console: one organization and mode), each with its 24-hour success rate. */
export async function listEndpointsWithRates(tx: DbTx, scope: EndpointScope): Promise<(ApiWebhookEndpoint & { success_rate_24h: SuccessRate })[]> {
  const endpoints = await listEndpoints(tx, scope);
  const rates = await successRates(
    tx,
    endpoints.map((e) => e.id),
  );
  return endpoints.map((e) => ({ ...e, success_rate_24h: rates.get(e.id) ?? { attempts: 0, succeeded: 0, rate: null } }));
}
