import type { RateDecision } from '@/server/capabilities/limits/request-rate';
import type { GenerationQuota } from '@/server/capabilities/creations/admission';

/** x-ratelimit-*-requests of every authenticated response (spec: Limits). */
export function requestRateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(decision.limit),
    'x-ratelimit-remaining-requests': String(decision.remaining),
    'x-ratelimit-reset-requests': `${decision.resetSeconds}s`,
  };
}

/** x-ratelimit-*-generations-* of every accepted creation (remaining values include it). */
export function generationQuotaHeaders(quota: GenerationQuota): Record<string, string> {
  return {
    'x-ratelimit-limit-generations-minute': String(quota.minute.limit),
    'x-ratelimit-remaining-generations-minute': String(quota.minute.remaining),
    'x-ratelimit-limit-generations-hour': String(quota.hour.limit),
    'x-ratelimit-remaining-generations-hour': String(quota.hour.remaining),
  };
}
