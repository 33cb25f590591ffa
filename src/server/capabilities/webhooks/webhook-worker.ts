import { config } from '@/server/platform/config';
import { clock } from '@/server/platform/clock';
import { log } from '@/server/platform/logger';
import { loggingStep } from '@/server/platform/jobs/steps';
import { sql } from '@/server/platform/db';
import { listen } from '@/server/platform/listen';
import { DELIVERIES_DUE_CHANNEL } from './events';
import { jobs } from '@/server/platform/jobs/client';
import { webhookDeliveryCreated } from './delivery-job';
import { attemptDelivery, claimDueDeliveries, prepareDeliveries, type AttemptOptions, type AttemptResult } from './deliver-webhook';

/** Deliveries claimed per database round trip. */
const CLAIM_BATCH = 50;

/**
 * Calls `onDue` when a transaction that created due deliveries commits (NOTIFY on
 * DELIVERIES_DUE_CHANNEL). `follow()` (re)subscribes when not following: the loops call it at
 * every turn, so a lost LISTEN connection is made again at the next poll, which meanwhile
 * finds the deliveries itself.
 */
function followDueDeliveries(onDue: () => void): { follow(): void; stop(): void } {
  let unlisten: (() => void) | null = null;
  let subscribing = false;
  let stopped = false;
  let warned = false;
  return {
    follow() {
      if (unlisten || subscribing || stopped) return;
      subscribing = true;
      listen(DELIVERIES_DUE_CHANNEL, onDue, () => (unlisten = null))
        .then((stop) => {
          unlisten = stop;
          warned = false;
          if (stopped) stop();
          // What committed before the LISTEN began sent its NOTIFY to no one (the claim that ran
          // meanwhile may have missed it): claim once more now that nothing is missed.
          else onDue();
        })
        .catch((error: unknown) => {
          if (!warned) log.warn('webhooks: cannot follow new deliveries; polling', { error: String(error) });
          warned = true;
        })
        .finally(() => (subscribing = false));
    },
    stop() {
      stopped = true;
      unlisten?.();
    },
  };
}

/**
 * The delivery worker of one process: claims due deliveries in batches and sends them
 * concurrently within a bounded pool (WEBHOOK_CONCURRENCY), at most
 * WEBHOOK_ENDPOINT_CONCURRENCY in flight per endpoint, so one slow or dead receiver only ever
 * occupies its own few slots. Each finished attempt frees its slot at once (no batch barrier).
 * New events wake it at once (NOTIFY on DELIVERIES_DUE_CHANNEL when their transaction commits);
 * the poll every WEBHOOK_POLL_MS finds retries as they come due, and everything while the
 * LISTEN connection is down.
 */
