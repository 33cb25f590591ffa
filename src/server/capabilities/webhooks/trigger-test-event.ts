import type { Caller } from '@/server/capabilities/access/caller';
import { clock } from '@/server/platform/clock';
import { transaction } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import type { GENERATION_EVENT_TYPES } from '@/shared/webhooks/event-types';
import { recordTestModeEvent } from './events';
import { sampleObject } from './send-test-event';

/** What `POST /v1/events/trigger` answers. */
export interface ApiTriggeredEvent {
  object: 'triggered_event';
  type: string;
  /** The event produced (evt_…), or null when nothing follows the type (no active test endpoint, no open stream). */
  event_id: string | null;
  /** Active test endpoints following the type: each gets one signed delivery, retried as any other. */
  endpoints: number;
  /** Whether an open event stream (`listen`) follows the type and receives it. */
  event_stream: boolean;
}

/**
 * `roomtone-sdk trigger <type>`, as `stripe trigger`: a sample event of a test-mode type
 * (fictitious ids, no image, `metadata.sample`), produced as a real one is — to every active
 * test endpoint that follows it (signed, delivered and retried by the webhook worker) and to
 * the open event streams (`listen`). Test keys only; live endpoints never see one.
 */
export async function triggerTestEvent(caller: Caller, type: (typeof GENERATION_EVENT_TYPES)[number]): Promise<ApiTriggeredEvent> {
  if (caller.mode !== 'test') {
    throw new DomainError('permission_denied', 'Test events are triggered with a test key (rt_test_…): live endpoints receive real events only.');
  }
  const produced = await transaction((tx) => recordTestModeEvent(tx, caller.organizationId, type, sampleObject(type, false, clock.nowSeconds()) as object));
  return { object: 'triggered_event', type, event_id: produced.eventId, endpoints: produced.endpoints, event_stream: produced.streamed };
}
