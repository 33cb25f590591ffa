import { deadline } from '@/server/platform/deadline';
import type { Moderator, ModerationResult } from './moderator';

/**
 * HTTP moderator speaking OpenAI's moderation protocol (also served by compatible gateways):
 *   POST {url}  Authorization: Bearer {key}  {"model": ..., "input": text}
 *   200 {"results": [{"flagged": bool, "categories": {"<name>": bool, ...}, ...}]}
 * Any other answer (network error, timeout, non-2xx, malformed JSON or shape) throws, which
 * moderateInstruction turns into 503 service_unavailable.
 *
 * It uses plain global fetch, not the SSRF-safe client of src/server/capabilities/net: the URL comes from
 * the operator's configuration, never from a client, and may legitimately be a private
 * address (a self-hosted gateway or proxy).
 */
export const DEFAULT_MODERATION_URL = 'https://api.openai.com/v1/moderations';
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

export interface OpenAIModeratorOptions {
  /** Default DEFAULT_MODERATION_URL. */
  url?: string | undefined;
  /** Required with the default URL; a self-hosted gateway may need none. */
  apiKey?: string | undefined;
  /** Default DEFAULT_MODERATION_MODEL. */
  model?: string | undefined;
  /** Per-request timeout, default 10 s (the spec's budget); tests shorten it. */
  timeoutMs?: number | undefined;
}

export class OpenAIModerator implements Moderator {
  readonly url: string;
  readonly model: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: OpenAIModeratorOptions = {}) {
    this.url = options.url ?? DEFAULT_MODERATION_URL;
    this.model = options.model ?? DEFAULT_MODERATION_MODEL;
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    try {
      new URL(this.url);
    } catch {
      throw new Error(`MODERATION_URL is not a valid URL: "${this.url}"`);
    }
    if (!this.apiKey && this.url === DEFAULT_MODERATION_URL) {
      throw new Error('MODERATION_PROVIDER=openai needs MODERATION_API_KEY');
    }
  }

  async check(text: string, signal?: AbortSignal): Promise<ModerationResult> {
    const limit = deadline(this.timeoutMs, [signal]);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.model, input: text }),
        signal: limit.signal,
        // A moderation endpoint has no reason to redirect; refusing keeps the key where it was sent.
        redirect: 'error',
      });
      if (!response.ok) {
        // Drain so the connection can be reused; the body is not needed.
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`moderation provider answered HTTP ${response.status}`);
      }
      // The same signal bounds the body read, so a server that stalls mid-body also times out.
      const raw = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new Error('moderation provider answered malformed JSON');
      }
      return parseModerationAnswer(body);
    } finally {
      limit.dispose();
    }
  }
}

/** Validates the documented answer shape; flagged if any result is flagged. */
export function parseModerationAnswer(body: unknown): ModerationResult {
  const malformed = (why: string) => new Error(`moderation provider answered an unexpected shape: ${why}`);
  if (!isRecord(body) || !Array.isArray(body.results) || body.results.length === 0) {
    throw malformed('no results');
  }
  let flagged = false;
  const categories = new Set<string>();
  for (const result of body.results as unknown[]) {
    if (!isRecord(result) || typeof result.flagged !== 'boolean') throw malformed('result.flagged');
    if (!isRecord(result.categories)) throw malformed('result.categories');
    flagged ||= result.flagged;
    for (const [name, value] of Object.entries(result.categories)) {
      if (value === true) categories.add(name);
    }
  }
  return { flagged, categories: [...categories] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
