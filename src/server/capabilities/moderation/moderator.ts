/** What a moderator answers for a text: flagged or not, and why. */
export interface ModerationResult {
  flagged: boolean;
  /** Names of the categories that caused the flag (provider's names); empty when not flagged. */
  categories: string[];
}

/** A moderator answers, or throws when it cannot answer (moderation.ts turns that into a refusal). */
export interface Moderator {
  check(text: string, signal?: AbortSignal): Promise<ModerationResult>;
}
