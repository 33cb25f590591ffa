/** Errors of the offline migration tool. */

/** A refusal or failure reported by the schema engine (message is user-facing). */
export class MigrationError extends Error {
  override name = 'MigrationError';
  constructor(
    message: string,
    /** Prisma error code such as P3006, when the engine gave one. */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
}
