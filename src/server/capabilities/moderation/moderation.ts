import { DomainError } from '@/server/platform/errors';
import { config } from '@/server/platform/config';
import { log } from '@/server/platform/logger';
import { BuiltinModerator } from './builtin';
import { OpenAIModerator } from './openai';
import type { ModerationResult, Moderator } from './moderator';

export type { Moderator, ModerationResult } from './moderator';

/**
 * Moderation of edit instructions (live mode, before any charge). A moderator answers
 * flagged/categories or throws when it cannot answer; `moderateInstruction` turns that into
 * the spec's content_policy_violation or service_unavailable (retry after 30 s).
 */

/** The spec's answer time budget for moderation, after which the client gets 503. */
export const MODERATION_TIMEOUT_MS = 10_000;

/** The spec's Retry-After for 503 service_unavailable. */
const RETRY_AFTER_SECONDS = 30;

export type ModerationProvider = 'builtin' | 'openai';

/**
 * The moderator configured by MODERATION_PROVIDER (`builtin`, the default, or `openai`).
 * Cheap to build, so it is built per call (settings from config(), or given).
 * A misconfiguration throws a plain Error (a 500 the operator sees), not a 503 that would
 * tell clients to retry forever.
 */
/** The MODERATION_* settings, read through config(). */
function moderationSettings(): Record<string, string | undefined> {
  const c = config();
  return { MODERATION_PROVIDER: c.MODERATION_PROVIDER, MODERATION_URL: c.MODERATION_URL, MODERATION_API_KEY: c.MODERATION_API_KEY, MODERATION_MODEL: c.MODERATION_MODEL };
}

export function moderator(env: Readonly<Record<string, string | undefined>> = moderationSettings()): Moderator {
  const provider = env.MODERATION_PROVIDER?.trim() || 'builtin';
  switch (provider) {
    case 'builtin':
      return new BuiltinModerator();
    case 'openai':
      return new OpenAIModerator({
        url: env.MODERATION_URL || undefined,
        apiKey: env.MODERATION_API_KEY || undefined,
        model: env.MODERATION_MODEL || undefined,
      });
    default:
      throw new Error(`MODERATION_PROVIDER must be "builtin" or "openai", got "${provider}"`);
  }
}

export interface ModerateOptions {
  /** Defaults to `moderator()` from the environment. */
  moderator?: Moderator;
  /** Defaults to MODERATION_TIMEOUT_MS; tests shorten it. */
  timeoutMs?: number;
  /** Request field named in the 422 (`prompt` on /v1/edits). */
  param?: string;
}

export function contentPolicyViolation(param = 'prompt'): DomainError {
  return new DomainError(
    'content_policy_violation',
    'The instruction was refused by moderation. Do not resend it as is.',
    { param },
  );
}

export function moderationUnavailable(): DomainError {
  return new DomainError(
    'service_unavailable',
    `Moderation is temporarily unavailable. Resend the request after ${RETRY_AFTER_SECONDS} seconds.`,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );
}

/**
 * Resolves when `text` may be used; throws DomainError content_policy_violation when the
 * moderator flags it, service_unavailable (retry after 30 s) when the moderator fails,
 * times out or answers something malformed. Never logs the instruction itself.
 */
export async function moderateInstruction(text: string, options: ModerateOptions = {}): Promise<void> {
  const mod = options.moderator ?? moderator();
  const timeoutMs = options.timeoutMs ?? MODERATION_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;

  // The race guarantees the time budget even for a moderator that ignores its signal.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new Error(`moderation timed out after ${timeoutMs} ms`);
      controller.abort(reason);
      reject(reason);
    }, timeoutMs);
  });

  let result: unknown;
  try {
    result = await Promise.race([mod.check(text, controller.signal), deadline]);
  } catch (error) {
    log.warn('moderation unavailable', { reason: error instanceof Error ? error.message : String(error) });
    throw moderationUnavailable();
  } finally {
    clearTimeout(timer);
  }

  if (!isModerationResult(result)) {
    log.warn('moderation unavailable', { reason: 'moderator returned a malformed result' });
    throw moderationUnavailable();
  }
  if (result.flagged) {
    log.info('instruction refused by moderation', { categories: result.categories });
    throw contentPolicyViolation(options.param);
  }
}

/** Custom moderators are code too; a wrong shape must not pass as "not flagged". */
function isModerationResult(value: unknown): value is ModerationResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.flagged === 'boolean' &&
    Array.isArray(v.categories) &&
    v.categories.every((c) => typeof c === 'string')
  );
}
