/**
 * An outbound answer's `Retry-After` (RFC 9110 §10.2.3: delta-seconds or an HTTP date) as
 * milliseconds from `nowMs`; null when absent or unreadable. The one reading of it, for the
 * generative backends' retries and the webhook deliveries' alike; each caller caps it by its
 * own schedule.
 */
export function retryAfterMs(value: string | null | undefined, nowMs = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month ("Wed, 25 Nov 2026 12:00:05 GMT"); Date.parse alone
  // would take "-3" or "1.5" for dates.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
