import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { baseDelayMs, nextAttemptAt, RETRY_WINDOW_MS } from './retry-schedule';
import { retryAfterMs } from '@/server/capabilities/net/retry-after';
import { signatureHeader } from './sign';
import { newSigningSecret } from './signing-secret';

const S = 1000;
const H = 3600 * S;

describe('retry schedule', () => {
  it('waits 30 s, 1 min, 2 min, then doubles to 8 h 32 before attempt 12, then 12 h', () => {
    const delays = Array.from({ length: 15 }, (_, i) => baseDelayMs(i + 2) / S);
    expect(delays).toEqual([30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 43200, 43200, 43200, 43200]);
    expect(baseDelayMs(12)).toBe(8 * H + 32 * 60 * S);
  });

  it('varies each delay by at most 10 %', () => {
    const at = (r: number) => nextAttemptAt({ nextAttempt: 2, nowMs: 0, eventCreatedMs: 0, retryAfterMs: null, random: () => r });
    expect(at(0)).toBe(27_000);
    expect(at(1)).toBe(33_000);
    expect(at(0.5)).toBe(30_000);
  });

  it('makes 16 attempts in the 72 hours, none after', () => {
    const created = 0;
    let now = created;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt({ nextAttempt: attempts + 1, nowMs: now, eventCreatedMs: created, retryAfterMs: null, random: () => 0.5 });
      if (next === null) break;
      expect(next).toBeLessThanOrEqual(created + RETRY_WINDOW_MS);
      now = next;
      attempts += 1;
    }
    expect(attempts).toBe(16);
  });

  it('honours Retry-After (seconds or HTTP date) up to 12 hours, never coming back sooner than asked', () => {
    expect(nextAttemptAt({ nextAttempt: 2, nowMs: 0, eventCreatedMs: 0, retryAfterMs: retryAfterMs(new Date(90 * S).toUTCString(), 0), random: () => 0.5 })).toBe(90 * S);
    // An answer asking for days is held to 12 hours.
    expect(nextAttemptAt({ nextAttempt: 2, nowMs: 0, eventCreatedMs: 0, retryAfterMs: retryAfterMs('999999', 0), random: () => 0.5 })).toBe(12 * H);
    expect(nextAttemptAt({ nextAttempt: 2, nowMs: 0, eventCreatedMs: 0, retryAfterMs: retryAfterMs('soon', 0), random: () => 0.5 })).toBe(30 * S);
    expect(nextAttemptAt({ nextAttempt: 2, nowMs: 0, eventCreatedMs: 0, retryAfterMs: 600 * S, random: () => 0.5 })).toBe(600 * S);
    // A shorter Retry-After does not make us retry faster than the schedule.
    expect(nextAttemptAt({ nextAttempt: 5, nowMs: 0, eventCreatedMs: 0, retryAfterMs: 5 * S, random: () => 0.5 })).toBe(240 * S);
  });
});

describe('signature', () => {
  it('is verified by the official standardwebhooks library with the whsec_ string, one or two secrets', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const old = newSigningSecret();
    const body = JSON.stringify({ id: 'evt_1', type: 'generation.succeeded' });
    const ts = Math.floor(Date.now() / 1000);
    const header = signatureHeader([secret, old], 'evt_1', ts, body);
    expect(header.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': header };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(old).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });
});
