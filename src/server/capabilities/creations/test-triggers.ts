import { DomainError, invalidParam } from '@/server/platform/errors';
import { tierOf } from '@/server/capabilities/billing/pricing';
import type { Caller } from '@/server/capabilities/access/caller';
import { quotaExceededMessage } from './admission';

/**
 * Test-mode triggers, as Stripe's test card numbers: a creation made with a test key and
 * `metadata.roomtone_test_trigger` set to one of these values takes that path, so an
 * integration can meet every outcome without the operator's CLI (docs/api.md lists them).
 * In live mode the key is refused (400 parameter_invalid, param metadata): a trigger is never
 * effective there, and a live request that carries one is not mistaken for a real one.
 */
export const TEST_TRIGGER_KEY = 'roomtone_test_trigger';

export const TEST_TRIGGERS = ['insufficient_balance', 'generation_rate_limit_exceeded', 'overloaded', 'generation_failed'] as const;
export type TestTrigger = (typeof TEST_TRIGGERS)[number];

/** The Retry-After of the triggered 429 (short, so a client's retries are visible and quick) and 503 (the spec's lowest). */
export const TRIGGERED_RATE_LIMIT_RETRY_AFTER_SECONDS = 2;
export const TRIGGERED_OVERLOAD_RETRY_AFTER_SECONDS = 30;

/** The trigger a creation carries, checked against its mode; null when it has none. */
export function testTriggerOf(caller: Pick<Caller, 'mode'>, metadata: Record<string, string> | undefined): TestTrigger | null {
  const value = metadata?.[TEST_TRIGGER_KEY];
  if (value === undefined) return null;
  if (caller.mode === 'live') {
    throw invalidParam('metadata', `The metadata key '${TEST_TRIGGER_KEY}' is reserved for test-mode triggers and refused in live mode; remove it.`);
  }
  if (!(TEST_TRIGGERS as readonly string[]).includes(value)) {
    throw invalidParam('metadata', `Unknown test trigger '${value.slice(0, 60)}' in metadata.${TEST_TRIGGER_KEY}: one of ${TEST_TRIGGERS.join(', ')}.`);
  }
  return value as TestTrigger;
}

/** The refusal an admission trigger stands for, as the real refusal words it (with "test trigger" said); null for `generation_failed`, which is admitted and then fails. */
export function triggeredRefusal(trigger: TestTrigger, caller: Pick<Caller, 'tier'>): DomainError | null {
  const note = `(test trigger ${TEST_TRIGGER_KEY}=${trigger}; nothing was created or charged)`;
  switch (trigger) {
    case 'insufficient_balance':
      return new DomainError('insufficient_balance', `Your balance is too low for this generation. Add credit in the console (Billing). ${note}`);
    case 'generation_rate_limit_exceeded':
      return new DomainError('generation_rate_limit_exceeded', `${quotaExceededMessage(caller.tier, `${tierOf(caller.tier).generationsPerMinute} per minute`)} ${note}`, {
        retryAfterSeconds: TRIGGERED_RATE_LIMIT_RETRY_AFTER_SECONDS,
      });
    case 'overloaded':
      return new DomainError('overloaded', `The service is under heavy load; retry after the delay given. ${note}`, { retryAfterSeconds: TRIGGERED_OVERLOAD_RETRY_AFTER_SECONDS });
    case 'generation_failed':
      return null;
  }
}

/** The message of a failed generation made with the `generation_failed` trigger. */
export const TRIGGERED_FAILURE_MESSAGE = `The generation failed (test trigger ${TEST_TRIGGER_KEY}=generation_failed). You were not charged.`;

/** Whether an admitted generation carries the `generation_failed` trigger (test mode only: admission refuses it in live mode). */
export function failsByTrigger(generation: { mode: string; metadata: unknown }): boolean {
  const metadata = generation.metadata as Record<string, unknown> | null;
  return generation.mode === 'test' && metadata?.[TEST_TRIGGER_KEY] === 'generation_failed';
}