export function startWebhookWorker(options: { concurrency?: number; perEndpoint?: number; pollMs?: number } & AttemptOptions = {}): { stop(): Promise<void> } {
  const concurrency = Math.max(1, options.concurrency ?? config().WEBHOOK_CONCURRENCY);
  const perEndpoint = Math.max(1, options.perEndpoint ?? config().WEBHOOK_ENDPOINT_CONCURRENCY);
  const pollMs = options.pollMs ?? config().WEBHOOK_POLL_MS;
  const inFlight = new Map<string, number>();
  let running = 0;
  let stopped = false;
  let wake: (() => void) | null = null;
  const idle = new Set<() => void>();

  // Set by a NOTIFY (new due deliveries) since the last claim began: the worker claims again at once.
  let notified = false;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      // Stopped while a claim was in flight (no rest to wake then): never start a rest.
      if (stopped || (notified && running < concurrency)) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  async function tick(): Promise<number> {
    const room = concurrency - running;
    if (room <= 0) return 0;
    notified = false;
    const ids = await claimDueDeliveries({ now: clock.now(), limit: Math.min(room, CLAIM_BATCH), perEndpoint, inFlight });
    if (ids.length === 0) return 0;
    for (const p of await prepareDeliveries(ids)) {
      const endpointId = p.row.endpointId;
      running += 1;
      inFlight.set(endpointId, (inFlight.get(endpointId) ?? 0) + 1);
      void attemptDelivery(p, loggingStep('webhook', p.row.id), options)
        .catch((error: unknown) => log.error('webhook attempt failed', { deliveryId: p.row.id, error: String(error) }))
        .finally(() => {
          running -= 1;
          const left = (inFlight.get(endpointId) ?? 1) - 1;
          if (left > 0) inFlight.set(endpointId, left);
          else inFlight.delete(endpointId);
          wake?.();
          if (running === 0) for (const resolve of idle) resolve();
        });
    }
    return ids.length;
  }

  const due = followDueDeliveries(() => {
    notified = true;
    wake?.();
  });

  const loop = (async () => {
    while (!stopped) {
      due.follow();
      let claimed = 0;
      try {
        claimed = await tick();
      } catch (error) {
        log.error('webhook claim failed', { error: String(error) });
      }
      if (claimed === 0 || running >= concurrency) await rest(pollMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      due.stop();
      wake?.();
      await loop;
      if (running > 0) {
        // In-flight attempts end within the answer time; a killed one is claimed again after its lease.
        await Promise.race([new Promise<void>((r) => idle.add(r)), new Promise((r) => setTimeout(r, 11_000))]);
      }
    },
  };
}

/**
 * Deliver everything due as of the clock, until nothing is due (maintenance, tests that move
 * the clock). Returns every attempt made.
 */
export async function deliverDue(options: { perEndpoint?: number } & AttemptOptions = {}): Promise<AttemptResult[]> {
  const results: AttemptResult[] = [];
  for (;;) {
    const ids = await claimDueDeliveries({ now: clock.now(), limit: CLAIM_BATCH, perEndpoint: options.perEndpoint ?? CLAIM_BATCH, inFlight: new Map() });
    if (ids.length === 0) return results;
    const prepared = await prepareDeliveries(ids);
    results.push(...(await Promise.all(prepared.map((p) => attemptDelivery(p, loggingStep('webhook', p.row.id), options)))));
  }
}

/**
 * On an event-driven job provider (Inngest), deliveries are its runs (definitions/webhook-delivery.ts):
 * this loop claims each new delivery (attempts = 0, due) under a one-hour lease and triggers its
 * event (event id = delivery id, so a re-send after the lease is one run); the
 * function then owns its attempts and the sleeps between them. A failed send frees the claim.
 */
export const DISPATCH_LEASE_MS = 3600_000;

export function startWebhookDispatcher(options: { pollMs?: number } = {}): { stop(): Promise<void> } {
  const pollMs = options.pollMs ?? config().WEBHOOK_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  const due = followDueDeliveries(() => wake?.());

  const loop = (async () => {
    while (!stopped) {
      due.follow();
      let claimed = 0;
      try {
        const ids = await claimDueDeliveries({ now: clock.now(), limit: CLAIM_BATCH, perEndpoint: CLAIM_BATCH, inFlight: new Map(), firstAttemptOnly: true, leaseMs: DISPATCH_LEASE_MS });
        claimed = ids.length;
        if (ids.length > 0) {
          const rows = await sql<{ id: string; endpointId: string }>(`select id, "endpointId" from "WebhookDelivery" where id = any($1::text[])`, [ids]);
          await jobs().trigger(rows.map((r) => webhookDeliveryCreated(r))).catch(async (error: unknown) => {
            log.error('webhook events not sent; retried', { error: String(error) });
            await sql(`update "WebhookDelivery" set "nextAttemptAt" = $2::timestamp where id = any($1::text[]) and attempts = 0 and status = 'pending'`, [ids, clock.now().toISOString()]);
            claimed = 0;
          });
        }
      } catch (error) {
        log.error('webhook dispatch failed', { error: String(error) });
      }
      // Not after stop(): it came while the claim was in flight and has nothing to wake.
      if (claimed === 0 && !stopped) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, pollMs);
        });
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      due.stop();
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
